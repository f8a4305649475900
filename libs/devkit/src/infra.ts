import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as netConnect, createServer } from 'node:net';
import { chooseInfrastructure, infraMode, testcontainersProbe, type InfraChoice } from './infra-choice.js';

/** Addresses of PostgreSQL (base URL without a database), Redis and RabbitMQ. */
export interface Infrastructure {
  postgresUrl: string;
  redisUrl: string;
  amqpUrl: string;
  /** 'containers' when testcontainers started them, 'local' for services already on the machine. */
  kind: 'containers' | 'local';
  stop(): Promise<void>;
}

export const LOCAL_DEFAULTS = {
  postgresUrl: 'postgresql://postgres@127.0.0.1:5432',
  redisUrl: 'redis://127.0.0.1:6379',
  amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
};

/** Where Debian's PostgreSQL puts its local socket. */
const POSTGRES_SOCKET_DIR = '/var/run/postgresql';

/**
 * The machine's own PostgreSQL: through its Unix socket when there is one (no loopback TCP stack on every query:
 * about a quarter more sends per second measured here), else over TCP.
 */
export function localPostgresUrl(): string {
  return existsSync(`${POSTGRES_SOCKET_DIR}/.s.PGSQL.5432`)
    ? `postgresql://postgres@localhost/postgres?host=${POSTGRES_SOCKET_DIR}`
    : LOCAL_DEFAULTS.postgresUrl;
}

export function portOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = netConnect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** A TCP port nothing listens on right now (for processes and servers started by tests and the dev stack). */
/** Whether something can listen on the port on every interface right now (as the services listen). */
function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** Ports this process has handed out, never handed out twice. */
const handedOut = new Set<number>();
const PORT_BASE = 20_000;
const PORT_SPAN = 12_000;

const RESERVATIONS = join(tmpdir(), 'confab-ports');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims `file` for this process, across every process of the machine: creates it holding this process's id, unless
 * another living process holds it (a claim whose holder died is taken over). Returns whether the claim is this
 * process's now; giving it up is deleting the file.
 */
export function claimFile(file: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let holder: number;
    try {
      holder = Number(readFileSync(file, 'utf8'));
    } catch {
      continue; // given up just now
    }
    // An empty file is a claim being written this instant.
    if (!holder || alive(holder)) return false;
    try {
      unlinkSync(file);
    } catch {
      // another process took it over first
    }
  }
  return false;
}

/**
 * Claims a port across every process of this machine (`claimFile`): a stack's ports are chosen long before its
 * processes listen on them, after migrations; without the claim, two test runs or test files starting stacks side by
 * side could choose the same port in that time.
 */
function reserve(port: number): boolean {
  mkdirSync(RESERVATIONS, { recursive: true });
  return claimFile(join(RESERVATIONS, String(port)));
}

/**
 * A port for a process to listen on a moment later. Taken below the kernel's ephemeral range (32768-60999 on Linux),
 * where a port the kernel picked (binding port 0) lies: an outgoing connection of any process could take such a port
 * between the pick and the listen, and the process then fails to start with EADDRINUSE. Other test runs and test
 * files choosing ports at the same time are kept apart by a claim on the port (`reserve`), and each port is checked
 * bindable first.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PORT_BASE + Math.floor(Math.random() * PORT_SPAN);
    if (handedOut.has(port)) continue;
    if ((await bindable(port)) && reserve(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${PORT_BASE} and ${PORT_BASE + PORT_SPAN}`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The start commands of this machine kind (see README), run only when a service is down. */
const LOCAL_STARTERS: { name: string; port: number; command: string }[] = [
  {
    name: 'PostgreSQL',
    port: 5432,
    command: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start',
  },
  {
    name: 'Redis',
    port: 6379,
    command: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
  },
  { name: 'RabbitMQ', port: 5672, command: 'rabbitmq-server -detached' },
];

/** Starts the local PostgreSQL, Redis and RabbitMQ if they are installed but not running. */
export async function ensureLocalServices(log: (line: string) => void = () => undefined): Promise<void> {
  for (const starter of LOCAL_STARTERS) {
    if (await portOpen('127.0.0.1', starter.port)) continue;
    log(`${starter.name} is not answering on ${starter.port}; starting it`);
    try {
      execFileSync('bash', ['-c', starter.command], { stdio: 'ignore' });
    } catch {
      throw new Error(`${starter.name} is not running and could not be started with: ${starter.command}`);
    }
    for (let i = 0; i < 120 && !(await portOpen('127.0.0.1', starter.port)); i++) await sleep(500);
    if (!(await portOpen('127.0.0.1', starter.port)))
      throw new Error(`${starter.name} did not come up on ${starter.port}`);
  }
}

let choice: Promise<InfraChoice> | undefined;

/**
 * Whether tests start their PostgreSQL, Redis and RabbitMQ as containers (`CONFAB_TEST_INFRA`, the engine and its
 * images decide; see infra-choice.ts). Decided once per process: the fault tests ask for each server they start.
 */
export async function useContainers(log: (line: string) => void = () => undefined): Promise<boolean> {
  const env = process.env;
  choice ??= chooseInfrastructure(
    infraMode(env.CONFAB_TEST_INFRA),
    testcontainersProbe,
    env.TESTCONTAINERS_RYUK_DISABLED === 'true',
  ).then((made) => {
    if (made.note) log(made.note);
    // testcontainers reads it when it starts its first container.
    if (made.withoutReaper) env.TESTCONTAINERS_RYUK_DISABLED = 'true';
    return made;
  });
  return (await choice).kind === 'containers';
}

async function startContainers(): Promise<Infrastructure> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const [pg, redis, rabbit] = await Promise.all([
    new GenericContainer('postgres:15-alpine')
      .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
      .withCommand(['postgres', '-c', 'max_connections=300', '-c', 'fsync=off'])
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
    new GenericContainer('redis:7-alpine')
      .withExposedPorts(6379)
      .withWaitStrategy(Wait.forLogMessage(/Ready to accept connections/))
      .start(),
    new GenericContainer('rabbitmq:3.13-alpine')
      .withExposedPorts(5672)
      .withWaitStrategy(Wait.forLogMessage(/Server startup complete/))
      .start(),
  ]);
  return {
    kind: 'containers',
    postgresUrl: `postgresql://postgres@${pg.getHost()}:${pg.getMappedPort(5432)}`,
    redisUrl: `redis://${redis.getHost()}:${redis.getMappedPort(6379)}`,
    amqpUrl: `amqp://guest:guest@${rabbit.getHost()}:${rabbit.getMappedPort(5672)}`,
    async stop() {
      await Promise.all([pg.stop(), redis.stop(), rabbit.stop()]);
    },
  };
}

/**
 * Infrastructure for the test suite: containers when a Docker engine answers, otherwise the services already on
 * the machine (DATABASE_URL, REDIS_URL and AMQP_URL override the local defaults).
 */
export async function resolveInfrastructure(log: (line: string) => void = () => undefined): Promise<Infrastructure> {
  if (await useContainers(log)) {
    log('starting PostgreSQL, Redis and RabbitMQ containers (testcontainers)');
    return startContainers();
  }
  const env = process.env;
  const custom = env.DATABASE_URL || env.REDIS_URL || env.AMQP_URL;
  if (!custom) await ensureLocalServices(log);
  return {
    kind: 'local',
    postgresUrl: env.DATABASE_URL ?? localPostgresUrl(),
    redisUrl: env.REDIS_URL ?? LOCAL_DEFAULTS.redisUrl,
    amqpUrl: env.AMQP_URL ?? LOCAL_DEFAULTS.amqpUrl,
    async stop() {},
  };
}
