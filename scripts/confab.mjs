#!/usr/bin/env node
// The two commands a newcomer needs (README): `npm start` brings everything up with the development organization,
// `npm test` runs every test. Both install what is missing first; a fresh machine needs only Node and npm.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const log = (line) => console.log(`\x1b[36m[confab]\x1b[0m ${line}`);

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`\n${command} ${args.join(' ')} failed (exit ${result.status})`);
    process.exit(result.status ?? 1);
  }
}

function has(command, args = ['--version']) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** pnpm 10, installed with npm when missing (corepack's signature check fails on some machines). */
function ensurePnpm() {
  if (has('pnpm')) return 'pnpm';
  log('installing pnpm 10 with npm');
  const global = spawnSync('npm', ['install', '--global', 'pnpm@10'], { stdio: 'inherit' });
  if (global.status === 0 && has('pnpm')) return 'pnpm';
  // No permission for a global install: keep a private copy inside the repository.
  run('npm', ['install', '--no-save', '--prefix', join(ROOT, '.confab', 'pnpm'), 'pnpm@10']);
  return join(ROOT, '.confab', 'pnpm', 'node_modules', '.bin', 'pnpm');
}

/** Services with a Prisma schema. */
function prismaServices() {
  const dir = join(ROOT, 'services');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => existsSync(join(dir, name, 'prisma', 'schema.prisma')));
}

function build() {
  const pnpm = ensurePnpm();
  log('installing dependencies');
  run(pnpm, ['install', '--frozen-lockfile', '--reporter=append-only'], { env: { ...process.env, CI: '1' } });
  for (const name of prismaServices()) {
    const schema = readFileSync(join(ROOT, 'services', name, 'prisma', 'schema.prisma'), 'utf8');
    const envVar = /url\s*=\s*env\("([A-Z_]+)"\)/.exec(schema)?.[1];
    // prisma generate only needs a well-formed URL (without one it would try to download an engine).
    run(join(ROOT, 'services', name, 'node_modules', '.bin', 'prisma'), ['generate'], {
      cwd: join(ROOT, 'services', name),
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CHECKPOINT_DISABLE: '1', [envVar]: 'postgresql://localhost:5432/generate' },
    });
  }
  log('compiling TypeScript');
  run(join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b', 'tsconfig.json']);
  log('building the web client (web/dist)');
  run(join(ROOT, 'web', 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], { cwd: join(ROOT, 'web') });
  return pnpm;
}

async function up() {
  build();
  const devkit = require(join(ROOT, 'libs', 'devkit', 'dist', 'index.js'));
  const infra = await devkit
    .resolveInfrastructure(log)
    // CONFAB_LOCAL_REDIS_CLUSTER=1: a three-master Redis Cluster on this machine, stopped with the rest (README).
    .then((found) => devkit.withLocalRedisCluster(found, log))
    .catch(async (err) => {
      console.error(err.message);
      process.exit(1);
    });
  log(`infrastructure: ${infra.kind} (PostgreSQL ${infra.postgresUrl}, Redis ${infra.redisUrl})`);
  const logDir = join(ROOT, '.confab', 'logs');
  // A development push relay (devkit's DevRelay) unless the operator points at a relay of their own (README).
  let devRelay = null;
  const relayEnv = {};
  if (!process.env.CONFAB_PUSH_RELAY_URL) {
    devRelay = new devkit.DevRelay('confab-dev', 'confab-dev-relay-key', (line) => log(line));
    await devRelay.start(Number(process.env.CONFAB_DEV_RELAY_PORT ?? 9107));
    Object.assign(relayEnv, {
      CONFAB_PUSH_RELAY_URL: devRelay.url,
      CONFAB_PUSH_RELAY_SERVER_ID: devRelay.serverId,
      CONFAB_PUSH_RELAY_SERVER_KEY: devRelay.serverKey,
    });
    log(`development push relay at ${devRelay.url} (what it received: ${devRelay.url}/notifications)`);
  }
  const stack = new devkit.Stack({
    infra,
    runId: '',
    ports: 'dev',
    logDir,
    echo: process.env.CONFAB_ECHO_LOGS !== '0',
    // Only the gateway is published (CONFAB_BIND_HOST, else every interface, as before); the services listen on
    // 127.0.0.1, with a secret generated for this run (docs/security.md).
    gatewayHost: process.env.CONFAB_BIND_HOST || '0.0.0.0',
    // CONFAB_REPLICAS=2: two of every service, worker and the gateway, behind local balancers (README, "Replicas").
    replicas: devkit.replicasFromEnv(),
    env: {
      CONFAB_DEV_ENDPOINTS: '1',
      ...relayEnv,
    },
  });
  const stopAll = async () => {
    log('stopping');
    await stack.stop({ cleanUp: false });
    await devRelay?.stop();
    await infra.redisCluster?.stop();
    process.exit(0);
  };
  process.on('SIGINT', stopAll);
  process.on('SIGTERM', stopAll);
  try {
    log('applying migrations and starting every process');
    const info = await stack.start();
    const password = process.env.CONFAB_DEV_PASSWORD ?? devkit.DEV_PASSWORD;
    const jwtKey = process.env.CONFAB_JWT_KEY ?? devkit.DEV_JWT_KEY;
    const exists = await new devkit.ApiClient(info.gatewayUrl).get('/server_settings');
    if (exists.body.realm_name === undefined) {
      log('creating the development organization');
      await devkit.createWorld(info, { subdomain: '', password, jwtKey, name: 'Zulip Dev' });
    }
    const url = info.gatewayUrl;
    console.log(`
\x1b[32mConfab is running at ${url}\x1b[0m  (logs: ${logDir}; Ctrl-C stops everything)
\x1b[32mWeb client: ${url}/\x1b[0m

Log in as any development account with the password "${password}":
  owner desdemona@zulip.com, administrator iago@zulip.com, moderator shiva@zulip.com,
  members hamlet, othello, cordelia, prospero, aaron (@zulip.com), guest polonius@zulip.com

  curl -s -d username=iago@zulip.com -d password=${password} ${url}/api/v1/fetch_api_key
  curl -s -u iago@zulip.com:<api_key> ${url}/api/v1/users/me
${devRelay ? `\nPush notifications go to the development relay; what it received: ${devRelay.url}/notifications\n` : ''}`);
  } catch (err) {
    console.error(`\nstart-up failed: ${err.message}`);
    await stack.stop({ cleanUp: false });
    await devRelay?.stop();
    await infra.redisCluster?.stop();
    process.exit(1);
  }
}

/**
 * Debian packages the tests drive, installed with apt when missing: chromium for the browser tests
 * (tests/e2e/*.browser.e2e.spec.ts), pgbouncer for the pooled-PostgreSQL fault test, the PostgreSQL client tools
 * (pg_dump, pg_restore) for the backup-and-restore one, pgbackrest for the point-in-time recovery one, slapd for the
 * LDAP sign-in tests (apt starts no service: the tests start their own on a random port).
 */
const CHROMIUM = '/usr/bin/chromium';
const TEST_PACKAGES = [
  { name: 'chromium', present: () => existsSync(CHROMIUM) },
  { name: 'pgbouncer', present: () => has('pgbouncer', ['--version']) },
  { name: 'postgresql-client', present: () => has('pg_dump', ['--version']) },
  // The point-in-time recovery fault test (tests/e2e/faults/point-in-time.faults.spec.ts).
  { name: 'pgbackrest', present: () => has('pgbackrest', ['version']) },
  // OpenLDAP's server for the LDAP sign-in tests (libs/devkit/src/slapd.ts starts one per test file).
  { name: 'slapd', present: () => existsSync('/usr/sbin/slapd') },
];
function ensureTestPackages() {
  const missing = TEST_PACKAGES.filter((p) => !p.present()).map((p) => p.name);
  if (missing.length === 0 || !has('apt-get', ['--version'])) return;
  const root = process.getuid?.() === 0;
  if (!root && !has('sudo', ['-n', 'true'])) {
    log(`${missing.join(', ')} missing and apt-get needs root: install them for the tests that use them`);
    return;
  }
  const apt = (args) =>
    spawnSync(root ? 'apt-get' : 'sudo', root ? args : ['-n', 'apt-get', ...args], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status === 0;
  log(`installing ${missing.join(', ')} (apt-get) for the tests`);
  const install = ['install', '-y', '--no-install-recommends', ...missing];
  if (!apt(install)) {
    apt(['update']);
    if (!apt(install)) log(`installing ${missing.join(', ')} failed`);
  }
}

/**
 * Test files run three at a time (CONFAB_TEST_WORKERS): most of an end-to-end file's time is spent waiting on the
 * system it talks to (events, browsers, timers), so on two cores three workers finish in about half the serial time.
 * The e2e files share one started system, each with an organization of its own (tests/e2e/support/system.ts).
 */
const TEST_WORKERS = process.env.CONFAB_TEST_WORKERS ?? '3';

function test(extraArgs) {
  build();
  ensureTestPackages();
  rmSync(join(ROOT, '.jest-results.json'), { force: true });
  log(`running the test suite (unit, integration, e2e; ${TEST_WORKERS} files at a time)`);
  const result = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'jest'),
    ['--json', '--outputFile=.jest-results.json', `--maxWorkers=${TEST_WORKERS}`, ...extraArgs],
    { cwd: ROOT, stdio: 'inherit' },
  );
  let summary = 'no results';
  if (existsSync(join(ROOT, '.jest-results.json'))) {
    const r = JSON.parse(readFileSync(join(ROOT, '.jest-results.json'), 'utf8'));
    summary = `${r.numPassedTests} passed, ${r.numFailedTests + (r.numRuntimeErrorTestSuites ? r.numRuntimeErrorTestSuites : 0)} failed`;
  }
  console.log(summary);
  process.exit(result.status ?? 1);
}

const [command, ...rest] = process.argv.slice(2);
switch (command) {
  case 'up':
    await up();
    break;
  case 'test':
    test(rest);
    break;
  case 'build':
    build();
    break;
  default:
    console.error('usage: node scripts/confab.mjs up|test|build');
    process.exit(2);
}
