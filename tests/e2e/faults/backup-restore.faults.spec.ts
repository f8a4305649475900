import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  createWorld,
  databaseServices,
  databaseUrl,
  REPO_ROOT,
  stackDatabaseName,
  World,
  type ApiClient,
  type Stack,
  type StackInfo,
} from '@confab/devkit';
import { eventually, faultRunId, startFaultStack } from './stack';

const run = promisify(execFile);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** `npm run admin -- <args>` against a deployment whose database URLs and data directory are given. */
async function admin(args: string[], databases: Record<string, string>, dataDir: string): Promise<string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), CONFAB_DATA_DIR: dataDir };
  for (const spec of databaseServices()) env[spec.databaseEnv!] = databases[spec.service]!;
  const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'services/settings/dist/cli.js'), ...args], {
    env,
    timeout: 120_000,
  });
  return stdout;
}

/** Every message of a topic, oldest first. */
async function topicIds(client: ApiClient, channel: string, topic: string): Promise<number[]> {
  const response = await client.get('/messages', {
    anchor: 'oldest',
    num_before: 0,
    num_after: 5000,
    narrow: JSON.stringify([
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: topic },
    ]),
  });
  expect({ status: response.status, found_newest: response.body.found_newest }).toEqual({
    status: 200,
    found_newest: true,
  });
  return (response.body.messages as { id: number }[]).map((m) => m.id);
}

describe('a backup taken while messages are sent, restored into an empty deployment', () => {
  const work = mkdtempSync(join(tmpdir(), 'confab-backup-test-'));
  const dataA = join(work, 'data-a');
  const dataB = join(work, 'data-b');
  const archive = join(work, 'backup.tar');
  let first: { stack: Stack; info: StackInfo } | undefined;
  let second: { stack: Stack; info: StackInfo } | undefined;
  let world: World;

  beforeAll(async () => {
    first = await startFaultStack({}, { CONFAB_DATA_DIR: dataA });
    world = await createWorld(first.info);
  }, 240_000);

  afterAll(async () => {
    await first?.stack.stop({ cleanUp: true }).catch(() => undefined);
    await second?.stack.stop({ cleanUp: true }).catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  });

  it('loses no acknowledged message, upload or setting', async () => {
    const iago = world.as('iago');
    // What the deployment holds before the backup: an upload a message links, a custom emoji, a changed setting.
    const uploaded = await iago.post(
      '/api/v1/user_uploads',
      {},
      { files: [{ field: 'file', filename: 'plan.txt', contentType: 'text/plain', data: Buffer.from('the plan') }] },
    );
    expect(uploaded.status).toBe(200);
    const linking = await iago.post('/messages', {
      type: 'stream',
      to: 'Denmark',
      topic: 'files',
      content: `[plan.txt](${uploaded.body.url})`,
    });
    expect(linking.status).toBe(200);
    const emoji = await iago.post(
      '/realm/emoji/backed_up',
      {},
      { files: [{ field: 'f1', filename: 'e.png', contentType: 'image/png', data: PNG }] },
    );
    expect(emoji.status).toBe(200);
    expect((await iago.patch('/realm', { name: 'Backed-up org' })).status).toBe(200);

    // Senders that keep going before, during and after the backup; every acknowledged id is kept.
    const acknowledged: number[] = [];
    const failed: unknown[] = [];
    let sending = true;
    const senders = (['hamlet', 'othello'] as const).map(async (name) => {
      const client = world.as(name);
      for (let n = 0; sending; n++) {
        const response = await client.post('/messages', {
          type: 'stream',
          to: 'Verona',
          topic: 'flow',
          content: `${name} ${n}`,
        });
        if (response.status === 200) acknowledged.push(response.body.id as number);
        else failed.push(response.body);
      }
    });
    await eventually(
      async () => acknowledged.length,
      (n) => n >= 30,
      60_000,
    );
    const beforeBackup = [...acknowledged];
    const started = Date.now();
    const output = await admin(['backup', '--out', archive], first!.info.databases, dataA);
    expect(output).toMatch(/backup written to/);
    const atEnd = acknowledged.length;
    await eventually(
      async () => acknowledged.length,
      (n) => n >= atEnd + 10,
      60_000,
    );
    sending = false;
    await Promise.all(senders);
    expect(failed).toEqual([]);
    // Sends went on while the backup ran (the relays' pause delays events, never a send).
    expect(atEnd).toBeGreaterThan(beforeBackup.length);

    // An empty deployment: new databases (the names its stack will use), an empty data directory.
    const runId = faultRunId();
    const databases = Object.fromEntries(
      databaseServices().map((spec) => [
        spec.service,
        databaseUrl(first!.info.postgresUrl, stackDatabaseName(runId, spec.service)),
      ]),
    );
    await admin(['restore', '--from', archive], databases, dataB);
    second = await startFaultStack({}, { CONFAB_DATA_DIR: dataB }, { runId, reuseDatabases: true });
    const gateway = new URL(second.info.gatewayUrl);
    const realmUrl = new URL(world.realm.url);
    realmUrl.port = gateway.port;
    const restored = new World(second.info, { ...world.realm, url: realmUrl.origin }, world.users, world.clientAddress);

    // Every message acknowledged before the backup began is there; nothing that was never acknowledged is.
    const ids = await topicIds(restored.as('cordelia'), 'Verona', 'flow');
    const all = new Set(acknowledged);
    expect(beforeBackup.filter((id) => !ids.includes(id))).toEqual([]);
    expect(ids.filter((id) => !all.has(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    console.log(
      `backup: ${Date.now() - started} ms; acknowledged before it ${beforeBackup.length}, by its end ${atEnd}, ` +
        `in all ${acknowledged.length}; restored ${ids.length}`,
    );

    // The upload, the message linking it, the emoji's image and the setting.
    const download = await restored.as('iago').get(uploaded.body.url as string);
    expect({ status: download.status, text: download.text }).toEqual({ status: 200, text: 'the plan' });
    expect(await topicIds(restored.as('hamlet'), 'Denmark', 'files')).toEqual([linking.body.id]);
    const listed = await restored.as('hamlet').get('/realm/emoji');
    const entry = Object.values(listed.body.emoji as Record<string, { name: string; source_url: string }>).find(
      (e) => e.name === 'backed_up',
    );
    const image = await fetch(new URL(entry!.source_url, second.info.gatewayUrl));
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    const server = await restored.anonymous().get('/server_settings');
    expect(server.body.realm_name).toBe('Backed-up org');

    // And the restored deployment works: a new message is sent and read back after the restored ones.
    const next = await restored.as('hamlet').post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'flow',
      content: 'after the restore',
    });
    expect(next.status).toBe(200);
    expect(next.body.id).toBeGreaterThan(Math.max(...ids));
    expect((await topicIds(restored.as('cordelia'), 'Verona', 'flow')).at(-1)).toBe(next.body.id);
  }, 400_000);
});
