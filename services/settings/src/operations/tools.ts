import { spawn } from 'node:child_process';
import pg from 'pg';

/**
 * Every service database of a deployment, with the variable holding its URL (as in libs/devkit's catalog; a unit
 * test keeps the two lists equal). The backup covers all of them; the events service keeps nothing durable.
 */
export const SERVICE_DATABASES = [
  { service: 'settings', env: 'SETTINGS_DATABASE_URL' },
  { service: 'messaging', env: 'MESSAGING_DATABASE_URL' },
  { service: 'groups', env: 'GROUPS_DATABASE_URL' },
  { service: 'invitations', env: 'INVITATIONS_DATABASE_URL' },
  { service: 'push', env: 'PUSH_DATABASE_URL' },
] as const;

export type Env = Record<string, string | undefined>;

/**
 * The database URL of every service, from the deployment's environment; a missing one is an error. A backup needs
 * sessions of its own (an exported snapshot, advisory locks), so `<SERVICE>_DIRECT_DATABASE_URL` takes the place of
 * `<SERVICE>_DATABASE_URL` when set: the direct address where the services' URLs go through PgBouncer.
 */
export function databaseUrls(env: Env): { service: string; url: string }[] {
  return SERVICE_DATABASES.map(({ service, env: name }) => {
    const url = env[name.replace(/_DATABASE_URL$/, '_DIRECT_DATABASE_URL')] || env[name];
    if (!url) throw new Error(`${name} is required: backup and restore cover every service's database`);
    return { service, url: libpqUrl(url) };
  });
}

/** Query parameters of Prisma's and Confab's own that libpq (pg_dump, pg_restore) refuses in a URL. */
const NOT_LIBPQ = ['schema', 'connection_limit', 'pool_timeout', 'pgbouncer', 'statement_cache_size', 'socket_timeout'];

/** A database URL as libpq accepts it. */
export function libpqUrl(url: string): string {
  const parsed = new URL(url);
  if (!NOT_LIBPQ.some((name) => parsed.searchParams.has(name))) return url;
  for (const name of NOT_LIBPQ) parsed.searchParams.delete(name);
  return parsed.toString();
}

/** Where the data volume's trees are: uploads (messaging) and custom emoji (settings), as the services find them. */
export function dataTrees(env: Env): { name: 'uploads' | 'emoji'; dir: string }[] {
  const root = env.CONFAB_DATA_DIR;
  if (!root) throw new Error('CONFAB_DATA_DIR is required: backup and restore cover the data volume');
  return [
    { name: 'uploads', dir: env.MESSAGING_UPLOADS_DIR || `${root}/uploads` },
    { name: 'emoji', dir: `${root}/emoji` },
  ];
}

/**
 * pg_dump and pg_restore from CONFAB_PG_BIN when set (a client as new as the server: pg_dump refuses a server of a
 * newer major version), else from PATH; other commands from PATH.
 */
export function toolPath(command: string, env: Env = process.env): string {
  const bin = env.CONFAB_PG_BIN;
  return bin && command.startsWith('pg_') ? `${bin.replace(/\/+$/, '')}/${command}` : command;
}

/**
 * Runs a command to its end; rejects with its error output unless its exit status is one of `ok` (GNU tar's 1:
 * "a file changed as it was read", for files a running deployment is writing).
 */
export function runTool(command: string, args: string[], ok: readonly number[] = [0]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(toolPath(command), args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
    child.on('error', (err) => reject(new Error(`${command}: ${err.message} (is it installed and on PATH?)`)));
    child.on('exit', (code) =>
      ok.includes(code ?? -1) ? resolve() : reject(new Error(`${command} ${args[0]} … failed (${code}):\n${errors}`)),
    );
  });
}

/** A connected client of one database (the caller ends it). */
export async function connectTo(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}
