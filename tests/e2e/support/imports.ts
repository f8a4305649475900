import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { finished } from 'node:stream/promises';
import { promisify } from 'node:util';
import { crc32, createGzip } from 'node:zlib';
import { ApiClient, REPO_ROOT } from '@confab/devkit';
import pg from 'pg';
import tarStream from 'tar-stream';
import yazl from 'yazl';
import { system } from './system';

const run = promisify(execFile);

/**
 * The deployment's environment as the admin CLI reads it (every database, the data volume as the services find it
 * — their per-run temporary directories in the suite's own deployment —, Redis and the external URL).
 */
export function adminEnv(): Record<string, string> {
  const processes = system().processes;
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' };
  for (const name of ['settings', 'messaging', 'groups', 'invitations', 'push', 'events'])
    Object.assign(env, processes[name]?.env ?? {});
  // A deployment that names its data volume (the three hosts of `npm run ha`) keeps it: the services find uploads
  // under it; the suite's own deployment names none, and its services use per-run temporary directories.
  if (env.CONFAB_DATA_DIR) return env;
  const prefix = env.CONFAB_REDIS_PREFIX!;
  env.CONFAB_DATA_DIR = join(tmpdir(), 'confab-data', prefix);
  env.MESSAGING_UPLOADS_DIR = join(tmpdir(), 'confab-uploads', prefix);
  return env;
}

export interface AdminResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run admin -- <args>` against the e2e deployment. */
export async function admin(args: string[]): Promise<AdminResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(REPO_ROOT, 'services/settings/dist/cli.js'), ...args], {
      env: adminEnv(),
      timeout: 180_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** A client acting as an imported user, with an API key the CLI issues (imported accounts have no password). */
export async function importedClient(subdomain: string, email: string): Promise<ApiClient> {
  const result = await admin(['api-key', '--realm', subdomain, '--email', email]);
  if (result.code !== 0) throw new Error(`api-key for ${email} failed: ${result.stderr}`);
  const { api_key } = JSON.parse(result.stdout.trim().split('\n').pop()!) as { api_key: string };
  // The organization's own host: a key works only there (Zulip's validate_account_and_subdomain).
  const external = new URL(system().processes.settings?.env.CONFAB_EXTERNAL_URL ?? system().gatewayUrl);
  return new ApiClient(system().gatewayUrl, { email, apiKey: api_key, host: `${subdomain}.${external.host}` });
}

/** Writes files (name → JSON value or bytes) below a directory. */
export async function writeTree(root: string, files: Record<string, unknown>): Promise<string> {
  for (const [name, value] of Object.entries(files)) {
    const path = join(root, name);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, Buffer.isBuffer(value) ? value : typeof value === 'string' ? value : JSON.stringify(value));
  }
  return root;
}

async function filesOf(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesOf(path)));
    else out.push(path);
  }
  return out;
}

/** A zip of a directory (yazl). */
export async function zipOf(target: string, dir: string, options: { compress?: boolean } = {}): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const file of await filesOf(dir)) zip.addBuffer(await readFile(file), relative(dir, file), { compress: options.compress ?? true });
  zip.end();
  await finished(zip.outputStream.pipe(createWriteStream(target)));
  return target;
}

/**
 * A zip of entries exactly as given, stored uncompressed: hostile names (`../`, absolute paths) and modes (a symbolic
 * link) that zip libraries refuse to write, as an attacker's tool would write them.
 */
export async function rawZipOf(target: string, entries: { name: string; data: Buffer; mode?: number }[]): Promise<string> {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(entry.data.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(entry.data.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, entry.data);
    centrals.push(central, name);
    offset += local.length + name.length + entry.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  await writeFile(target, Buffer.concat([...locals, directory, end]));
  return target;
}

/** A .tar.gz of a directory. */
export async function tarGzOf(target: string, dir: string, top: string): Promise<string> {
  const pack = tarStream.pack();
  const out = pack.pipe(createGzip()).pipe(createWriteStream(target));
  for (const file of await filesOf(dir)) {
    const data = await readFile(file);
    pack.entry({ name: `${top}/${relative(dir, file)}`, size: (await stat(file)).size }, data);
  }
  pack.finalize();
  await finished(out);
  return target;
}

/**
 * What a failed import into `subdomain` left behind in each service database: in settings, an organization with that
 * subdomain; elsewhere, rows of an organization id above `afterRealmId` that settings does not know. Other test files
 * create organizations meanwhile (e2e files run side by side), so rows above the id alone prove nothing; theirs are
 * in settings before any other service hears of them (by events), and settings is read last, so none of theirs counts.
 */
export async function leftoversOf(subdomain: string, afterRealmId: number): Promise<Record<string, number>> {
  const env = adminEnv();
  const rowsOf: [string, string][] = [
    ['MESSAGING_DATABASE_URL', 'SELECT id AS realm_id FROM realms WHERE id > $1 UNION ALL SELECT realm_id FROM messages WHERE realm_id > $1 UNION ALL SELECT realm_id FROM channels WHERE realm_id > $1'],
    ['GROUPS_DATABASE_URL', 'SELECT id AS realm_id FROM realms WHERE id > $1 UNION ALL SELECT realm_id FROM user_groups WHERE realm_id > $1'],
    ['PUSH_DATABASE_URL', 'SELECT realm_id FROM notification_settings WHERE realm_id > $1'],
  ];
  const query = async <T>(name: string, sql: string, values: unknown[]): Promise<T[]> => {
    const client = new pg.Client({ connectionString: env[name] });
    await client.connect();
    try {
      return (await client.query(sql, values)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const rows: Record<string, number[]> = {};
  for (const [name, sql] of rowsOf)
    rows[name] = (await query<{ realm_id: number }>(name, sql, [afterRealmId])).map((r) => Number(r.realm_id));
  const known = new Set(
    (await query<{ id: number }>('SETTINGS_DATABASE_URL', 'SELECT id FROM realms WHERE id > $1', [afterRealmId])).map((r) =>
      Number(r.id),
    ),
  );
  const named = await query<{ n: number }>('SETTINGS_DATABASE_URL', 'SELECT count(*)::int AS n FROM realms WHERE string_id = $1', [
    subdomain,
  ]);
  const out: Record<string, number> = { settings: Number(named[0]!.n) };
  for (const [name] of rowsOf)
    out[name.replace('_DATABASE_URL', '').toLowerCase()] = rows[name]!.filter((id) => !known.has(id)).length;
  return out;
}

/** The highest organization id settings has given so far (leftover checks count what comes after it). */
export async function lastRealmId(): Promise<number> {
  const client = new pg.Client({ connectionString: adminEnv().SETTINGS_DATABASE_URL });
  await client.connect();
  try {
    return Number((await client.query("SELECT last_value AS n FROM realms_id_seq")).rows[0].n);
  } finally {
    await client.end();
  }
}
