import { invalid } from '@confab/errors';
import { allEmoji, checkReactionEmoji, resolveReactionEmoji, type ReactionType } from '@confab/markdown';
import type { Database } from './store.js';

/** Zulip's reaction types as clients send and parse them (Confab's markdown library says `service_extra_emoji`). */
export type ZulipReactionType = 'unicode_emoji' | 'realm_emoji' | 'zulip_extra_emoji';

const toLibrary = (type: string): string => (type === 'zulip_extra_emoji' ? 'service_extra_emoji' : type);
const toZulip = (type: ReactionType): ZulipReactionType =>
  type === 'service_extra_emoji' ? 'zulip_extra_emoji' : type;

/** The realm's custom emoji, active and deactivated, by id (the emoji code) and active ones by name. */
async function customEmoji(db: Database, realmId: number) {
  const all = await db.store.emoji.inRealm(realmId);
  return {
    byId: new Map(all.map((e) => [String(e.id), { name: e.name, deactivated: e.deactivated }])),
    byName: new Map(
      all.filter((e) => !e.deactivated).map((e) => [e.name, { id: String(e.id), sourceUrl: '', deactivated: false }]),
    ),
  };
}

/** Zulip's get_emoji_data: what a name means (custom emoji first, then `zulip`, then Unicode). */
export async function emojiByName(
  db: Database,
  realmId: number,
  name: string,
): Promise<{ code: string; type: ZulipReactionType }> {
  const { byName } = await customEmoji(db, realmId);
  const found = resolveReactionEmoji(name, (n) => byName.get(n));
  if (!found) throw invalid(`Emoji '${name}' does not exist`);
  return { code: found.code, type: toZulip(found.type) };
}

/** Zulip's check_emoji_request: the name, code and type must name one usable emoji. */
export async function checkEmoji(
  db: Database,
  realmId: number,
  emoji: { name: string; code: string; type: string },
): Promise<ZulipReactionType> {
  const { byId } = await customEmoji(db, realmId);
  const check = checkReactionEmoji({ ...emoji, type: toLibrary(emoji.type) }, (id) => byId.get(id));
  if (!check.ok) throw invalid(check.message);
  return toZulip(toLibrary(emoji.type) as ReactionType);
}

/** Whether a name is a built-in (Unicode) emoji's, which only administrators may override with a custom one. */
export function isBuiltInEmojiName(name: string): boolean {
  return builtInNames().has(name);
}

let names: Set<string> | undefined;
function builtInNames(): Set<string> {
  names ??= new Set(allEmoji().flatMap((e) => [e.name, ...e.aliases]));
  return names;
}

/** The data behind `server_emoji_data_url`: every Unicode emoji's code and names, canonical name first. */
export function serverEmojiData(): { code_to_names: Record<string, string[]> } {
  return { code_to_names: Object.fromEntries(allEmoji().map((e) => [e.code, [e.name, ...e.aliases]])) };
}
