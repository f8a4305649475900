/** The server's emoji data (server_emoji_data_url of /register). */
import type { EmojiChoice } from '../store/model';

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
