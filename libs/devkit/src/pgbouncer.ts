import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './infra.js';
import { waitForPort } from './rabbit-cluster.js';

const run = promisify(execFile);

export interface PgBouncerOptions {
  /** The PostgreSQL it pools (a base URL without a database, as Infrastructure.postgresUrl). */
  upstream: string;
  /** Server connections per database (and user): the pool every replica of a service shares. Default 10. */
  poolSize?: number;
  /** Client connections it accepts in all. Default 1000. */
  maxClients?: number;
}

export interface PgBouncer {
  port: number;
  /**
   * The URL of database `name` through PgBouncer, with `pgbouncer=true`: the mark that tells Confab's plain-pg pools
   * not to keep named prepared statements, which a transaction-mode pool cannot give back on the next transaction.
   */
  urlFor(name: string): string;
  /** A statement of PgBouncer's admin console (`SHOW POOLS`, `SHOW STATS`), its rows. */
  admin(statement: string): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

/** Where a PostgreSQL URL points: a Unix socket directory (`?host=`) or a TCP host, and the port. */
function serverOf(url: string): { host: string; port: string } {
  const parsed = new URL(url);
  return { host: parsed.searchParams.get('host') ?? parsed.hostname, port: parsed.port || '5432' };
}

/**
 * Debian's PgBouncer on this machine in transaction mode, in front of `upstream` (every database of it, by name),
 * run as the postgres user with its files in a temporary directory. Clients authenticate as `postgres` without a
 * password, as the local PostgreSQL of the tests lets them.
 */
export async function startPgBouncer(options: PgBouncerOptions): Promise<PgBouncer> {
  const { host, port: upstreamPort } = serverOf(options.upstream);
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  const dir = mkdtempSync(join(tmpdir(), 'confab-pgbouncer-'));
  chownSync(dir, uid, gid);
  const port = await freePort();
  const config = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'users.txt'), '"postgres" ""\n');
  writeFileSync(
    config,
    [
      '[databases]',
      `* = host=${host} port=${upstreamPort}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      'admin_users = postgres',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 10}`,
      `max_client_conn = ${options.maxClients ?? 1000}`,
      // node-pg and Prisma's adapter send these at start-up; PgBouncer would refuse an unknown one.
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  // As the postgres user (PgBouncer refuses to run as root).
  const child: ChildProcess = spawn('pgbouncer', [config], { uid, gid, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitForPort(port, true, 15_000, 'PgBouncer');
  } catch (err) {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    port,
    urlFor: (name) => `postgresql://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}?pgbouncer=true`,
    async admin(statement) {
      const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${port}/pgbouncer` });
      await client.connect();
      try {
        return (await client.query(statement)).rows as Record<string, unknown>[];
      } finally {
        await client.end();
      }
    },
    async stop() {
      child.kill('SIGINT'); // PgBouncer's immediate shutdown
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
