import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { cidrList, parseEnv, z } from '@confab/config';
import { GuardedHttpClient } from '@confab/http';
import {
  DEFAULT_LIMITS,
  LoaderProcess,
  Progress,
  runImport,
  type ArchiveLimits,
  type ImportSource,
  type ImportSummary,
  type ServiceLoader,
} from '@confab/porting';
import { createPrisma } from '../repositories/prisma.js';
import { SettingsImportLoader } from './import.js';
import { databaseUrls, type Env } from './tools.js';

/** The repository's root, from this file's place in services/settings/dist/operations. */
const ROOT = resolve(__dirname, '../../../..');

/** Each service's import part, run as that service's own process with only its own environment. */
export const IMPORT_LOADERS = [
  { service: 'groups', entry: 'services/groups/dist/operations/import-loader.js', env: ['GROUPS_DATABASE_URL'] },
  {
    service: 'messaging',
    entry: 'services/messaging/dist/operations/import-loader.js',
    env: ['MESSAGING_DATABASE_URL', 'MESSAGING_UPLOADS_DIR', 'CONFAB_DATA_DIR'],
  },
  { service: 'push', entry: 'services/push/dist/operations/import-loader.js', env: ['PUSH_DATABASE_URL'] },
  {
    service: 'events',
    entry: 'services/events/dist/operations/import-loader.js',
    env: ['REDIS_URL', 'CONFAB_REDIS_PREFIX', 'CONFAB_REDIS_CLUSTER'],
  },
] as const;

export interface ImportCommandOptions {
  source: ImportSource;
  from: string;
  subdomain: string;
  env: Env;
  slackUsers?: string;
  /** Slack's emoji.list answer, the organization's custom emoji. */
  slackEmoji?: string;
  team?: string;
  workDir?: string;
  limits?: Partial<ArchiveLimits>;
  log: (line: string) => void;
  /** Where the progress bar is drawn (the terminal). */
  out: { isTTY?: boolean; write(text: string): unknown };
}

/** The environment a service's loader process gets: its own variables (direct database URLs) and the basics. */
function loaderEnv(env: Env, names: readonly string[], urls: Map<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'NODE_ENV', 'TZ', 'NODE_OPTIONS']) if (env[name]) out[name] = env[name];
  for (const name of names) {
    const service = name.replace(/_DATABASE_URL$/, '').toLowerCase();
    const value = name.endsWith('_DATABASE_URL') ? urls.get(service) : env[name];
    if (value) out[name] = value;
  }
  return out;
}

/** The advisory lock (two-key form, on settings' database) that lets one import run at a time. */
const IMPORT_LOCK: [number, number] = [0x696d_706f, 1];

/**
 * Waits until no other import runs, then holds the lock on a connection of its own until `release` (or until this
 * process ends: PostgreSQL drops a session's locks with it, so a killed import never blocks the next). Under it,
 * the leftovers an import removes first are only those of imports that died, never the committed parts of one
 * still waiting for settings' commit.
 */
async function oneImportAtATime(url: string, log: (line: string) => void): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', IMPORT_LOCK);
  if (!rows[0]?.locked) {
    log('another import is running: waiting for it to finish');
    await client.query('SELECT pg_advisory_lock($1, $2)', IMPORT_LOCK);
  }
  return { release: () => client.end().catch(() => undefined) };
}

/**
 * `npm run admin -- import`: a new organization from a Slack, Mattermost or Zulip export (docs/architecture.md,
 * "Moving organizations in and out"). Settings' part runs here; every other service's part runs as a process of
 * that service's own code, on its own database, spoken to over the loader protocol of @confab/porting.
 */
export async function importCommand(options: ImportCommandOptions): Promise<ImportSummary> {
  const urls = new Map(databaseUrls(options.env).map((d) => [d.service, d.url]));
  const outgoing = parseEnv(z.object({ CONFAB_OUTGOING_ALLOWED_CIDRS: cidrList() }), options.env);
  const dataDir = options.env.CONFAB_DATA_DIR;
  if (!dataDir) throw new Error('CONFAB_DATA_DIR is required: the import writes uploads, avatars and emoji there');
  const externalUrl = (options.env.CONFAB_EXTERNAL_URL ?? 'http://127.0.0.1:9991').replace(/\/+$/, '');
  const workDir = options.workDir ?? (await mkdtemp(join(tmpdir(), 'confab-import-')));
  const lock = await oneImportAtATime(urls.get('settings')!, options.log);
  const prisma = createPrisma(urls.get('settings')!, 2);
  const settings = new SettingsImportLoader({
    db: prisma,
    externalUrl,
    emojiDir: join(dataDir, 'emoji'),
    avatarDir: join(dataDir, 'avatars'),
  });
  const children = new Map<string, LoaderProcess>();
  try {
    for (const spec of IMPORT_LOADERS)
      children.set(
        spec.service,
        new LoaderProcess(
          spec.service,
          join(ROOT, spec.entry),
          loaderEnv(options.env, spec.env, urls),
          // Node flags NODE_OPTIONS refuses (a CPU profile), as for every Confab process.
          (options.env.CONFAB_NODE_ARGS ?? '').split(' ').filter(Boolean),
        ),
      );
    const loader = (name: string): ServiceLoader => children.get(name)!;
    return await runImport({
      source: options.source,
      from: options.from,
      subdomain: options.subdomain,
      workDir,
      domain: new URL(externalUrl).hostname,
      slackUsers: options.slackUsers,
      slackEmoji: options.slackEmoji,
      team: options.team,
      // The images an export names by URL are fetched as every other URL from users' data: through the guarded
      // client, with the operator's allow-list (CONFAB_OUTGOING_ALLOWED_CIDRS) and nothing else that is not public.
      http: new GuardedHttpClient({ allowedCidrs: outgoing.CONFAB_OUTGOING_ALLOWED_CIDRS }),
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      loaders: {
        settings,
        groups: loader('groups'),
        messaging: loader('messaging'),
        push: loader('push'),
        events: loader('events'),
      },
      preflight: () => settings.checkSubdomain(options.subdomain),
      progress: new Progress({ isTTY: options.out.isTTY === true, write: (text) => void options.out.write(text) }),
      log: options.log,
    });
  } finally {
    for (const child of children.values()) await child.close().catch(() => undefined);
    await settings.close().catch(() => undefined);
    await prisma.$disconnect();
    await lock.release();
    if (!options.workDir) await rm(workDir, { recursive: true, force: true });
  }
}

/** The summary the command prints at the end. */
export function summaryLines(summary: ImportSummary, externalUrl: string): string[] {
  const url = new URL(externalUrl);
  url.hostname = `${summary.subdomain}.${url.hostname}`;
  const lines = [
    `Imported organization '${summary.subdomain}' (id ${summary.realmId}) in ${summary.seconds.toFixed(1)} s: ${url
      .toString()
      .replace(/\/$/, '')}`,
    ...Object.entries(summary.counts).map(([what, n]) => `  ${what.padEnd(22)} ${n.toLocaleString('en-US')}`),
  ];
  if (summary.linkedFiles.length > 0) {
    lines.push(`Files the export only links to (hosted by the source, not imported): ${summary.linkedFiles.length}`);
    for (const f of summary.linkedFiles.slice(0, 50)) lines.push(`  ${f.ref}: ${f.name} <${f.url}>`);
    if (summary.linkedFiles.length > 50) lines.push(`  … and ${summary.linkedFiles.length - 50} more`);
  }
  if (summary.failedFetches.length > 0) {
    lines.push(`Images the export names by URL that could not be fetched (left out): ${summary.failedFetches.length}`);
    for (const f of summary.failedFetches.slice(0, 50)) lines.push(`  ${f.what}: ${f.reason} <${f.url}>`);
    if (summary.failedFetches.length > 50) lines.push(`  … and ${summary.failedFetches.length - 50} more`);
  }
  for (const note of summary.notes) lines.push(`Note: ${note}`);
  lines.push(
    'Imported accounts have no password (as after Zulip\'s import): they sign in through the organization\'s other ' +
      'methods, or an administrator gives one an API key with `api-key --realm <subdomain> --email <address>`.',
  );
  return lines;
}

/** Zulip's export types by the names `export --type` takes. */
export const EXPORT_TYPES: Record<string, number> = { public: 1, consent: 2, full: 3 };

/**
 * `npm run admin -- export`: the organization in Zulip's export format, written by messaging's export code (the
 * same as POST /export/realm's job) run with messaging's environment; it asks the running settings and groups
 * services for their parts, so the deployment must be up.
 */
export async function exportCommand(options: {
  realmId: number;
  type: number;
  out: string;
  env: Env;
  migrationStatus?: string;
}): Promise<string> {
  const { execFile } = await import('node:child_process');
  const args = [join(ROOT, 'services/messaging/dist/operations/export-cli.js'), String(options.realmId), String(options.type), resolve(options.out)];
  if (options.migrationStatus) args.push(resolve(options.migrationStatus));
  return new Promise((ok, fail) =>
    execFile(process.execPath, args, { env: options.env, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? fail(new Error(stderr.trim() || err.message)) : ok(stdout.trim()),
    ),
  );
}
