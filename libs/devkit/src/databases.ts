import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { plannedProcesses, REPO_ROOT, type ProcessSpec } from './catalog.js';
import { LOCAL_DEFAULTS } from './infra.js';

/** The URL of database `name` on the server `baseUrl` points at. */
export function databaseUrl(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The name of a service's database in a Stack run (`runId` '' is the development deployment). */
export function stackDatabaseName(runId: string, service: string): string {
  return runId ? `confab_${runId}_${service}` : `confab_${service}`;
}

async function withAdmin<T>(baseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(baseUrl, 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function createDatabase(
  baseUrl: string,
  name: string,
  options: { ifMissing?: boolean } = {},
): Promise<string> {
  await withAdmin(baseUrl, async (client) => {
    if (options.ifMissing) {
      const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (found.rowCount) return;
    }
    await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
  });
  return databaseUrl(baseUrl, name);
}

export async function dropDatabase(baseUrl: string, name: string): Promise<void> {
  await withAdmin(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

/** Drops every database whose name starts with `prefix` (left behind by interrupted test runs). */
export async function dropDatabasesLike(baseUrl: string, prefix: string): Promise<void> {
  const names = await withAdmin(baseUrl, async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [prefix],
    );
    return rows.map((r) => r.datname);
  });
  for (const name of names) await dropDatabase(baseUrl, name);
}

/** Applies a service's migrations with `prisma migrate deploy`, as the Kubernetes migration Job does. */
export function migrate(spec: Pick<ProcessSpec, 'dir' | 'databaseEnv' | 'name'>, url: string): Promise<void> {
  const cwd = join(REPO_ROOT, spec.dir);
  return new Promise((resolve, reject) => {
    const child = spawn(join(cwd, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], {
      cwd,
      env: { ...process.env, [spec.databaseEnv!]: url, CHECKPOINT_DISABLE: '1', PRISMA_HIDE_UPDATE_MESSAGE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`migrating ${spec.name} failed:\n${output}`)),
    );
  });
}

/**
 * The integration tier's database (docs/architecture.md, "Tests"): a database of one service, named for the spec
 * with a random suffix, with the service's migrations applied as in production; `drop` removes it. Every service's
 * integration specs stand on it, with their own data factories beside them.
 */
export async function serviceDatabase(
  service: string,
  label: string,
  baseUrl: string = process.env.DATABASE_URL ?? LOCAL_DEFAULTS.postgresUrl,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const spec = plannedProcesses().find((p) => p.service === service && p.databaseEnv);
  if (!spec) throw new Error(`${service} has no database`);
  const name = `confab_test_${service}_${label}_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(baseUrl, name);
  try {
    await migrate(spec, url);
  } catch (err) {
    await dropDatabase(baseUrl, name);
    throw err;
  }
  return { url, drop: () => dropDatabase(baseUrl, name) };
}
