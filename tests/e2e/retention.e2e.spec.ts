import { readFile } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { admin } from './support/imports';
import { newWorld } from './support/system';

const DAY_MS = 86_400_000;

const json = (stdout: string) => JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>;

async function run(args: string[]): Promise<Record<string, number>> {
  const result = await admin(args);
  if (result.code !== 0) throw new Error(`${args[0]} failed (${result.code}): ${result.stderr}`);
  return json(result.stdout);
}

async function channel(world: World, name: string, retention?: string | number): Promise<void> {
  const response = await world.as('desdemona').post('/users/me/subscriptions', {
    subscriptions: [{ name }],
    principals: [world.user('hamlet').id, world.user('desdemona').id],
    ...(retention === undefined ? {} : { message_retention_days: retention }),
  });
  expectSuccess(response, 'POST', '/users/me/subscriptions');
}

async function send(world: World, to: string, content: string): Promise<number> {
  const response = await world.as('hamlet').post('/messages', { type: 'stream', to, topic: 'kept or not', content });
  expectSuccess(response, 'POST', '/messages');
  return response.body.id as number;
}

async function readable(world: World, id: number): Promise<boolean> {
  const response = await world.as('hamlet').get(`/messages/${id}`);
  if (response.status === 200) return true;
  expectError(response, 400, 'BAD_REQUEST', 'Invalid message(s)');
  return false;
}

describe('message retention (the daily job, run "at" a later time through the admin CLI)', () => {
  let world: World;
  let sub: string;
  beforeAll(async () => {
    world = await newWorld();
    sub = world.realm.string_id;
  });

  // Seven runs of the admin CLI, each a process of its own (a few seconds each on a busy two-core machine).
  it("archives what the organization's and channels' retention expire, tells clients, restores and purges", async () => {
    await channel(world, 'follows the organization');
    // A JSON parameter, as Zulip's: the string "unlimited" travels quoted.
    await channel(world, 'kept forever', JSON.stringify('unlimited'));
    await channel(world, 'kept forty days', 40);
    const patched = await world.as('desdemona').patch('/realm', { message_retention_days: 10 });
    // Zulip's OpenAPI description has no PATCH /realm operation.
    expectSuccess(patched, 'PATCH', '/realm', { undocumented: true });
    const ordinary = await send(world, 'follows the organization', 'expires after ten days');
    expectSuccess(
      await world.as('desdemona').post(`/messages/${ordinary}/reactions`, { emoji_name: 'octopus' }),
      'POST',
      '/messages/{message_id}/reactions',
    );
    expectSuccess(
      await world
        .as('hamlet')
        .post('/messages/flags', { messages: JSON.stringify([ordinary]), op: 'add', flag: 'starred' }),
      'POST',
      '/messages/flags',
    );
    const forever = await send(world, 'kept forever', 'never expires');
    const forty = await send(world, 'kept forty days', 'expires after forty days');
    const dm = await world.as('hamlet').post('/messages', {
      type: 'direct',
      to: [world.user('othello').id],
      content: 'a direct message follows the organization',
    });
    expectSuccess(dm, 'POST', '/messages');
    const direct = dm.body.id as number;
    // The owner's next request to messaging waits until it applied the organization's change (read-your-writes).
    expectSuccess(await world.as('desdemona').get('/users/me/subscriptions'), 'GET', '/users/me/subscriptions');
    const queue = await EventQueue.register(world.as('hamlet'), {
      event_types: ['delete_message'],
      client_capabilities: { bulk_message_deletion: true },
    });

    const now = Date.now();
    // Nine days on, nothing has expired.
    expect(
      await run(['archive-messages', '--realm', sub, '--now', new Date(now + 9 * DAY_MS).toISOString()]),
    ).toMatchObject({
      archived_messages: 0,
    });
    expect(await readable(world, ordinary)).toBe(true);

    const eleven = new Date(now + 11 * DAY_MS).toISOString();
    const first = await run(['archive-messages', '--realm', sub, '--now', eleven]);
    expect(first.archived_messages).toBeGreaterThanOrEqual(2);
    expect(await readable(world, ordinary)).toBe(false);
    expect(await readable(world, direct)).toBe(false);
    expect(await readable(world, forever)).toBe(true);
    expect(await readable(world, forty)).toBe(true);
    const listed = await world.as('hamlet').get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: JSON.stringify([]),
    });
    const ids = (listed.body.messages as { id: number }[]).map((m) => m.id);
    expect(ids).not.toContain(ordinary);
    expect(ids).not.toContain(direct);
    expect(ids).toEqual(expect.arrayContaining([forever, forty]));

    const channelEvent = await queue.next((e) => e.type === 'delete_message' && e.message_ids?.includes(ordinary));
    expect(channelEvent).toMatchObject({ message_type: 'stream', topic: 'kept or not' });
    const directEvent = await queue.next((e) => e.type === 'delete_message' && e.message_ids?.includes(direct));
    expect(directEvent).toMatchObject({ message_type: 'private' });

    // One channel's batches back: readable again, the direct message stays archived.
    expect(await run(['restore-archived', '--realm', sub, '--channel', 'follows the organization'])).toMatchObject({
      restored_messages: 1,
    });
    expect(await readable(world, ordinary)).toBe(true);
    const restored = await world.as('hamlet').get(`/messages/${ordinary}`);
    expect(restored.body.message).toMatchObject({ id: ordinary, content: '<p>expires after ten days</p>' });
    // Its reactions and the reader's flags came back with it.
    expect(restored.body.message.reactions).toEqual([expect.objectContaining({ emoji_name: 'octopus' })]);
    expect(restored.body.message.flags).toContain('starred');
    expect(await readable(world, direct)).toBe(false);
    // Everything else of the organization.
    expect((await run(['restore-archived', '--realm', sub])).restored_messages).toBeGreaterThanOrEqual(1);
    expect(await readable(world, direct)).toBe(true);

    // Archived again, then purged once the vacuuming delay (30 days) has passed: nothing left to restore.
    expect((await run(['archive-messages', '--realm', sub, '--now', eleven])).archived_messages).toBeGreaterThanOrEqual(
      2,
    );
    const purge = await run(['archive-messages', '--realm', sub, '--now', new Date(now + 42 * DAY_MS).toISOString()]);
    expect(purge.purged_batches).toBeGreaterThanOrEqual(2);
    // At 42 days the forty-day channel's message expired too (archived in that run, not purged yet).
    expect(await readable(world, forty)).toBe(false);
    expect(await readable(world, forever)).toBe(true);
    const after = await run(['restore-archived', '--realm', sub, '--channel', 'follows the organization']);
    expect(after).toMatchObject({ restored_messages: 0 });
    expect(await readable(world, ordinary)).toBe(false);
    expect(await readable(world, direct)).toBe(false);
    await queue.delete();
  }, 300_000);
});

describe('npm run admin -- export-search', () => {
  // Five runs of the admin CLI (each loads every service's modules): a minute is short on a loaded machine.
  it("exports the matching messages as JSON or CSV (Zulip's export_search)", async () => {
    const world = await newWorld();
    const sub = world.realm.string_id;
    await channel(world, 'legal hold');
    const hit = await send(world, 'legal hold', 'the contract, "signed" today');
    await send(world, 'legal hold', 'nothing to see');
    const other = await world.as('othello').post('/messages', {
      type: 'direct',
      to: [world.user('hamlet').id],
      content: 'About the CONTRACT',
    });
    expectSuccess(other, 'POST', '/messages');
    const dir = await mkdtemp(join(tmpdir(), 'export-search-'));

    const csvFile = join(dir, 'hold.csv');
    const csv = await admin([
      'export-search',
      '--realm',
      sub,
      '--keyword',
      'contract',
      '--format',
      'csv',
      '--output',
      csvFile,
    ]);
    expect(csv.code).toBe(0);
    const lines = (await readFile(csvFile, 'utf8')).split('\r\n').filter((l) => l !== '');
    expect(lines[0]).toBe('id,timestamp (UTC),sender,recipient,content,edit history');
    expect(lines).toHaveLength(3);
    const hamlet = world.user('hamlet');
    expect(lines[1]).toContain(`${hit},`);
    expect(lines[1]).toContain(
      `,${hamlet.fullName} <${hamlet.email}>,#legal hold > kept or not,"the contract, ""signed"" today",`,
    );
    expect(lines[2]).toContain(',About the CONTRACT,');

    const jsonFile = join(dir, 'hold.json');
    const othello = world.user('othello');
    const byOthello = await admin([
      'export-search',
      '--realm',
      sub,
      '--keyword',
      'contract',
      '--sender',
      othello.email,
      '--format',
      'json',
      '--output',
      jsonFile,
    ]);
    expect(byOthello.code).toBe(0);
    const rows = JSON.parse(await readFile(jsonFile, 'utf8')) as Record<string, string>[];
    expect(rows).toEqual([
      expect.objectContaining({ id: String(other.body.id), content: 'About the CONTRACT', 'edit history': '' }),
    ]);
    expect(rows[0]!.recipient).toContain('<');
    expect(rows[0]!['timestamp (UTC)']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    // An existing file is kept unless --force; a search without any limit is refused.
    const again = await admin(['export-search', '--realm', sub, '--keyword', 'x', '--output', jsonFile]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('already exists; use --force to overwrite');
    const unlimited = await admin(['export-search', '--realm', sub, '--format', 'json']);
    expect(unlimited.code).not.toBe(0);
    expect(unlimited.stderr).toContain('One or more limits are required!');
    // Before the start of the window: nothing.
    const future = await admin([
      'export-search',
      '--realm',
      sub,
      '--start',
      new Date(Date.now() + DAY_MS).toISOString(),
    ]);
    expect(future.code).toBe(0);
    expect(JSON.parse(future.stdout)).toEqual([]);
  }, 180_000);

  it('writes the uploads of the matching messages under their path ids with --write-attachments', async () => {
    const world = await newWorld();
    const sub = world.realm.string_id;
    const uploaded = await world.as('hamlet').post(
      '/api/v1/user_uploads',
      {},
      {
        files: [{ field: 'file', filename: 'evidence.txt', contentType: 'text/plain', data: Buffer.from('exhibit A') }],
      },
    );
    expectSuccess(uploaded, 'POST', '/user_uploads');
    const url = uploaded.body.url as string;
    await send(world, 'Verona', `the subpoena file [evidence.txt](${url})`);
    await send(world, 'Verona', 'the subpoena, no file');
    const dir = await mkdtemp(join(tmpdir(), 'export-search-files-'));
    const out = join(dir, 'files');
    const run = await admin([
      'export-search',
      '--realm',
      sub,
      '--keyword',
      'subpoena',
      '--output',
      join(dir, 'hold.json'),
      '--write-attachments',
      out,
    ]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({
      code: 0,
      stderr: expect.stringContaining(`Exported 2 messages and 1 attachments to ${out}`),
    });
    const pathId = url.replace(/^\/user_uploads\//, '');
    expect(await readFile(join(out, ...pathId.split('/')), 'utf8')).toBe('exhibit A');

    // The directory exists now: kept unless --force.
    const again = await admin(['export-search', '--realm', sub, '--keyword', 'subpoena', '--write-attachments', out]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`Attachments output path '${out}' already exists; use --force to overwrite`);
  });
});
