import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './infra.js';

const run = promisify(execFile);

/**
 * A PostgreSQL of a test's own whose WAL pgBackRest archives continuously (stanza `confab`, a repository in its
 * temporary directory), with a full backup taken at start: what point-in-time recovery needs (docs/architecture.md,
 * "Point-in-time recovery"). From this machine's PostgreSQL and Debian's pgbackrest, run as the postgres user; the
 * three-host topology (scripts/ha.mjs) archives its Patroni cluster the same way.
 */
export interface ArchivedPostgres {
  url: string;
  /** Makes PostgreSQL close its current WAL segment and waits until pgBackRest has archived it (`pgbackrest check`). */
  archiveNow(): Promise<void>;
  /** Stops PostgreSQL, restores the backup and replays the archived WAL up to `target`, then opens for writes. */
  restoreTo(target: Date): Promise<void>;
  /** Stops for good and removes the data and the repository. */
  destroy(): Promise<void>;
}

/** A time as pgBackRest's --target reads it: `2026-12-02 01:32:09.123+00`. */
export function pgBackRestTime(at: Date): string {
  return `${at.toISOString().replace('T', ' ').replace('Z', '')}+00`;
}

export async function archivedPostgres(): Promise<ArchivedPostgres> {
  const { stdout } = await run('bash', ['-c', 'ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1']);
  const bin = stdout.trim();
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  const dir = mkdtempSync(join(tmpdir(), 'confab-pitr-'));
  for (const sub of ['', 'repo', 'log', 'lock']) {
    if (sub) mkdirSync(join(dir, sub));
    chownSync(join(dir, sub), uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  const conf = join(dir, 'pgbackrest.conf');
  writeFileSync(
    conf,
    `[global]\nrepo1-path=${join(dir, 'repo')}\nlog-path=${join(dir, 'log')}\nlock-path=${join(dir, 'lock')}\n` +
      `start-fast=y\nlog-level-console=warn\n\n[confab]\npg1-path=${data}\npg1-port=${port}\npg1-socket-path=${dir}\n`,
  );
  const asPostgres = (cmd: string, args: string[]) => run('runuser', ['-u', 'postgres', '--', cmd, ...args]);
  const backrest = (args: string[]) => asPostgres('pgbackrest', [`--config=${conf}`, '--stanza=confab', ...args]);
  const pgctl = (args: string[]) => asPostgres(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  await asPostgres(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      `port = ${port}`,
      `unix_socket_directories = '${dir}'`,
      "listen_addresses = '127.0.0.1'",
      'max_connections = 100',
      'fsync = off',
      'wal_level = replica',
      'archive_mode = on',
      `archive_command = 'pgbackrest --config=${conf} --stanza=confab archive-push %p'`,
      '',
    ].join('\n'),
  );
  const start = () => pgctl(['-l', join(dir, 'server.log'), '-w', '-t', '120', 'start']);
  const stop = () => pgctl(['-m', 'fast', '-w', 'stop']);
  await start();
  await backrest(['stanza-create']);
  await backrest(['--type=full', 'backup']);
  // pgBackRest records a backup's stop time in whole seconds and restores to a time only from a backup that stopped
  // before it: every moment a caller can choose from here on lies in a later second than the backup's end.
  const backupEnded = Math.floor(Date.now() / 1000);
  while (Math.floor(Date.now() / 1000) <= backupEnded) await new Promise((r) => setTimeout(r, 20));
  const sql = (query: string) =>
    asPostgres(join(bin, 'psql'), ['-h', dir, '-p', String(port), '-U', 'postgres', '-Atc', query]);
  return {
    url: `postgresql://postgres@127.0.0.1:${port}`,
    async archiveNow() {
      await backrest(['check']);
    },
    async restoreTo(target) {
      await stop();
      await backrest([
        '--delta',
        '--type=time',
        `--target=${pgBackRestTime(target)}`,
        '--target-action=promote',
        'restore',
      ]);
      await start();
      // Recovery replays the archive up to the target and then promotes: writable again.
      const deadline = Date.now() + 120_000;
      while ((await sql('SELECT pg_is_in_recovery()').catch(() => ({ stdout: 't' }))).stdout.trim() !== 'f') {
        if (Date.now() > deadline) throw new Error('PostgreSQL did not finish recovery within 120 s');
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async destroy() {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
