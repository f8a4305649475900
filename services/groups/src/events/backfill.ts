import { internal, type contracts } from '@confab/events';
import { ServiceClient } from '@confab/http';
import type { Logger } from '@confab/logging';
import { retryInBackground } from '@confab/runtime';
import { applyRealm, applyUsers } from '../domain/sync.js';
import type { PrismaGroupsDatabase } from '../repositories/groups-database.js';

const USERS_PER_TRANSACTION = 500;

/**
 * Fills an empty database from the settings service (organizations, then users), creating system groups and their
 * memberships as the events would have. Idempotent, so events arriving meanwhile do no harm.
 */
export async function backfill(
  db: PrismaGroupsDatabase,
  settingsUrl: string,
  secret: string,
  log: Logger,
): Promise<void> {
  if (!(await db.isEmpty())) return;
  const settings = new internal.SettingsReader(new ServiceClient({ caller: 'groups', baseUrl: settingsUrl, secret }));
  let realms = 0;
  for (let after = 0; ;) {
    const page = await settings.realmsAfter(after);
    if (page.length === 0) break;
    for (const realm of page) {
      await db.write(realm.realm_id, (store) => applyRealm(store, realm, { realmId: realm.realm_id }));
      after = realm.realm_id;
      realms++;
    }
  }
  let users = 0;
  for (let after = 0; ;) {
    const page = await settings.usersAfter(after);
    if (page.length === 0) break;
    const byRealm = new Map<number, contracts.UserRecord[]>();
    for (const user of page) byRealm.set(user.realm_id, [...(byRealm.get(user.realm_id) ?? []), user]);
    for (const [realmId, records] of byRealm) {
      for (let i = 0; i < records.length; i += USERS_PER_TRANSACTION) {
        const chunk = records.slice(i, i + USERS_PER_TRANSACTION);
        await db.write(realmId, (store) => applyUsers(store, realmId, chunk, { realmId }));
      }
    }
    users += page.length;
    after = page[page.length - 1]!.user_id;
  }
  if (realms > 0) log.info({ realms, users }, 'backfilled organizations and users from the settings service');
}

/** Runs the backfill in the background, retrying while the settings service is not reachable yet. */
export function startBackfill(
  db: PrismaGroupsDatabase,
  settingsUrl: string,
  secret: string,
  log: Logger,
): { stop(): void } {
  return retryInBackground(() => backfill(db, settingsUrl, secret, log), log, 'backfill');
}
