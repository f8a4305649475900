import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { contracts } from '@confab/events';
import { IdentityVerifier } from '@confab/identity';
import { createLogger } from '@confab/logging';
import { backfill } from '../src/events/backfill';
import { Harness, newId, realm, user } from './harness';

const SECRET = 'groups-backfill-test-secret';
const h = new Harness();
let server: Server;
let settingsUrl: string;
const realms: contracts.RealmRecord[] = [];
const users: contracts.UserRecord[] = [];
const seenIdentities: (string | undefined)[] = [];

/** Stands in for the settings service's /internal/realms and /internal/users, paged by after_id like the real ones. */
function startSettingsStub(): Promise<void> {
  const verifier = new IdentityVerifier(SECRET);
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const identity = verifier.verify(req.headers['x-confab-identity'] as string | undefined);
    seenIdentities.push(identity?.kind === 'service' ? identity.service : undefined);
    const after = Number(url.searchParams.get('after_id') ?? 0);
    const body =
      url.pathname === '/internal/realms'
        ? { realms: realms.filter((r) => r.realm_id > after).slice(0, 2) }
        : { users: users.filter((u) => u.user_id > after).slice(0, 3) };
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ result: 'success', msg: '', ...body }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      settingsUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve();
    }),
  );
}

beforeAll(async () => {
  await h.start();
  await startSettingsStub();
}, 60_000);
afterAll(async () => {
  server?.close();
  await h.stop();
}, 30_000);

describe('backfill from the settings service', () => {
  it('creates system groups and memberships for organizations and users that existed before the service', async () => {
    const first = newId();
    const second = newId();
    const third = newId();
    realms.push(realm(first), realm(second), realm(third, { waiting_period_threshold: 5 }));
    const owner = newId();
    const member = newId();
    const guest = newId();
    const newcomer = newId();
    const departed = newId();
    users.push(
      user(first, owner, { role: 100 }),
      user(first, member),
      user(second, guest, { role: 600 }),
      user(third, newcomer),
      user(first, departed, { is_active: false }),
    );
    await backfill(h.db, settingsUrl, SECRET, createLogger({ name: 'test', level: 'silent' }));
    expect(seenIdentities.every((s) => s === 'groups')).toBe(true);
    const directOf = async (realmId: number, name: string) =>
      h.db.read(async (store) => {
        const group = await store.groupByName(realmId, name);
        return (await store.directMembers([group!.id])).get(group!.id);
      });
    expect(await directOf(first, 'role:owners')).toEqual([owner]);
    expect(await directOf(first, 'role:members')).toEqual([member]);
    expect(await directOf(second, 'role:everyone')).toEqual([guest]);
    expect(await directOf(third, 'role:members')).toEqual([newcomer]);
    expect(await directOf(third, 'role:fullmembers')).toEqual([]);
    const everyone = await h.db.read(async (store) => {
      const group = await store.groupByName(first, 'role:everyone');
      return (await store.recursiveMembers([group!.id])).get(group!.id);
    });
    expect(everyone).toEqual([owner, member]);
    // Once filled, the database is left alone.
    const requests = seenIdentities.length;
    await backfill(h.db, settingsUrl, SECRET, createLogger({ name: 'test', level: 'silent' }));
    expect(seenIdentities.length).toBe(requests);
  });
});
