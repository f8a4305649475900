import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { ROLE_MEMBER } from '@confab/identity';
import type { Logger } from '@confab/logging';
import { AlreadyExists, type Database, type Store } from './store.js';
import { BOT_TYPE_GENERIC, type Realm, type User } from './types.js';
import { apiUserRecord, userRecord } from './users.js';

/**
 * Zulip's system bots: the Notification Bot posts the notices of moved and resolved topics. Zulip keeps them in a
 * system organization and lists them to every organization as `cross_realm_bots`; Confab stores one per
 * organization, marked `is_system_bot`, which is no member of it (not in its users, groups or presence) and cannot
 * log in (docs/architecture.md, "Identity").
 */
export const NOTIFICATION_BOT = { email: 'notification-bot@zulip.com', fullName: 'Notification Bot' } as const;

/** Creates the organization's system bots inside a write; returns their user.created events. */
export async function createSystemBots(
  store: Store,
  realm: Realm,
  meta: { requestId?: string | undefined },
): Promise<OutboxRecord[]> {
  const bot = await store.users.create({
    realmId: realm.id,
    email: NOTIFICATION_BOT.email,
    fullName: NOTIFICATION_BOT.fullName,
    role: ROLE_MEMBER,
    isBot: true,
    botType: BOT_TYPE_GENERIC,
    isSystemBot: true,
  });
  return [
    outboxRecord(contracts.userCreated, { user: userRecord(bot) }, { realmId: realm.id, requestId: meta.requestId }),
  ];
}

/**
 * Gives organizations created before system bots existed theirs, at start-up. Replicas starting together race
 * harmlessly: the organization's unique email refuses the second bot.
 */
export async function ensureSystemBots(db: Database, logger: Logger): Promise<void> {
  let after = 0;
  for (;;) {
    const realms = await db.store.realms.after(after, 100);
    if (realms.length === 0) return;
    for (const realm of realms) {
      if ((await db.store.users.systemBots(realm.id)).length > 0) continue;
      try {
        await db.write(async (store) => ({ result: undefined, events: await createSystemBots(store, realm, {}) }));
        logger.info({ realm_id: realm.id }, 'created the organization’s Notification Bot');
      } catch (err) {
        if (!(err instanceof AlreadyExists)) throw err;
      }
    }
    after = realms[realms.length - 1]!.id;
  }
}

/** A system bot as Zulip lists it in `cross_realm_bots`. */
export function crossRealmBotRecord(bot: User, clientGravatar: boolean): Record<string, unknown> {
  return { ...apiUserRecord(bot, { clientGravatar, includeCustomProfileFields: false }), is_system_bot: true };
}
