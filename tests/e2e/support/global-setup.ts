import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replicasFromEnv, resolveInfrastructure, Stack, withLocalRedisCluster } from '@confab/devkit';

/**
 * The address the tests' own servers that the server reaches through the guarded client listen on (bot services,
 * pages to preview, images to proxy): the only one the e2e deployment's allow-list names. Not 127.0.0.1, so tests can
 * show that the commonest private address, and names resolving to it (`localhost`), are refused. Against a deployment
 * started elsewhere, the address of this machine its processes reach (the state file's `testHost`, CONFAB_TEST_HOST).
 */
export const ALLOWED_TEST_HOST = process.env.CONFAB_TEST_HOST || '127.88.0.1';

/** Environment of the e2e deployment: fast password hashing, dev endpoints, client addresses from X-Forwarded-For. */
export const E2E_ENV = {
  CONFAB_DEV_ENDPOINTS: '1',
  CONFAB_PASSWORD_HASH_COST: '10',
  CONFAB_TRUST_PROXY: '1',
  CONFAB_OUTBOX_POLL_MS: '100',
  // The unclaimed-upload cleanup runs every 2 s, so a test can watch the periodic job work.
  MESSAGING_UPLOAD_CLEANUP_INTERVAL_SECONDS: '2',
  // The tests' own servers (bot services, pages to preview, images to proxy) listen on ALLOWED_TEST_HOST, which the
  // guarded client refuses unless the operator's allow-list names it (docs/security.md); nothing else on loopback is
  // allowed.
  CONFAB_OUTGOING_ALLOWED_CIDRS: `${ALLOWED_TEST_HOST}/32`,
  LOG_LEVEL: 'info',
};

/**
 * Starts one whole Confab deployment for the e2e run (its own databases, Redis prefix and exchange) and leaves
 * its address in a file the test workers read. Each test file then creates its own organization.
 */
export default async function globalSetup(): Promise<void> {
  const log = (line: string) => process.stdout.write(`[e2e] ${line}\n`);
  // Against a deployment started elsewhere (the three hosts of `npm run ha`, README): CONFAB_TEST_STATE names a file
  // with its addresses (gatewayUrl, serviceUrls, internalSecret, …: `npm run ha -- e2e-state` writes one), and
  // CONFAB_TEST_URL, when set, the gateway to use instead of the file's. Nothing is started or stopped; a test's extra
  // copy of a process (startExtraProcess) runs here with the settings the file gives (`processes`), joining it.
  if (process.env.CONFAB_TEST_STATE || process.env.CONFAB_TEST_URL) {
    if (!process.env.CONFAB_TEST_STATE)
      throw new Error('CONFAB_TEST_URL needs CONFAB_TEST_STATE (the services and the secret)');
    const external = JSON.parse(readFileSync(process.env.CONFAB_TEST_STATE, 'utf8')) as Record<string, unknown>;
    if (process.env.CONFAB_TEST_URL) external.gatewayUrl = process.env.CONFAB_TEST_URL.replace(/\/+$/, '');
    // The workers (started after this) read it as ALLOWED_TEST_HOST; the deployment's allow-list names it.
    if (typeof external.testHost === 'string' && !process.env.CONFAB_TEST_HOST)
      process.env.CONFAB_TEST_HOST = external.testHost;
    const stateFile = join(tmpdir(), `confab-e2e-external-${Date.now().toString(36)}.json`);
    writeFileSync(stateFile, JSON.stringify({ processes: {}, ...external }));
    process.env.CONFAB_E2E_STATE = stateFile;
    log(`against the deployment at ${String(external.gatewayUrl)}`);
    return;
  }
  // CONFAB_LOCAL_REDIS_CLUSTER=1: a three-master Redis Cluster of the run's own instead of the machine's Redis.
  const infra = await withLocalRedisCluster(await resolveInfrastructure(log), log);
  const runId = `e2e${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const logDir = join(tmpdir(), 'confab-e2e', runId);
  // `npm run test:replicas`: CONFAB_REPLICAS=2 runs two of every process behind local balancers (README, "Replicas").
  const replicas = replicasFromEnv();
  const stack = new Stack({ infra, runId, ports: 'random', logDir, env: E2E_ENV, replicas });
  (globalThis as Record<string, unknown>).__confabStack = stack;
  (globalThis as Record<string, unknown>).__confabInfra = infra;
  log(`starting the system (${infra.kind} infrastructure, ${replicas} of each process); process logs in ${logDir}`);
  const started = Date.now();
  let info: Awaited<ReturnType<Stack['start']>>;
  try {
    info = await stack.start();
  } catch (err) {
    // Jest runs no global teardown after a failed setup; the stack stopped its own processes, the infrastructure
    // (containers) is this setup's to stop.
    await infra.stop().catch(() => undefined);
    throw err;
  }
  log(`system ready in ${((Date.now() - started) / 1000).toFixed(1)} s at ${info.gatewayUrl}`);
  const stateFile = join(tmpdir(), `confab-e2e-${runId}.json`);
  writeFileSync(stateFile, JSON.stringify({ ...info, processes: stack.describeProcesses() }));
  process.env.CONFAB_E2E_STATE = stateFile;
}
