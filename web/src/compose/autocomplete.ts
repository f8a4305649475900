/** What the compose box completes: @-mentions and :emoji: names being typed. */

/** The @-mention being typed at the end of `text` (before the cursor): its query, or null. */
export function mentionQuery(text: string): string | null {
  const match = /(?:^|\s)@\*{0,2}([^\s*@][^*@\n]*|)$/.exec(text);
  return match ? (match[1] ?? '') : null;
}

/** The :emoji: name being typed at the end of `text` (two characters at least, as Zulip's compose box asks). */
export function emojiQuery(text: string): string | null {
  const match = /(?:^|\s):([a-z0-9_+-]{2,})$/i.exec(text);
  return match ? match[1].toLowerCase() : null;
}

/** What the compose box offers to complete: people after @, emoji after :. */
export type Completing = { kind: 'mention' | 'emoji'; query: string; index: number };
export interface Suggestion {
  key: string;
  label: string;
  /** The text that replaces what was typed. */
  insert: string;
}
export const TYPED = { mention: /@\*{0,2}[^\s*@]*[^*@\n]*$/, emoji: /:[a-z0-9_+-]*$/i };
