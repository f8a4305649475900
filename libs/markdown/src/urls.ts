import { channelNarrowHash, topicNarrowHash } from '@confab/zulip';

// Schemes a link may use: web, ftp and the HTML spec's safelisted schemes (Zulip's list). No javascript:, data:, vbscript:.
const ALLOWED_SCHEMES = new Set([
  'http',
  'https',
  'ftp',
  'file',
  'bitcoin',
  'geo',
  'im',
  'irc',
  'ircs',
  'magnet',
  'mailto',
  'matrix',
  'mms',
  'news',
  'nntp',
  'openpgp4fpr',
  'sip',
  'sms',
  'smsto',
  'ssh',
  'tel',
  'urn',
  'webcal',
  'wtai',
  'xmpp',
]);

// URL parsers drop these before looking for a scheme, so `java\tscript:` must be read as `javascript:`.
const IGNORED_CHARS = /[\t\n\r]/g;
const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * Zulip's link sanitizer: `null` rejects the link (it then stays plain text). Scheme-less links get
 * `http://`, `user@host` becomes `mailto:`, and root-relative and fragment links are kept as they are.
 */
export function sanitizeUrl(raw: string): string | null {
  let url = raw.replace(/ /g, '%20').replace(IGNORED_CHARS, '');
  // Leading control characters and spaces are ignored by URL parsers too.
  while (url !== '' && url.charCodeAt(0) <= 0x20) url = url.slice(1);
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) {
    if (url.startsWith('//')) return sanitizeUrl(`http:${url}`);
    const path = url.split(/[?#]/, 1)[0] ?? '';
    if (path.includes('@')) return `mailto:${url}`;
    if (url.startsWith('/') || url.startsWith('#')) return url;
    return sanitizeUrl(`http://${url}`);
  }
  if (!ALLOWED_SCHEMES.has(scheme)) return null;
  return scheme + url.slice(scheme.length);
}

/** Links into the realm itself (`#narrow/...`, uploads) become relative, as Zulip renders them. */
export function relativizeRealmUrl(href: string, realmUrl: string | undefined): string {
  if (realmUrl === undefined) return href;
  const prefix = `${realmUrl}/`;
  if (href.startsWith(`${prefix}#`) || href.startsWith(`${prefix}user_uploads/`)) return href.slice(prefix.length);
  return href;
}

/** The upload path id when a link points at `/user_uploads/<path>` on this realm. */
export function uploadPathOf(href: string, realmUrl: string | undefined): string | undefined {
  let path: string;
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) {
    let parsed: URL;
    try {
      parsed = new URL(href);
    } catch {
      return undefined;
    }
    if (realmUrl === undefined || parsed.origin !== new URL(realmUrl).origin) return undefined;
    path = parsed.pathname;
  } else {
    path = new URL(href, 'http://relative.invalid/').pathname;
  }
  const prefix = '/user_uploads/';
  return path.startsWith(prefix) && path.length > prefix.length
    ? decodeURIComponentSafe(path.slice(prefix.length))
    : undefined;
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const IMAGE_EXTENSIONS = ['.bmp', '.gif', '.jpe', '.jpeg', '.jpg', '.png', '.webp'];

/** Whether a link looks like an image Zulip would preview (by the path's extension). */
export function looksLikeImage(href: string): boolean {
  let path: string;
  try {
    path = new URL(href, 'http://relative.invalid/').pathname.toLowerCase();
  } catch {
    return false;
  }
  return IMAGE_EXTENSIONS.some((ext) => path.endsWith(ext));
}

const BREAKS_TOPIC_LINK = /[`>*&[\]]|\$\$/;
const LINK_TEXT_ESCAPES: Record<string, string> = {
  '`': '&#96;',
  '>': '&gt;',
  '*': '&#42;',
  '&': '&amp;',
  $$: '&#36;&#36;',
  '[': '&#91;',
  ']': '&#93;',
};

/**
 * The Markdown a server-written message links a topic with (Zulip's get_stream_topic_link_syntax): `#**channel>topic**`,
 * or a plain link where a name holds characters that syntax cannot carry.
 */
export function topicLinkSyntax(channel: { id: number; name: string }, topic: string, emptyTopicName: string): string {
  if (!BREAKS_TOPIC_LINK.test(channel.name) && !BREAKS_TOPIC_LINK.test(topic)) return `#**${channel.name}>${topic}**`;
  const escape = (text: string) => text.replace(new RegExp(BREAKS_TOPIC_LINK, 'g'), (c) => LINK_TEXT_ESCAPES[c] ?? c);
  const href = topicNarrowHash(channel, topic);
  return `[#${escape(channel.name)} > ${escape(topic === '' ? emptyTopicName : topic)}](${href})`;
}

/** The Markdown a server-written message links a channel with (Zulip's get_stream_link_syntax): `#**channel**`. */
export function channelLinkSyntax(channel: { id: number; name: string }): string {
  if (!BREAKS_TOPIC_LINK.test(channel.name)) return `#**${channel.name}**`;
  const escaped = channel.name.replace(new RegExp(BREAKS_TOPIC_LINK, 'g'), (c) => LINK_TEXT_ESCAPES[c] ?? c);
  return `[#${escaped}](${channelNarrowHash(channel)})`;
}

/** The Markdown a server-written message links a message in a topic with: `[#channel > topic](…/with/<id>)`. */
export function messageLinkSyntax(
  channel: { id: number; name: string },
  topic: string,
  messageId: number,
  emptyTopicName: string,
): string {
  const escape = (text: string) => text.replace(new RegExp(BREAKS_TOPIC_LINK, 'g'), (c) => LINK_TEXT_ESCAPES[c] ?? c);
  const href = `${topicNarrowHash(channel, topic)}/with/${messageId}`;
  return `[#${escape(channel.name)} > ${escape(topic === '' ? emptyTopicName : topic)}](${href})`;
}

/** Zulip's get_unused_fence: backticks enough to fence `content` (one more than its longest fence, at least 3). */
export function unusedFence(content: string): string {
  let longest = 2;
  for (const m of content.matchAll(/^\s*(`{3,})/gm)) longest = Math.max(longest, m[1]!.length);
  return '`'.repeat(longest + 1);
}
