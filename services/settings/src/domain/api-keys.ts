import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, type UserIdentity } from '@confab/identity';
import { generateApiKey, hashApiKey } from './credentials.js';
import type { Database } from './store.js';
import type { User } from './types.js';

/** What a regeneration did: the new key, and the event that ends the old one everywhere (the gateway's cache). */
export interface RegeneratedKey {
  apiKey: string;
  eventId: string;
}

/** Replaces the user's one key; `user.api_key_changed` makes the gateway drop the old one and end browser sessions. */
async function regenerate(db: Database, user: User, requestId: string): Promise<RegeneratedKey> {
  const apiKey = generateApiKey();
  return db.write(async (store) => {
    await store.users.replaceApiKey(user.id, apiKey, hashApiKey(apiKey));
    const event = outboxRecord(contracts.userApiKeyChanged, { user_id: user.id }, { realmId: user.realmId, requestId });
    // A bot's owner and the administrators see its new key (Zulip's realm_bot update of do_regenerate_api_key), so
    // every window that shows the bot's webhook URL shows the one that works.
    const botEvents = user.isBot
      ? [
          outboxRecord(
            contracts.realmBotChanged,
            {
              realm_id: user.realmId,
              owner_id: user.botOwnerId,
              op: 'update',
              bot: { user_id: user.id, api_key: apiKey },
            },
            { realmId: user.realmId, requestId },
          ),
        ]
      : [];
    return { result: { apiKey, eventId: event.eventId }, events: [event, ...botEvents] };
  });
}

/** POST /users/me/api_key/regenerate (Zulip's regenerate_api_key): a new key for the caller; the old one ends. */
export async function regenerateOwnApiKey(
  db: Database,
  actor: UserIdentity,
  requestId: string,
): Promise<RegeneratedKey> {
  const user = await db.store.users.byId(actor.userId);
  if (!user) throw invalid('No such user');
  return regenerate(db, user, requestId);
}

/**
 * POST /bots/{bot_id}/api_key/regenerate (Zulip's regenerate_bot_api_key, access_bot_by_id): the bot's owner or an
 * organization administrator gives a bot of the organization a new key.
 */
export async function regenerateBotApiKey(
  db: Database,
  actor: UserIdentity,
  botId: number,
  requestId: string,
): Promise<RegeneratedKey & { bot: User }> {
  const bot = await db.store.users.byId(botId);
  if (!bot || bot.realmId !== actor.realmId || !bot.isBot || bot.isSystemBot) throw invalid('No such bot');
  if (actor.role > ROLE_ADMINISTRATOR && bot.botOwnerId !== actor.userId) throw invalid('Insufficient permission');
  return { ...(await regenerate(db, bot, requestId)), bot };
}
