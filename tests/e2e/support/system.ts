import { readFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  ApiClient,
  claimFile,
  createWorld,
  freePort,
  ManagedProcess,
  processes,
  waitReady,
  type CreateWorldOptions,
  type ProcessDescription,
  type StackInfo,
  type World,
} from '@confab/devkit';

export type E2EState = StackInfo & { processes: Record<string, ProcessDescription> };

let cached: E2EState | undefined;

/** The deployment started by global-setup.ts. */
export function system(): E2EState {
  if (!cached) {
    const file = process.env.CONFAB_E2E_STATE;
    if (!file) throw new Error('CONFAB_E2E_STATE is not set: run the e2e suite through jest (npm test)');
    cached = JSON.parse(readFileSync(file, 'utf8')) as E2EState;
  }
  return cached;
}

/** A fresh organization with the development accounts (and channels, once messaging exists). */
export function newWorld(options: CreateWorldOptions = {}): Promise<World> {
  return createWorld(system(), options);
}

/** A client with no credentials for the default organization. */
export function anonymousClient(): ApiClient {
  return new ApiClient(system().gatewayUrl);
}

/**
 * Starts another copy of one of the system's processes with some settings changed (a second gateway with a low
 * rate limit, a second replica), with an internal metrics listener of its own; the caller stops it.
 */
export async function startExtraProcess(
  name: string,
  overrides: Record<string, string>,
): Promise<{ process: ManagedProcess; url: string; metricsUrl: string; channelUrl: string }> {
  const spec = processes().find((p) => p.name === name);
  const base = system().processes[name];
  if (!spec || !base) throw new Error(`no process ${name}`);
  // A second copy must not compete for the first one's metrics port.
  const metricsPort = String(await freePort());
  const env: Record<string, string> = { ...base.env, CONFAB_METRICS_PORT: metricsPort, ...overrides };
  if (spec.portEnv && overrides[spec.portEnv] === undefined) env[spec.portEnv] = String(await freePort());
  // Its channel listener too (the events service's), unless the caller chose one.
  if (spec.channel && overrides[spec.channel.portEnv] === undefined)
    env[spec.channel.portEnv] = String(await freePort());
  const logFile = join(system().logDir, `${name}-extra-${Date.now()}.log`);
  const proc = new ManagedProcess(spec, env, logFile, false);
  proc.start();
  const url = spec.portEnv ? `http://127.0.0.1:${env[spec.portEnv]}` : '';
  // As long as the stack gives a process (libs/devkit/src/stack.ts): loading modules alone can take a minute here.
  if (spec.portEnv) await waitReady(`${url}/readyz`, 180_000, name, proc, logFile);
  const channelUrl = spec.channel ? `tcp://127.0.0.1:${env[spec.channel.portEnv]}` : '';
  return { process: proc, url, metricsUrl: `http://127.0.0.1:${env.CONFAB_METRICS_PORT}`, channelUrl };
}

/** A file's extra processes (`startExtraProcess`), stopped after its tests, the last started first. */
export function useExtraProcesses(): (
  name: string,
  overrides?: Record<string, string>,
) => ReturnType<typeof startExtraProcess> {
  const started: ManagedProcess[] = [];
  afterAll(async () => {
    for (const proc of started.reverse()) await proc.stop();
  });
  return async (name, overrides = {}) => {
    const extra = await startExtraProcess(name, overrides);
    started.push(extra.process);
    return extra;
  };
}

/** A client of `world`'s user `name` through a gateway of the test's own. */
export function clientThrough(world: World, gatewayUrl: string, name: Parameters<World['as']>[0]): ApiClient {
  return new ApiClient(gatewayUrl, {
    host: world.host,
    forwardedFor: world.anonymous().options.forwardedFor,
  }).withCredentials(world.user(name).email, world.user(name).apiKey);
}

/**
 * Holds a lock named `name` across the e2e workers until the returned function is called (devkit's `claimFile`). The
 * e2e files run in parallel against one system; the few that start a process taking work from a queue of that system
 * (a push service configured with a relay consumes every message event) hold the same lock, so they run one after
 * another while the rest of the suite goes on beside them.
 */
export async function exclusively(name: string, timeoutMs = 600_000): Promise<() => void> {
  const file = join(tmpdir(), `${basename(process.env.CONFAB_E2E_STATE ?? 'confab-e2e', '.json')}.${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  while (!claimFile(file)) {
    if (Date.now() > deadline) throw new Error(`the e2e lock ${name} is still held by another test file`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return () => unlinkSync(file);
}

/**
 * The metrics listeners of every replica of a process (`messaging-worker`, `messaging-worker-2`, … when the suite
 * runs with CONFAB_REPLICAS): what one replica did shows on its own listener only.
 */
export function metricsUrlsOf(name: string): string[] {
  const replica = new RegExp(`^${name}(-\\d+)?$`);
  return Object.entries(system().metricsUrls)
    .filter(([process]) => replica.test(process))
    .map(([, url]) => url);
}
