import { gunzipSync } from 'node:zlib';
import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld, system } from './support/system';

// Measured: about 15 s on the 2-core machine (one organization; the worker writes one archive).
jest.setTimeout(60_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});

/** The names and contents of a .tar.gz's files. */
function untar(archive: Buffer): Map<string, string> {
  const tar = gunzipSync(archive);
  const files = new Map<string, string>();
  for (let at = 0; at + 512 <= tar.length;) {
    const name = tar
      .subarray(at, at + 100)
      .toString('utf8')
      .replace(/\0.*$/s, '');
    if (name === '') break;
    const size = parseInt(
      tar
        .subarray(at + 124, at + 136)
        .toString('utf8')
        .replace(/\0.*$/s, ''),
      8,
    );
    files.set(name, tar.subarray(at + 512, at + 512 + size).toString('utf8'));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

describe('organization exports (/export/realm)', () => {
  it('an administrator asks for one; the worker writes the archive of every service’s part; it can be downloaded and deleted', async () => {
    await world
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Verona', topic: 'history', content: 'for the record' });
    const iago = await EventQueue.register(world.as('iago'), { event_types: ['realm_export'] });
    const created = await world.as('iago').post('/export/realm', {});
    expectSuccess(created, 'POST', '/export/realm');
    const id = created.body.id as number;
    const done = await iago.next(
      (e) =>
        e.type === 'realm_export' && e.exports.some((x: { id: number; pending: boolean }) => x.id === id && !x.pending),
    );
    const entry = done.exports.find((x: { id: number }) => x.id === id);
    expect(entry).toMatchObject({ acting_user_id: world.user('iago').id, export_type: 1, failed_timestamp: null });
    const listed = await world.as('desdemona').get('/export/realm');
    expectSuccess(listed, 'GET', '/export/realm');
    expect(listed.body.exports.map((x: { id: number }) => x.id)).toContain(id);

    const url = new URL(entry.export_url as string);
    const download = await fetch(`${system().gatewayUrl}${url.pathname}`, {
      headers: {
        host: world.host,
        authorization: `Basic ${Buffer.from(`${world.user('iago').email}:${world.user('iago').apiKey}`).toString('base64')}`,
      },
    });
    expect(download.status).toBe(200);
    const files = untar(Buffer.from(await download.arrayBuffer()));
    expect([...files.keys()].sort()).toEqual(
      ['channels.json', 'messages.json', 'organization.json', 'realm.json', 'user_groups.json', 'users.json'].sort(),
    );
    expect(JSON.parse(files.get('users.json')!).map((u: { email: string }) => u.email)).toContain(
      world.user('hamlet').email,
    );
    expect(files.get('messages.json')).toContain('for the record');
    expect(JSON.parse(files.get('user_groups.json')!).length).toBeGreaterThan(0);
    const forMember = await fetch(`${system().gatewayUrl}${url.pathname}`, {
      headers: {
        host: world.host,
        authorization: `Basic ${Buffer.from(`${world.user('hamlet').email}:${world.user('hamlet').apiKey}`).toString('base64')}`,
      },
    });
    expect(forMember.status).toBe(404);

    expectSuccess(await world.as('iago').delete(`/export/realm/${id}`), 'DELETE', '/export/realm/{export_id}', {
      undocumented: true,
    });
    expectError(await world.as('iago').delete(`/export/realm/${id}`), 400, 'BAD_REQUEST', 'Export already deleted');
    expectError(await world.as('iago').delete('/export/realm/99999999'), 400, 'BAD_REQUEST', 'Invalid data export ID');
  });

  it('refuses members and unknown export types; lists consents for administrators', async () => {
    expectError(
      await world.as('hamlet').post('/export/realm', {}),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await world.as('hamlet').get('/export/realm'),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await world.as('iago').post('/export/realm', { export_type: 3 }),
      400,
      'BAD_REQUEST',
      'Invalid export_type',
    );
    const consents = await world.as('iago').get('/export/realm/consents');
    expectSuccess(consents, 'GET', '/export/realm/consents');
    expect(consents.body.export_consents).toContainEqual({ user_id: world.user('hamlet').id, consented: false });
    expectError(
      await world.as('hamlet').get('/export/realm/consents'),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
  });
});
