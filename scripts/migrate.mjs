#!/usr/bin/env node
// Database migrations of a deployment (docker compose, the Kubernetes Job and init containers), with the same
// `prisma migrate deploy` the development start uses. Each service's database URL comes from its own variable;
// `<SERVICE>_DIRECT_DATABASE_URL`, when set, takes its place here: migrations need a session of their own, so where
// the services' URLs go through PgBouncer in transaction mode the direct one reaches PostgreSQL itself.
//   node scripts/migrate.mjs deploy [service...]   apply pending migrations (default: every service with a schema)
//   node scripts/migrate.mjs wait <service...>     block until every migration shipped in this image is applied
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (line) => console.log(`[migrate] ${line}`);

/** Services with a Prisma schema, and the variable their schema reads the database URL from. */
function schemaServices(root = ROOT) {
  const dir = join(root, 'services');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'prisma', 'schema.prisma')))
    .map((name) => {
      const schema = readFileSync(join(dir, name, 'prisma', 'schema.prisma'), 'utf8');
      const urlEnv = /url\s*=\s*env\("([A-Z0-9_]+)"\)/.exec(schema)?.[1];
      if (!urlEnv) throw new Error(`services/${name}/prisma/schema.prisma reads its URL from no env("...")`);
      return { name, dir: join(dir, name), urlEnv, directEnv: directUrlEnv(urlEnv) };
    });
}

/** `SETTINGS_DATABASE_URL` → `SETTINGS_DIRECT_DATABASE_URL`. */
export function directUrlEnv(urlEnv) {
  return urlEnv.replace(/_DATABASE_URL$/, '_DIRECT_DATABASE_URL');
}

/** The URL migrations of a service use: the direct one when the deployment sets it. */
export function migrationUrl(service, env = process.env) {
  return env[service.directEnv] || env[service.urlEnv];
}

/** The prisma CLI as the service's prisma.config.ts resolves it (its devDependency, or the image's copy). */
function prismaCli(serviceDir) {
  const require = createRequire(join(serviceDir, 'package.json'));
  return join(dirname(require.resolve('prisma/package.json')), 'build', 'index.js');
}

function prisma(service, args) {
  const result = spawnSync(process.execPath, [prismaCli(service.dir), ...args], {
    cwd: service.dir,
    encoding: 'utf8',
    env: {
      ...process.env,
      [service.urlEnv]: migrationUrl(service),
      CHECKPOINT_DISABLE: '1',
      PRISMA_HIDE_UPDATE_MESSAGE: '1',
    },
  });
  return { status: result.status ?? 1, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

function pick(names) {
  const all = schemaServices();
  if (names.length === 0) return all;
  return names.map((name) => {
    const found = all.find((s) => s.name === name);
    if (!found)
      throw new Error(`no service '${name}' with a Prisma schema (have: ${all.map((s) => s.name).join(', ')})`);
    return found;
  });
}

function requireUrl(service) {
  if (!migrationUrl(service)) throw new Error(`${service.urlEnv} is not set (database of ${service.name})`);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  const [command, ...names] = process.argv.slice(2);
  if (command === 'deploy') {
    const services = pick(names);
    services.forEach(requireUrl);
    for (const service of services) {
      log(`${service.name}: prisma migrate deploy`);
      const result = prisma(service, ['migrate', 'deploy']);
      process.stdout.write(result.output);
      if (result.status !== 0) throw new Error(`migrating ${service.name} failed (exit ${result.status})`);
    }
    log(`done: ${services.map((s) => s.name).join(', ') || 'no service has a schema'}`);
  } else if (command === 'wait' && names.length > 0) {
    const services = pick(names);
    services.forEach(requireUrl);
    // Seconds to wait for the migration Job before giving up (the pod then restarts and waits again). Default 600.
    const deadline = Date.now() + Number(process.env.CONFAB_MIGRATION_WAIT_SECONDS ?? 600) * 1000;
    for (const service of services) {
      for (let attempt = 1; ; attempt++) {
        // Exit 0 also when the database is ahead (a newer release migrated it): migrations only add.
        const result = prisma(service, ['migrate', 'status']);
        if (result.status === 0) {
          log(`${service.name}: schema up to date`);
          break;
        }
        if (Date.now() > deadline) {
          process.stdout.write(result.output);
          throw new Error(`${service.name}: migrations still pending; is the migration Job running?`);
        }
        if (attempt === 1) log(`${service.name}: waiting for the migration Job`);
        await sleep(3000);
      }
    }
  } else {
    console.error('usage: node scripts/migrate.mjs deploy [service...] | wait <service...>');
    process.exit(2);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err) => {
    console.error(`[migrate] ${err.message}`);
    process.exit(1);
  });
}
