import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@confab/logging';
import { Backfill, SettingsClient } from '../src/events/backfill';
import { migratedDomain, REALM, realmRecord, type TestDomain, userRecord } from './fixtures';

const SECRET = 'backfill-test-secret';

/**
 * The settings service's backfill pages, served on 127.0.0.1: an organization with two users, one custom emoji,
 * one mute and alert words. Records what was asked.
 */
function settingsStub(asked: string[]): Server {
  const pages: Record<string, unknown> = {
    '/internal/realms': { realms: [realmRecord] },
    '/internal/users': { users: [userRecord(1, 'hamlet'), userRecord(2, 'othello')] },
    '/internal/realm_emoji': {
      realms: [
        {
          realm_id: REALM,
          realm_emoji: {
            '31': {
              id: '31',
              name: 'party_parrot',
              source_url: `/user_avatars/${REALM}/emoji/images/31.gif`,
              still_url: null,
              deactivated: false,
              author_id: 1,
            },
          },
        },
      ],
    },
    '/internal/personal_filters': {
      users: [
        { user_id: 1, realm_id: REALM, muted_user_ids: [2], alert_words: ['Elsinore', 'ghost'] },
        { user_id: 2, realm_id: REALM, muted_user_ids: [], alert_words: [] },
      ],
    },
  };
  const empty: Record<string, unknown> = {
    '/internal/realms': { realms: [] },
    '/internal/users': { users: [] },
    '/internal/realm_emoji': { realms: [] },
    '/internal/personal_filters': { users: [] },
  };
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    asked.push(`${url.pathname}?${url.searchParams.toString()}`);
    const first = url.searchParams.get('after_id') === '0';
    const body = (first ? pages : empty)[url.pathname];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { result: 'error' }));
  });
}

describe('backfilling an empty read model from the settings service', () => {
  let domain: TestDomain;
  let drop: () => Promise<void>;
  let server: Server;
  const asked: string[] = [];

  beforeAll(async () => {
    ({ domain, drop } = await migratedDomain('backfill', 6));
    server = settingsStub(asked);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    server.close();
    await drop();
  });

  it('fills organizations, users, custom emoji, mutes and alert words, and asks again only for what is empty', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const backfill = new Backfill(
      new SettingsClient(url, SECRET),
      domain.store,
      domain.readModel,
      createLogger({ name: 'test', level: 'silent' }),
    );
    await backfill.fillIfEmpty();
    expect((await domain.readModel.userById(2))?.fullName).toBe(userRecord(2, 'othello').full_name);
    const emoji = await domain.readModel.realmEmoji(REALM);
    expect([...emoji.byName.keys()]).toEqual(['party_parrot']);
    const filters = await domain.readModel.personalFilters(REALM);
    expect([...filters.mutedBy]).toEqual([[2, [1]]]);
    expect([...filters.alertWords]).toEqual([[1, ['elsinore', 'ghost']]]);
    expect(asked.filter((a) => a.endsWith('after_id=0')).sort()).toEqual([
      '/internal/personal_filters?after_id=0',
      '/internal/realm_emoji?after_id=0',
      '/internal/realms?after_id=0',
      '/internal/users?after_id=0',
    ]);

    // Everything is there now: a restart asks for nothing.
    asked.length = 0;
    await backfill.fillIfEmpty();
    expect(asked).toEqual([]);
  });
});
