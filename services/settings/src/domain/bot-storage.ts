import { invalid } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import type { Database } from './store.js';

/**
 * Zulip's USER_STATE_SIZE_LIMIT: characters of keys and values together, per user. Zulip serves this storage to any
 * user, not only to bots.
 */
export const BOT_STORAGE_LIMIT = 10_000_000;

const chars = (text: string) => [...text].length;

const missingKey = () => invalid('Key does not exist.');

/** GET /bot_storage: the bot's entries, or those `keys` names (each must exist). */
export async function getBotStorage(
  db: Database,
  actor: UserIdentity,
  keys: readonly string[] | undefined,
): Promise<Record<string, string>> {
  const entries = await db.store.botStorage.get(actor.userId, keys);
  if (keys && keys.some((key) => !entries.has(key))) throw missingKey();
  return Object.fromEntries(keys ? keys.map((key) => [key, entries.get(key)!]) : entries);
}

/** PUT /bot_storage: sets entries, refused as a whole when the bot's storage would outgrow the limit. */
export async function putBotStorage(
  db: Database,
  actor: UserIdentity,
  storage: Readonly<Record<string, string>>,
): Promise<void> {
  const entries = new Map(Object.entries(storage));
  await db.write(async (store) => {
    // One change at a time per bot, so concurrent writes cannot overshoot the limit together.
    await store.users.lock(actor.userId);
    let difference = 0;
    for (const [key, value] of entries) difference += chars(key) + chars(value);
    difference -= await store.botStorage.size(actor.userId, [...entries.keys()]);
    const newSize = (await store.botStorage.size(actor.userId)) + difference;
    if (newSize > BOT_STORAGE_LIMIT) {
      throw invalid(
        `Request exceeds storage limit by ${newSize - BOT_STORAGE_LIMIT} characters. The limit is ${BOT_STORAGE_LIMIT} characters.`,
      );
    }
    await store.botStorage.put(actor.userId, entries);
    return { result: undefined, events: [] };
  });
}

/** DELETE /bot_storage: removes the entries `keys` names (all must exist), or everything. */
export async function removeBotStorage(
  db: Database,
  actor: UserIdentity,
  keys: readonly string[] | undefined,
): Promise<void> {
  await db.write(async (store) => {
    const unique = keys && [...new Set(keys)];
    if (unique && (await store.botStorage.get(actor.userId, unique)).size < unique.length) throw missingKey();
    await store.botStorage.remove(actor.userId, unique);
    return { result: undefined, events: [] };
  });
}
