/**
 * What other users' personal settings do to a message they receive: a muted sender's messages arrive read, and a
 * message containing one of a user's alert words gets `has_alert_word` for them. The settings service owns both;
 * this service keeps copies from their events.
 */
export interface PersonalFilters {
  /** Sender id → the users who muted that sender. */
  mutedBy: ReadonlyMap<number, readonly number[]>;
  /** User id → their alert words, lower-cased. */
  alertWords: ReadonlyMap<number, readonly string[]>;
}

export const NO_FILTERS: PersonalFilters = { mutedBy: new Map(), alertWords: new Map() };

// Zulip's AlertWordNotificationProcessor: what may come right before and right after an alert word.
const ALLOWED_BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const ALLOWED_AFTER = new Set([' ', '\n', ')', '"', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** Whether `word` (lower-case) occurs in `text` (lower-case) as Zulip counts an alert word: not inside a word. */
function occurs(text: string, word: string): boolean {
  if (word === '') return false;
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const end = at + word.length;
    const startOk = at === 0 || ALLOWED_BEFORE.has(text[at - 1]!);
    const endOk = end >= text.length || ALLOWED_AFTER.has(text[end]!);
    if (startOk && endOk) return true;
  }
  return false;
}

/** Users whose alert words occur in the message's Markdown source (Zulip matches the source, case-insensitively). */
export function alertedUsers(content: string, alertWords: PersonalFilters['alertWords']): number[] {
  if (alertWords.size === 0) return [];
  const text = content.toLowerCase();
  const users: number[] = [];
  for (const [userId, words] of alertWords) if (words.some((w) => occurs(text, w))) users.push(userId);
  return users;
}
