import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type pg from 'pg';
import { RELAY_LOCK_KEY } from '@confab/events';
import { connectTo, databaseUrls, dataTrees, runTool, type Env } from './tools.js';

/** What a backup archive says about itself (manifest.json at its root). */
export interface BackupManifest {
  format: 'confab-backup/1';
  /** When the databases' snapshots were taken: every send acknowledged before this is in the archive. */
  cut_at: string;
  databases: { service: string; file: string }[];
  /** Tar files of the data volume's trees, by tree name. */
  trees: { name: string; file: string }[];
}

export interface BackupOptions {
  /** The archive to write (a tar file). */
  out: string;
  env: Env;
  /**
   * How long the outbox relays stay paused before the cut, so that consumers apply what was published just before
   * (their copies are then as complete as their sources). Default 2000 ms.
   */
  settleMs?: number;
  log?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Backs up every service's database and the data volume into one tar archive, consistently (docs/architecture.md,
 * "Backup and restore"):
 *
 * 1. every service's outbox relay is paused (its advisory lock held), so no event leaves any database;
 * 2. after `settleMs`, one snapshot per database is taken and exported, all within milliseconds: the cut. An event
 *    committed before the cut is either in its producer's outbox in the archive (published again after a restore;
 *    consumers de-duplicate) or was published before the pause; nothing a consumer applied is missing from its
 *    producer's snapshot, since nothing was published after the pause;
 * 3. the relays resume, and `pg_dump` writes each database from its snapshot while the deployment keeps running;
 * 4. the data volume is copied after the cut: a file is stored before the row that refers to it commits, so every
 *    upload and emoji a dumped row names is in the archive.
 */
export async function backup(options: BackupOptions): Promise<BackupManifest> {
  const log = options.log ?? (() => undefined);
  const databases = databaseUrls(options.env);
  const trees = dataTrees(options.env);
  const staging = await mkdtemp(join(tmpdir(), 'confab-backup-'));
  const clients: pg.Client[] = [];
  try {
    await mkdir(join(staging, 'databases'));
    const connect = async (url: string) => {
      const client = await connectTo(url);
      clients.push(client);
      return client;
    };
    const pausers = await Promise.all(databases.map(({ url }) => connect(url)));
    const holders = await Promise.all(databases.map(({ url }) => connect(url)));
    await Promise.all(
      pausers.map(async (client) => {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [RELAY_LOCK_KEY]);
      }),
    );
    log(`outbox relays paused; settling for ${options.settleMs ?? 2000} ms`);
    await sleep(options.settleMs ?? 2000);
    const snapshots = await Promise.all(
      holders.map(async (client) => {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const { rows } = await client.query<{ id: string }>('SELECT pg_export_snapshot() AS id');
        return rows[0]!.id;
      }),
    );
    const cutAt = new Date().toISOString();
    await Promise.all(pausers.map((client) => client.query('COMMIT')));
    log(`cut taken at ${cutAt}; relays resumed`);

    const manifest: BackupManifest = { format: 'confab-backup/1', cut_at: cutAt, databases: [], trees: [] };
    for (const [i, { service, url }] of databases.entries()) {
      const file = `databases/${service}.dump`;
      await runTool('pg_dump', [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--snapshot=${snapshots[i]}`,
        `--file=${join(staging, file)}`,
        url,
      ]);
      manifest.databases.push({ service, file });
      log(`dumped ${service}`);
    }
    await Promise.all(holders.map((client) => client.query('COMMIT')));

    for (const tree of trees) {
      if (!existsSync(tree.dir)) continue;
      const file = `${tree.name}.tar`;
      // Exit status 1: a file changed while it was read (one being written after the cut, which no row names yet).
      await runTool('tar', ['--create', `--file=${join(staging, file)}`, `--directory=${tree.dir}`, '.'], [0, 1]);
      manifest.trees.push({ name: tree.name, file });
      log(`copied ${tree.name} (${tree.dir})`);
    }
    await writeFile(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await runTool('tar', ['--create', `--file=${resolve(options.out)}`, `--directory=${staging}`, '.']);
    log(`backup written to ${options.out}`);
    return manifest;
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await rm(staging, { recursive: true, force: true });
  }
}
