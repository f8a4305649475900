import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { freePort, LOCAL_DEFAULTS, portOpen, type Infrastructure } from './infra.js';

const run = promisify(execFile);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A Redis Cluster on this machine: its first node's URL in the cluster form Confab's processes read (REDIS_URL). */
export interface LocalRedisCluster {
  /** `redis+cluster://127.0.0.1:<port of the first master>` */
  url: string;
  ports: number[];
  /** Stops every node and removes their directory. */
  stop(): Promise<void>;
}

/**
 * Starts a Redis Cluster of `masters` masters (no replicas) from Debian's `redis-server`, on free ports of its own
 * (client and cluster-bus ports), with its nodes' files in a temporary directory, and waits until it serves every
 * slot. For tests and local runs (README, "Redis Cluster"); `stop()` tears it down.
 */
export async function startRedisCluster(masters = 3): Promise<LocalRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'confab-redis-cluster-'));
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(
      ports.map(async (port) => {
        for (let i = 0; i < 100 && (await portOpen('127.0.0.1', port, 200)); i++) await sleep(50);
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < masters; i++) {
      const port = await freePort();
      const busPort = await freePort();
      ports.push(port);
      const child = spawn(
        'redis-server',
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes'],
          ...['--cluster-port', String(busPort), '--cluster-config-file', `nodes-${port}.conf`, '--dir', dir],
          ...['--cluster-node-timeout', '5000', '--save', '', '--appendonly', 'no'],
        ],
        { stdio: 'ignore' },
      );
      children.push(child);
    }
    for (const port of ports) await waitUntil(() => portOpen('127.0.0.1', port, 200), `redis node ${port} to listen`);
    await run('redis-cli', [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '0',
      '--cluster-yes',
    ]);
    // Every node must know the whole map before a client may trust the one it asks.
    for (const port of ports) await waitUntil(() => clusterOk(port), `redis node ${port} to see the cluster ok`);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `redis+cluster://127.0.0.1:${ports[0]}`, ports, stop };
}

async function clusterOk(port: number): Promise<boolean> {
  const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']).catch(() => ({ stdout: '' }));
  return /cluster_state:ok/.test(stdout) && /cluster_known_nodes:(\d+)/.exec(stdout)?.[1] !== '1';
}

async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The two kinds of Redis the Redis-touching integration tests run against. */
export const REDIS_KINDS = ['single Redis', 'Redis Cluster'] as const;
export type RedisKind = (typeof REDIS_KINDS)[number];

/** A Redis for one test file: where it is (`url`, `cluster`, as @confab/runtime's connectRedis takes) and its end. */
export interface TestRedis {
  url: string;
  cluster: boolean;
  stop(): Promise<void>;
}

/** The machine's Redis (REDIS_URL), or a three-master Redis Cluster started for the test. */
export async function testRedis(kind: RedisKind): Promise<TestRedis> {
  if (kind === 'single Redis') {
    return { url: process.env.REDIS_URL ?? LOCAL_DEFAULTS.redisUrl, cluster: false, stop: async () => undefined };
  }
  const cluster = await startRedisCluster(3);
  return { url: cluster.url.replace('redis+cluster:', 'redis:'), cluster: true, stop: () => cluster.stop() };
}

/** The jest functions `eachRedis` declares its blocks with (devkit is no test file: the spec passes its globals). */
export interface JestBlocks {
  describe(name: string, body: () => void): void;
  beforeAll(fn: () => Promise<void>, timeoutMs?: number): void;
  afterAll(fn: () => Promise<void>, timeoutMs?: number): void;
}

/**
 * Declares `suite` once on the machine's Redis and once on a Redis Cluster started for it (README, "Redis
 * Cluster"): `connect` opens the suite's client (before its tests, as `client()` then returns it), which is closed
 * after them; on the single Redis the keys under `prefix` are deleted.
 */
export function eachRedis<C extends { quit(): Promise<unknown> }>(
  jest: JestBlocks,
  options: { prefix: string; connect: (redis: TestRedis) => C },
  suite: (client: () => C, kind: RedisKind) => void,
): void {
  for (const kind of REDIS_KINDS) {
    jest.describe(`on a ${kind}`, () => {
      let server: TestRedis | undefined;
      let client: C | undefined;
      jest.beforeAll(async () => {
        server = await testRedis(kind);
        client = options.connect(server);
      }, 60_000);
      jest.afterAll(async () => {
        await client?.quit();
        if (server && !server.cluster) await deleteRedisKeys(server.url, options.prefix);
        await server?.stop();
      }, 60_000);
      suite(() => client!, kind);
    });
  }
}

/** Deletes every key under `prefix` of a single Redis (a test run's, when it ends). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/**
 * With CONFAB_LOCAL_REDIS_CLUSTER=1, the infrastructure with a three-master Redis Cluster started on this machine
 * in place of its Redis (stopped with it); otherwise the infrastructure unchanged.
 */
export async function withLocalRedisCluster(
  infra: Infrastructure,
  log: (line: string) => void,
  env: Record<string, string | undefined> = process.env,
): Promise<Infrastructure & { redisCluster?: LocalRedisCluster }> {
  if (!['1', 'true', 'yes'].includes(env.CONFAB_LOCAL_REDIS_CLUSTER ?? '')) return infra;
  const cluster = await startRedisCluster(3);
  log(`Redis Cluster of three masters on ports ${cluster.ports.join(', ')} (${cluster.url})`);
  return {
    ...infra,
    redisUrl: cluster.url,
    redisCluster: cluster,
    stop: async () => {
      await cluster.stop();
      await infra.stop();
    },
  };
}
