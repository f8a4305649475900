import type { contracts } from '@confab/events';
import { listRealmEmoji } from './realm-emoji.js';
import { realmRecord } from './realms.js';
import type { Database } from './store.js';
import { settingsSnapshot } from './user-settings.js';
import { userRecord } from './users.js';

/** Pages of this service's records in id order, for services that keep a copy (their backfills). */
export async function realmsAfter(
  db: Database,
  afterId: number,
  externalUrl: string,
  limit = 500,
): Promise<contracts.RealmRecord[]> {
  return (await db.store.realms.after(afterId, Math.min(Math.max(limit, 1), 500))).map((r) =>
    realmRecord(r, externalUrl),
  );
}

export async function usersAfter(db: Database, afterId: number, limit = 1000): Promise<contracts.UserRecord[]> {
  return (await db.store.users.after(afterId, Math.min(Math.max(limit, 1), 1000))).map(userRecord);
}

/** Every user's full settings, 500 at a time (changes come as user_settings.changed). */
export async function userSettingsAfter(db: Database, afterId: number, limit = 500) {
  const users = await db.store.users.after(afterId, Math.min(Math.max(limit, 1), 500));
  const stored = await db.store.settings.getMany(users.map((u) => u.id));
  return users.map((u) => ({ user_id: u.id, realm_id: u.realmId, settings: settingsSnapshot(stored.get(u.id)!, u) }));
}

/** Each organization's custom emoji (deactivated ones too), 100 organizations at a time. */
export async function realmEmojiAfter(
  db: Database,
  afterId: number,
): Promise<{ realm_id: number; realm_emoji: Record<string, contracts.RealmEmojiRecord> }[]> {
  const realms = await db.store.realms.after(afterId, 100);
  const pages = [];
  for (const realm of realms) pages.push({ realm_id: realm.id, realm_emoji: await listRealmEmoji(db, realm.id) });
  return pages;
}

/** Each user's muted users and alert words (what messaging filters with), 200 users at a time. */
export async function personalFiltersAfter(
  db: Database,
  afterId: number,
): Promise<{ user_id: number; realm_id: number; muted_user_ids: number[]; alert_words: string[] }[]> {
  const users = await db.store.users.after(afterId, 200);
  const pages = [];
  for (const user of users) {
    const [muted, words] = await Promise.all([db.store.mutedUsers.list(user.id), db.store.alertWords.list(user.id)]);
    pages.push({
      user_id: user.id,
      realm_id: user.realmId,
      muted_user_ids: muted.map((m) => m.mutedUserId),
      alert_words: words,
    });
  }
  return pages;
}
