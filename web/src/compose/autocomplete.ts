/**
 * What the compose box completes, read from the text before the cursor (pure): `@user` and `@group` (`@_` for a
 * silent mention), `:emoji:`, `#channel`, `#**channel**>topic`, and `/` commands at the start of the message, as
 * Zulip's composebox typeahead does.
 */

/** What is being completed: its kind, the query typed, and where the typed text starts (it is what gets replaced). */
export type Completing =
  | { kind: 'mention'; query: string; start: number; silent: boolean }
  | { kind: 'emoji' | 'channel' | 'command'; query: string; start: number }
  | { kind: 'topic'; query: string; start: number; channel: string };

export type CompletingKind = Completing['kind'];

export interface Suggestion {
  key: string;
  label: string;
  /** A short description shown beside the label (a command's purpose, a group's description). */
  detail?: string;
  /** The text that replaces what was typed. */
  insert: string;
}

/** Where a match ends: the text before it (the start of the message or whitespace), then the match. */
const startOf = (text: string, match: RegExpExecArray) => match.index + (/^\s/.test(match[0]) ? 1 : 0);

function mentionAt(text: string): Completing | null {
  const match = /(?:^|\s)@(_?)\*{0,2}([^\s*@][^*@\n]*|)$/.exec(text);
  if (!match) return null;
  return { kind: 'mention', query: match[2] ?? '', start: startOf(text, match), silent: match[1] === '_' };
}

/**
 * What `text` (the message up to the cursor) is completing, or null. A `/` command only as the whole message so far;
 * a topic after `#**Channel>` or `#**Channel**>` (also `#**Channel** >`, as a picked channel leaves it); a channel
 * after `#` (not `# `, a heading); a mention after `@` or `@_`; an emoji after `:` and two characters.
 */
export function completingAt(text: string): Completing | null {
  const command = /^\/([a-z]*)$/i.exec(text);
  if (command) return { kind: 'command', query: command[1].toLowerCase(), start: 0 };
  const topic = /(?:^|\s)#\*\*([^*>\n]+?)(?:\*\* ?)?>([^*\n]*)$/.exec(text);
  if (topic) return { kind: 'topic', channel: topic[1], query: topic[2], start: startOf(text, topic) };
  const channel = /(?:^|\s)#\*{0,2}([^\s*#>][^*#>\n]*|)$/.exec(text);
  if (channel) return { kind: 'channel', query: channel[1], start: startOf(text, channel) };
  const mention = mentionAt(text);
  if (mention) return mention;
  const emoji = /(?:^|\s):([a-z0-9_+-]{2,})$/i.exec(text);
  if (emoji) return { kind: 'emoji', query: emoji[1].toLowerCase(), start: startOf(text, emoji) };
  return null;
}

/** The message with what was typed from `completing.start` to the cursor replaced: its text and the new cursor. */
export function replaceTyped(
  content: string,
  cursor: number,
  completing: Completing,
  insert: string,
): { text: string; cursor: number } {
  const before = content.slice(0, completing.start) + insert;
  return { text: before + content.slice(cursor), cursor: before.length };
}
