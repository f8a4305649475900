import { matchAutolink } from './inline/autolink.js';
import { expandTemplate, isValidTemplate, templateVariables } from './uri-template.js';

/** An organization's linkifier: text matching `pattern` (Python/RE2 syntax) links to `urlTemplate` (RFC 6570). */
export interface Linkifier {
  pattern: string;
  urlTemplate: string;
}

export interface CompiledLinkifier extends Linkifier {
  /** The pattern, sticky, followed by Zulip's end boundary (the end, or a character that is no letter or digit). */
  sticky: RegExp;
  /** The same, for searching a whole text (topic links). */
  global: RegExp;
}

/** Why a pattern or template cannot be a linkifier, in Zulip's words. */
export class LinkifierError extends Error {
  constructor(
    message: string,
    /** The field Zulip's ValidationError names: `pattern`, `url_template`, or `__all__`. */
    readonly field: string,
  ) {
    super(message);
  }
}

/** RE2 has no lookaround and no backreferences; JavaScript would accept them. */
const UNSUPPORTED = /\(\?<?[=!]|\\[1-9]|\(\?P=/;
const AFTER = '(?=$|[^\\p{L}\\p{N}])';

/** Python's `(?P<name>...)` is JavaScript's `(?<name>...)`. */
function translate(pattern: string): string {
  return pattern.replace(/\(\?P</g, '(?<');
}

function compileRegex(pattern: string): { sticky: RegExp; global: RegExp; groups: Set<string> } {
  if (UNSUPPORTED.test(pattern)) throw new LinkifierError('Bad regular expression: unsupported syntax', 'pattern');
  const source = translate(pattern);
  try {
    const sticky = new RegExp(`(?:${source})${AFTER}`, 'uy');
    const global = new RegExp(`(?:${source})${AFTER}`, 'gu');
    const groups = new Set([...source.matchAll(/\(\?<([A-Za-z_][A-Za-z0-9_]*)>/g)].map((m) => m[1]!));
    return { sticky, global, groups };
  } catch (err) {
    const reason = err instanceof Error ? err.message.replace(/^Invalid regular expression: /, '') : String(err);
    throw new LinkifierError(`Bad regular expression: ${reason}`, 'pattern');
  }
}

/**
 * Checks a linkifier as Zulip's RealmFilter validation does (the pattern compiles, the template is valid, and the
 * pattern's named groups are exactly the template's variables), and compiles it.
 */
export function compileLinkifier(linkifier: Linkifier): CompiledLinkifier {
  if (linkifier.pattern === '') throw new LinkifierError('This field cannot be blank.', 'pattern');
  const { sticky, global, groups } = compileRegex(linkifier.pattern);
  if (linkifier.urlTemplate === '') throw new LinkifierError('This field cannot be blank.', 'url_template');
  if (!isValidTemplate(linkifier.urlTemplate)) throw new LinkifierError('Invalid URL template.', 'url_template');
  const variables = templateVariables(linkifier.urlTemplate);
  const notInPattern = [...variables].filter((v) => !groups.has(v)).sort();
  if (notInPattern.length > 0)
    throw new LinkifierError(
      `Group '${notInPattern[0]}' in URL template is not present in linkifier pattern.`,
      '__all__',
    );
  const notInTemplate = [...groups].filter((g) => !variables.has(g)).sort();
  if (notInTemplate.length > 0)
    throw new LinkifierError(
      `Group '${notInTemplate[0]}' in linkifier pattern is not present in URL template.`,
      '__all__',
    );
  return { ...linkifier, sticky, global };
}

const cache = new Map<string, CompiledLinkifier | null>();

/** Compiled linkifiers (cached; ones that no longer compile are left out, as Zulip skips them). */
export function compiledLinkifiers(linkifiers: readonly Linkifier[]): CompiledLinkifier[] {
  const out: CompiledLinkifier[] = [];
  for (const l of linkifiers) {
    const key = `${l.pattern}\u0000${l.urlTemplate}`;
    if (!cache.has(key)) {
      if (cache.size > 10_000) cache.clear();
      try {
        cache.set(key, compileLinkifier(l));
      } catch {
        cache.set(key, null);
      }
    }
    const compiled = cache.get(key);
    if (compiled) out.push(compiled);
  }
  return out;
}

/** The URL a match links to: the template expanded with the named groups that matched. */
export function linkifierUrl(linkifier: CompiledLinkifier, match: RegExpExecArray): string {
  return expandTemplate(linkifier.urlTemplate, match.groups ?? {});
}

/** Zulip's linkifier start boundary: the start, whitespace, or one of ' " ( , : <. */
export function linkifierMayStartAt(text: string, pos: number): boolean {
  return pos === 0 || /[\s'"(,:<]/u.test(text.charAt(pos - 1));
}

/** Zulip's basic_link_splitter: what separates URLs in a topic. */
const LINK_SPLITTER = /[ !;?),'"]/;

/**
 * Zulip's topic_links: each linkifier's matches (in the linkifiers' order of precedence) and the topic's bare URLs,
 * in the order they appear, overlapping ones dropped in favour of the earlier (then the higher-precedence) one.
 */
export function topicLinks(linkifiers: readonly Linkifier[], topic: string): { text: string; url: string }[] {
  const matches: { text: string; url: string; index: number; precedence: number }[] = [];
  compiledLinkifiers(linkifiers).forEach((linkifier, precedence) => {
    for (const match of topic.matchAll(linkifier.global)) {
      if (match[0] === '' || !linkifierMayStartAt(topic, match.index)) continue;
      matches.push({ text: match[0], url: linkifierUrl(linkifier, match), index: match.index, precedence });
    }
  });
  let offset = 0;
  for (const piece of topic.split(LINK_SPLITTER)) {
    const end = matchAutolink(piece, 0);
    if (end > 0) {
      const url = piece.slice(0, end);
      const href = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
      matches.push({ text: url, url: href, index: offset, precedence: Number.MAX_SAFE_INTEGER });
    }
    offset += piece.length + 1;
  }
  matches.sort((a, b) => a.index - b.index || a.precedence - b.precedence);
  const kept: typeof matches = [];
  let until = 0;
  for (const m of matches) {
    if (m.index < until) continue;
    kept.push(m);
    until = m.index + m.text.length;
  }
  return kept.map(({ text, url }) => ({ text, url }));
}
