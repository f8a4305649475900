import { randomBytes } from 'node:crypto';
import { contracts } from '@confab/events';
import { serviceToken, type ApiClient, type World } from '@confab/devkit';
import { publishEvent } from './events';
import { system } from './system';

/** The organization's record as the settings service publishes it. */
export async function realmRecordOf(world: World): Promise<contracts.RealmRecord> {
  const info = system();
  const response = await fetch(`${info.serviceUrls.settings}/internal/realms?after_id=${world.realm.realm_id - 1}`, {
    headers: { 'x-confab-identity': serviceToken(info) },
  });
  const body = (await response.json()) as { realms: contracts.RealmRecord[] };
  const realm = body.realms.find((r) => r.realm_id === world.realm.realm_id);
  if (!realm) throw new Error('realm not found');
  return realm;
}

/** Announces changed organization settings (as the settings service would once it lets administrators change them). */
export async function updateRealm(world: World, changes: Partial<contracts.RealmRecord>): Promise<void> {
  const realm = await realmRecordOf(world);
  await publishEvent(
    contracts.realmUpdated,
    { realm: { ...realm, ...changes, permissions: { ...realm.permissions, ...(changes.permissions ?? {}) } } },
    realm.realm_id,
  );
}

let nextExtraId = 2_000_000_000 - Math.floor(Math.random() * 1_000_000) * 100;

/** Members known to the messaging service only (for counts above Zulip's thresholds); they cannot log in. */
export async function extraMembers(world: World, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const id = nextExtraId++;
    await publishEvent(
      contracts.userCreated,
      {
        user: {
          user_id: id,
          realm_id: world.realm.realm_id,
          email: `extra${id}@example.com`,
          delivery_email: `extra${id}@example.com`,
          full_name: `Extra ${id}`,
          role: 400,
          is_bot: false,
          bot_type: null,
          bot_owner_id: null,
          is_active: true,
          timezone: '',
          date_joined: new Date().toISOString(),
        },
      },
      world.realm.realm_id,
    );
    ids.push(id);
  }
  return ids;
}

/**
 * Real accounts beyond the development ones, created by an administrator (`POST /users`, whose events every service
 * hears) and logged in with their password; each comes with an API client.
 */
export async function extraAccounts(
  world: World,
  count: number,
): Promise<{ id: number; email: string; client: ApiClient }[]> {
  const accounts: { id: number; email: string; client: ApiClient }[] = [];
  for (let i = 0; i < count; i++) {
    const email = `extra-${randomBytes(4).toString('hex')}@zulip.com`;
    const password = randomBytes(12).toString('base64url');
    const created = await world
      .as('iago')
      .post('/users', { email, password, full_name: `Extra ${email.slice(6, 14)}` });
    if (created.status !== 200) throw new Error(`POST /users failed: ${created.text}`);
    const login = await world.anonymous().post('/fetch_api_key', { username: email, password });
    if (login.status !== 200) throw new Error(`POST /fetch_api_key failed: ${login.text}`);
    accounts.push({
      id: created.body.user_id as number,
      email,
      client: world.anonymous().withCredentials(email, login.body.api_key as string),
    });
  }
  return accounts;
}
