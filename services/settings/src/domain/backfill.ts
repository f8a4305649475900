import type { contracts } from '@confab/events';
import { realmRecord } from './realms.js';
import type { Database } from './store.js';
import { settingsSnapshot } from './user-settings.js';
import { userRecord } from './users.js';

/** Pages of this service's records in id order, for services that keep a copy (their backfills). */
export async function realmsAfter(
  db: Database,
  afterId: number,
  externalUrl: string,
): Promise<contracts.RealmRecord[]> {
  return (await db.store.realms.after(afterId, 500)).map((r) => realmRecord(r, externalUrl));
}

export async function usersAfter(db: Database, afterId: number): Promise<contracts.UserRecord[]> {
  return (await db.store.users.after(afterId, 1000)).map(userRecord);
}

/** Every user's full settings, 500 at a time (changes come as user_settings.changed). */
export async function userSettingsAfter(db: Database, afterId: number) {
  const users = await db.store.users.after(afterId, 500);
  const stored = await db.store.settings.getMany(users.map((u) => u.id));
  return users.map((u) => ({ user_id: u.id, realm_id: u.realmId, settings: settingsSnapshot(stored.get(u.id)!, u) }));
}
