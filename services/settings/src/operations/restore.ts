import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { BackupManifest } from './backup.js';
import { connectTo, databaseUrls, dataTrees, runTool, type Env } from './tools.js';

export interface RestoreOptions {
  /** The archive `backup` wrote. */
  from: string;
  /** The empty deployment's environment: its database URLs and CONFAB_DATA_DIR. */
  env: Env;
  log?: (line: string) => void;
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Creates the database `url` names unless it exists. */
async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  target.pathname = '/postgres';
  const admin = await connectTo(target.toString());
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!found.rowCount) await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  } finally {
    await admin.end();
  }
}

/**
 * The first table of the database that holds a row, if any (migrations' own bookkeeping aside): a restore only
 * goes into a deployment that has no data yet (a new database, or one its migrations just created).
 */
async function firstTableWithRows(url: string): Promise<string | null> {
  const client = await connectTo(url);
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables
        WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND tablename <> '_prisma_migrations'`,
    );
    for (const { name } of tables) {
      const { rowCount } = await client.query(`SELECT 1 FROM ${name} LIMIT 1`);
      if (rowCount) return name;
    }
    return null;
  } finally {
    await client.end();
  }
}

/**
 * Restores an archive of `backup` into an empty deployment, before its processes start: every service's database
 * (created when missing; refused when it holds data) and the data volume's trees (refused when not empty). Started
 * afterwards, the services find their data as it was at the backup's cut; the outbox rows in the archive are
 * published again, and consumers that already applied them skip them. Redis is not restored: it holds no fact
 * (event queues are re-registered by clients, scheduled-message timers are re-created by messaging's sweep).
 */
export async function restore(options: RestoreOptions): Promise<BackupManifest> {
  const log = options.log ?? (() => undefined);
  const targets = new Map(databaseUrls(options.env).map((d) => [d.service, d.url]));
  const trees = new Map(dataTrees(options.env).map((t) => [t.name, t.dir]));
  const staging = await mkdtemp(join(tmpdir(), 'confab-restore-'));
  try {
    await runTool('tar', ['--extract', `--file=${resolve(options.from)}`, `--directory=${staging}`]);
    const manifest = JSON.parse(await readFile(join(staging, 'manifest.json'), 'utf8')) as BackupManifest;
    if (manifest.format !== 'confab-backup/1') throw new Error(`not a Confab backup (format ${manifest.format})`);
    for (const { service } of manifest.databases) {
      if (!targets.has(service)) throw new Error(`the archive has a database of ${service}, unknown here`);
    }
    for (const { name } of manifest.trees) {
      const dir = trees.get(name as 'uploads');
      if (!dir) throw new Error(`the archive has a data tree ${name}, unknown here`);
      if (existsSync(dir) && readdirSync(dir).length > 0) throw new Error(`refusing to restore into ${dir}: not empty`);
    }
    for (const { service } of manifest.databases) {
      const url = targets.get(service)!;
      await ensureDatabase(url);
      const table = await firstTableWithRows(url);
      if (table) throw new Error(`refusing to restore ${service}: its database is not empty (${table} has rows)`);
    }

    for (const { service, file } of manifest.databases) {
      await runTool('pg_restore', [
        '--clean',
        '--if-exists',
        '--no-owner',
        '--no-privileges',
        '--single-transaction',
        '--exit-on-error',
        `--dbname=${targets.get(service)!}`,
        join(staging, file),
      ]);
      log(`restored ${service}`);
    }
    for (const { name, file } of manifest.trees) {
      const dir = trees.get(name as 'uploads')!;
      await mkdir(dir, { recursive: true });
      await runTool('tar', ['--extract', `--file=${join(staging, file)}`, `--directory=${dir}`]);
      log(`restored ${name} into ${dir}`);
    }
    log(`restore of the backup cut at ${manifest.cut_at} complete; start the deployment`);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
