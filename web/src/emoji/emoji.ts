/** The emoji one can pick: every Unicode emoji the server knows (server_emoji_data_url) and the realm's custom ones. */

export interface EmojiChoice {
  name: string;
  code: string;
  type: 'unicode_emoji' | 'realm_emoji';
  /** Image of a custom emoji. */
  url?: string;
}

interface RealmEmoji {
  id: string;
  name: string;
  source_url: string;
  deactivated?: boolean;
}

/** Custom emoji from /register's realm_emoji (or a realm_emoji event), without deactivated ones. */
export function realmEmojiChoices(realmEmoji: Record<string, RealmEmoji> | undefined): EmojiChoice[] {
  return Object.values(realmEmoji ?? {})
    .filter((e) => !e.deactivated)
    .map((e) => ({ name: e.name, code: e.id, type: 'realm_emoji', url: e.source_url }));
}

/** Unicode emoji from the server's emoji data (`{ code_to_names: { "1f44d": ["+1", "thumbs_up", …] } }`). */
export async function unicodeEmojiChoices(url: string | undefined): Promise<EmojiChoice[]> {
  if (!url) return [];
  const response = await fetch(new URL(url, location.href).pathname, { credentials: 'same-origin' });
  if (!response.ok) return [];
  const data = (await response.json()) as { code_to_names?: Record<string, string[]> };
  return Object.entries(data.code_to_names ?? {}).flatMap(([code, names]) =>
    names.map((name) => ({ name, code, type: 'unicode_emoji' as const })),
  );
}

/** Up to `limit` emoji whose name starts with the query, then those whose name contains it; custom ones first. */
export function emojiMatches(choices: readonly EmojiChoice[], query: string, limit = 8): EmojiChoice[] {
  const q = query.toLowerCase();
  const starts = choices.filter((e) => e.name.startsWith(q));
  const contains = choices.filter((e) => !e.name.startsWith(q) && e.name.includes(q));
  const rank = (e: EmojiChoice) => (e.type === 'realm_emoji' ? 0 : 1);
  return [...starts.sort((a, b) => rank(a) - rank(b) || a.name.length - b.name.length), ...contains].slice(0, limit);
}
