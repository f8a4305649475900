import type { StateInline } from 'markdown-it';
import { parseEnv } from '../env.js';
import { relativizeRealmUrl, sanitizeUrl } from '../urls.js';

interface ParsedLink {
  end: number;
  labelStart: number;
  labelEnd: number;
  href: string;
  title: string | undefined;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x09;
}

/** `[label](destination "title")`; Zulip has no reference links, and `![..](..)` is not a link. */
function parse(state: StateInline, pos: number): ParsedLink | undefined {
  const { src, posMax } = state;
  if (src.charCodeAt(pos) !== 0x5b /* [ */ || (pos > 0 && src.charCodeAt(pos - 1) === 0x21) /* ! */) {
    return undefined;
  }
  const labelEnd = state.md.helpers.parseLinkLabel(state, pos, true);
  if (labelEnd < 0 || src.charCodeAt(labelEnd + 1) !== 0x28 /* ( */) return undefined;
  let p = labelEnd + 2;
  while (p < posMax && isSpace(src.charCodeAt(p))) p++;
  const dest = state.md.helpers.parseLinkDestination(src, p, posMax);
  if (!dest.ok) return undefined;
  // Zulip uses the destination as written, without CommonMark's unescaping.
  let rawHref = src.slice(p, dest.pos);
  if (rawHref.startsWith('<') && rawHref.endsWith('>')) rawHref = rawHref.slice(1, -1);
  p = dest.pos;
  const beforeTitle = p;
  while (p < posMax && isSpace(src.charCodeAt(p))) p++;
  let title: string | undefined;
  if (p < posMax && p !== beforeTitle) {
    const res = state.md.helpers.parseLinkTitle(src, p, posMax);
    if (res.ok) {
      title = res.str;
      p = res.pos;
      while (p < posMax && isSpace(src.charCodeAt(p))) p++;
    }
  }
  if (src.charCodeAt(p) !== 0x29 /* ) */) return undefined;
  const href = sanitizeUrl(rawHref.trim());
  if (href === null) return undefined;
  const { realmUrl } = parseEnv(state.env).context;
  return { end: p + 1, labelStart: pos + 1, labelEnd, href: relativizeRealmUrl(href, realmUrl), title };
}

export function matchLink(state: StateInline, pos: number): number {
  return parse(state, pos)?.end ?? -1;
}

/** A Markdown link; its label is shown as written (Zulip does not format link text). */
export function link(state: StateInline, silent: boolean): boolean {
  const parsed = parse(state, state.pos);
  if (parsed === undefined || parsed.end > state.posMax) return false;
  if (!silent) {
    const open = state.push('link_open', 'a', 1);
    open.attrs = [['href', parsed.href]];
    if (parsed.title !== undefined) open.attrs.push(['title', parsed.title]);
    const label = state.src.slice(parsed.labelStart, parsed.labelEnd);
    const text = state.push('text', '', 0);
    text.content = label.trim() === '' ? parsed.href : label;
    text.meta = { atomic: true };
    state.push('link_close', 'a', -1);
  }
  state.pos = parsed.end;
  return true;
}
