import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import tarStream from 'tar-stream';
import type { DevUserName, World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld, system } from './support/system';

// Measured: about 15 s on the 2-core machine (one organization; the worker writes one archive).
jest.setTimeout(60_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});

/** The names (below the archive's one folder) and contents of a .tar.gz's files. */
async function untar(archive: Buffer): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const extract = tarStream.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => chunks.push(c as Buffer));
      stream.on('end', () => {
        files.set(header.name.replace(/^[^/]+\//, ''), Buffer.concat(chunks).toString('utf8'));
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.end(gunzipSync(archive));
  await done;
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
    const download = await getAs('iago', url.pathname);
    expect(download.status).toBe(200);
    // Zulip's export format: realm.json's zerver_* tables, the messages with their per-user rows, the file records.
    const files = await untar(download.body);
    expect([...files.keys()].filter((name) => !name.includes('/')).sort()).toEqual(
      ['attachment.json', 'messages-000001.json', 'migration_status.json', 'realm.json'].sort(),
    );
    for (const records of ['uploads', 'avatars', 'emoji', 'realm_icons']) expect(files.has(`${records}/records.json`)).toBe(true);
    const realm = JSON.parse(files.get('realm.json')!) as Record<string, { [key: string]: unknown }[]>;
    expect(realm.zerver_userprofile!.map((u) => u.delivery_email)).toContain(world.user('hamlet').email);
    expect(realm.zerver_namedusergroup!.filter((g) => g.is_system_group).map((g) => g.name)).toContain('role:members');
    expect(realm.zerver_stream!.map((s) => s.name)).toContain('Verona');
    const messages = JSON.parse(files.get('messages-000001.json')!) as Record<string, { [key: string]: unknown }[]>;
    expect(messages.zerver_message!.map((m) => m.content)).toContain('for the record');
    expect(messages.zerver_usermessage!.length).toBeGreaterThan(0);
    const forMember = await getAs('hamlet', url.pathname);
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

/**
 * GET `path` through the gateway as `name`, on the organization's own host (fetch would replace the Host header by
 * the URL's, and a key is good only on its organization's host).
 */
function getAs(name: DevUserName, path: string): Promise<{ status: number; body: Buffer }> {
  const user = world.user(name);
  const authorization = `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`;
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, system().gatewayUrl), { headers: { host: world.host, authorization } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
