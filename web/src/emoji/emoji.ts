/** The emoji one can pick: every Unicode emoji the server knows (server_emoji_data_url) and the realm's custom ones. */
import type { EmojiChoice } from '../store/model';

export { realmEmojiChoices, type EmojiChoice } from '../store/model';
export { unicodeEmojiChoices } from '../lib/emoji-data';

/** Up to `limit` emoji whose name starts with the query, then those whose name contains it; custom ones first. */
export function emojiMatches(choices: readonly EmojiChoice[], query: string, limit = 8): EmojiChoice[] {
  const q = query.toLowerCase();
  const starts = choices.filter((e) => e.name.startsWith(q));
  const contains = choices.filter((e) => !e.name.startsWith(q) && e.name.includes(q));
  const rank = (e: EmojiChoice) => (e.type === 'realm_emoji' ? 0 : 1);
  return [...starts.sort((a, b) => rank(a) - rank(b) || a.name.length - b.name.length), ...contains].slice(0, limit);
}
