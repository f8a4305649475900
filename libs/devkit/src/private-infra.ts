import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { GenericContainer } from 'testcontainers';
import { useContainers, freePort } from './infra.js';
import { localRabbitNode, rabbitOwner, waitForPort } from './rabbit-cluster.js';

/**
 * PostgreSQL, Redis and RabbitMQ instances of a test's own, which it may stop, restart or kill without disturbing
 * anything else on the machine (fault tests). Containers when a Docker engine answers; otherwise processes started
 * from this machine's installed servers, on free ports, with their data in a temporary directory.
 */
export interface PrivateServer {
  url: string;
  /** Stops and starts again on the same port, keeping the data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops for good and removes the data. */
  destroy(): Promise<void>;
}

const run = promisify(execFile);

function ownedTempDir(prefix: string, owner: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const ids = /^(\d+):(\d+)$/.exec(owner);
  if (ids) chownSync(dir, Number(ids[1]), Number(ids[2]));
  return dir;
}

async function userIds(name: string): Promise<string> {
  const { stdout: uid } = await run('id', ['-u', name]);
  const { stdout: gid } = await run('id', ['-g', name]);
  return `${uid.trim()}:${gid.trim()}`;
}

async function localPostgres(): Promise<PrivateServer> {
  const { stdout } = await run('bash', ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1']);
  const bin = stdout.trim();
  const dir = ownedTempDir('confab-pg-', await userIds('postgres'));
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = (cmd: string, args: string[]) => run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]);
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200 ${process.env.CONFAB_PRIVATE_PG_OPTIONS ?? ''}`;
  const server: PrivateServer = {
    url: `postgresql://postgres@127.0.0.1:${port}`,
    async start() {
      await asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
    },
    async stop() {
      await asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async restart() {
      await server.stop();
      await server.start();
    },
    async destroy() {
      await server.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

async function localRedis(): Promise<PrivateServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server: PrivateServer = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      await waitForPort(port, true, 10_000, 'redis');
    },
    async stop() {
      child?.kill('SIGTERM');
      await waitForPort(port, false, 10_000, 'redis');
    },
    async restart() {
      await server.stop();
      await server.start();
    },
    async destroy() {
      await server.stop().catch(() => undefined);
    },
  };
  await server.start();
  return server;
}

async function localRabbitMQ(): Promise<PrivateServer> {
  const owner = await rabbitOwner();
  const dir = ownedTempDir('confab-rabbit-', owner.join(':'));
  const node = await localRabbitNode(dir, 'single', owner);
  const server: PrivateServer = {
    url: node.url,
    start: () => node.start(),
    stop: () => node.stop(),
    async restart() {
      await node.stop();
      await node.start();
    },
    async destroy() {
      await node.stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await server.start();
  return server;
}

async function container(
  image: string,
  port: number,
  url: (host: string, port: number) => string,
  setup?: (c: GenericContainer) => GenericContainer,
): Promise<PrivateServer> {
  const { GenericContainer } = await import('testcontainers');
  // A fixed host port: Docker maps a new random one when a container restarts, and the tests hold the URL.
  const hostPort = await freePort();
  let builder = new GenericContainer(image).withExposedPorts({ container: port, host: hostPort });
  if (setup) builder = setup(builder);
  const started = await builder.start();
  return {
    url: url(started.getHost(), hostPort),
    restart: async () => {
      await started.restart();
    },
    stop: async () => {
      await started.stop({ remove: false });
    },
    start: async () => {
      await started.restart();
    },
    destroy: async () => {
      await started.stop();
    },
  };
}

export async function privatePostgres(): Promise<PrivateServer> {
  if (await useContainers()) {
    return container(
      'postgres:15-alpine',
      5432,
      (h, p) => `postgresql://postgres@${h}:${p}`,
      (c) => c.withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' }).withCommand(['postgres', '-c', 'fsync=off']),
    );
  }
  return localPostgres();
}

export async function privateRedis(): Promise<PrivateServer> {
  if (await useContainers()) return container('redis:7-alpine', 6379, (h, p) => `redis://${h}:${p}`);
  return localRedis();
}

export async function privateRabbitMQ(): Promise<PrivateServer> {
  if (await useContainers()) return container('rabbitmq:3.13-alpine', 5672, (h, p) => `amqp://guest:guest@${h}:${p}`);
  return localRabbitMQ();
}
