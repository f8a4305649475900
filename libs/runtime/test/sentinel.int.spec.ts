import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, portOpen } from '@confab/devkit';
import { createLogger } from '@confab/logging';
import { Redis } from 'ioredis';
import { openRedis, type RedisClient, type RedisTarget } from '@confab/runtime';

/**
 * A Redis that Sentinel watches (REDIS_URL `redis+sentinel://…`, as on the three hosts): a server and one sentinel
 * started here from Debian's redis-server, on free ports of their own.
 */
const logger = createLogger({ name: 'sentinel-test', level: 'silent' });
const children: ChildProcess[] = [];
let dir: string;
let sentinelPort: number;
let sentinelAdmin: Redis;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'confab-sentinel-'));
  const masterPort = await freePort();
  sentinelPort = await freePort();
  const conf = join(dir, 'sentinel.conf');
  writeFileSync(
    conf,
    [
      `port ${sentinelPort}`,
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor probe 127.0.0.1 ${masterPort} 1`,
      '',
    ].join('\n'),
  );
  const server = ['--port', String(masterPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  children.push(spawn('redis-server', [...server, '--dir', dir], { stdio: 'ignore' }));
  children.push(spawn('redis-server', [conf, '--sentinel'], { stdio: 'ignore' }));
  await until(async () => (await portOpen('127.0.0.1', masterPort, 200)) && portOpen('127.0.0.1', sentinelPort, 200));
  sentinelAdmin = new Redis({ host: '127.0.0.1', port: sentinelPort });
}, 30_000);

afterAll(async () => {
  sentinelAdmin?.disconnect();
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map(
      (c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r))),
    ),
  );
  rmSync(dir, { recursive: true, force: true });
});

/** The sentinel's clients other than the test's own connection (the client's failover detector subscribes to it). */
async function sentinelClients(): Promise<number> {
  const list = (await sentinelAdmin.call('CLIENT', 'LIST')) as string;
  return list.split('\n').filter((line) => line.trim() !== '').length - 1;
}

/** Where the client finds the server: the sentinel, as REDIS_URL `redis+sentinel://127.0.0.1:<port>/probe` names it. */
const sentinelTarget = (): RedisTarget => ({
  url: '',
  cluster: false,
  sentinel: { name: 'probe', sentinels: [{ host: '127.0.0.1', port: sentinelPort }], db: 0, tls: false },
});

describe('a Redis that Sentinel watches', () => {
  it("finds the master through the sentinel, and quit() closes the client's sentinel connections too", async () => {
    const before = await sentinelClients();
    const redis = openRedis(sentinelTarget(), logger);
    const subscribed = new Promise((resolve) => redis.once('failoverSubscribed', resolve));
    expect(await redis.set('sentinel-probe', 'found')).toBe('OK');
    expect(await redis.get('sentinel-probe')).toBe('found');
    await subscribed;
    expect(await sentinelClients()).toBeGreaterThan(before);
    // A process that quits its Redis then exits: nothing of the client may stay open (it kept the sentinels' before).
    await redis.quit();
    await until(async () => (await sentinelClients()) === before);
    expect(await sentinelClients()).toBe(before);
  });

  it("a duplicate's (BullMQ's blocking connections) sentinel connections close with it", async () => {
    const before = await sentinelClients();
    const redis: RedisClient = openRedis(sentinelTarget(), logger);
    const copy = (redis as Redis).duplicate();
    const subscribed = Promise.all(
      [redis, copy].map((r) => new Promise((resolve) => r.once('failoverSubscribed', resolve))),
    );
    expect(await copy.ping()).toBe('PONG');
    expect(await redis.ping()).toBe('PONG');
    await subscribed;
    await Promise.all([copy.quit(), redis.quit()]);
    await until(async () => (await sentinelClients()) === before);
    expect(await sentinelClients()).toBe(before);
  });
});

async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
