import { invalid } from '@confab/errors';

/** Zulip's MAX_MESSAGE_LENGTH (Unicode code points). */
export const MAX_MESSAGE_LENGTH = 10_000;
/** Zulip's MAX_TOPIC_NAME_LENGTH. */
export const MAX_TOPIC_LENGTH = 60;
export const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;

const codePointLength = (text: string) => {
  // Strings without surrogates have one code point per UTF-16 unit.
  return /[\uD800-\uDFFF]/.test(text) ? Array.from(text).length : text.length;
};

/** Zulip's truncate_content: keeps `max` code points including the marker. */
export function truncate(text: string, max: number, marker: string): string {
  if (codePointLength(text) <= max) return text;
  return (
    Array.from(text)
      .slice(0, max - marker.length)
      .join('') + marker
  );
}

/** Zulip's normalize_body: trailing whitespace and leading newlines go; empty and NUL are refused; long is cut. */
export function normalizeContent(raw: string, max = MAX_MESSAGE_LENGTH): string {
  const body = raw.trimEnd().replace(/^\n+/, '');
  if (body.length === 0) throw invalid('Message must not be empty');
  if (body.includes('\u0000')) throw invalid('Message must not contain null bytes');
  return truncate(body, max, '\n[message truncated]');
}

function isNonCharacter(cp: number): boolean {
  return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
}

/** 1-based position of the first control, surrogate or non-character code point, or null (Zulip's check). */
export function firstUnprintable(text: string): number | null {
  let position = 0;
  for (const ch of text) {
    position += 1;
    const cp = ch.codePointAt(0)!;
    if (/^[\p{Cc}\p{Cs}]$/u.test(ch) || isNonCharacter(cp)) return position;
  }
  return null;
}

/**
 * A topic as sent: stripped; `(no topic)` and the organization's name for the empty topic mean the empty topic;
 * unprintable characters refused; longer than 60 characters truncated with "...".
 */
export function normalizeTopic(raw: string, emptyTopicDisplayName: string): string {
  let topic = raw.trim();
  if (topic === '(no topic)' || topic === emptyTopicDisplayName) topic = '';
  const bad = firstUnprintable(topic);
  if (bad !== null) throw invalid(`Invalid character in topic, at position ${bad}!`);
  return truncate(topic, MAX_TOPIC_LENGTH, '...');
}

/** Zulip's check_stream_name. */
export function checkChannelName(name: string): void {
  if (name.trim() === '') throw invalid("Channel name can't be empty.");
  if (codePointLength(name) > MAX_CHANNEL_NAME_LENGTH) {
    throw invalid(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  }
  const bad = firstUnprintable(name);
  if (bad !== null) throw invalid(`Invalid character in channel name, at position ${bad}.`);
}

/** Topics compare case-insensitively (Zulip matches them with upper()/iexact). */
export const topicKey = (topic: string) => topic.toLowerCase();

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
