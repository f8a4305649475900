import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import { findUser } from './directory.js';
import type { Database, Store } from './store.js';

export interface MutedUserRecord {
  id: number;
  timestamp: number;
}

async function mutedUsers(store: Store, userId: number): Promise<MutedUserRecord[]> {
  return (await store.mutedUsers.list(userId)).map((m) => ({
    id: m.mutedUserId,
    timestamp: Math.floor(m.dateMuted.getTime() / 1000),
  }));
}

/** `muted_users` of POST /register. */
export function listMutedUsers(db: Database, userId: number): Promise<MutedUserRecord[]> {
  return mutedUsers(db.store, userId);
}

/** Any user of the organization may be muted, bots and deactivated users too (Zulip's access_user_by_id). */
async function mutable(db: Database, actor: UserIdentity, mutedUserId: number): Promise<void> {
  if (!(await findUser(db, actor.realmId, { id: mutedUserId }))) throw invalid('No such user');
}

/** POST /users/me/muted_users/{muted_user_id}. */
export async function muteUser(
  db: Database,
  actor: UserIdentity,
  mutedUserId: number,
  requestId: string,
): Promise<void> {
  if (mutedUserId === actor.userId) throw invalid('Cannot mute self');
  await mutable(db, actor, mutedUserId);
  await db.write(async (store) => {
    if (!(await store.mutedUsers.add(actor.userId, mutedUserId, new Date()))) throw invalid('User already muted');
    const payload = {
      user_id: actor.userId,
      realm_id: actor.realmId,
      muted_user_id: mutedUserId,
      muted_users: await mutedUsers(store, actor.userId),
    };
    const event = outboxRecord(contracts.mutedUserAdded, payload, { realmId: actor.realmId, requestId });
    return { result: undefined, events: [event] };
  });
}

/** DELETE /users/me/muted_users/{muted_user_id}. */
export async function unmuteUser(
  db: Database,
  actor: UserIdentity,
  mutedUserId: number,
  requestId: string,
): Promise<void> {
  await mutable(db, actor, mutedUserId);
  await db.write(async (store) => {
    if (!(await store.mutedUsers.remove(actor.userId, mutedUserId))) throw invalid('User is not muted');
    const payload = {
      user_id: actor.userId,
      realm_id: actor.realmId,
      muted_user_id: mutedUserId,
      muted_users: await mutedUsers(store, actor.userId),
    };
    const event = outboxRecord(contracts.mutedUserRemoved, payload, { realmId: actor.realmId, requestId });
    return { result: undefined, events: [event] };
  });
}
