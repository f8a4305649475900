import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_DEFAULTS, localPostgresUrl, Stack, type Infrastructure } from '@confab/devkit';

/** A run id of its own for a fault test's system (its databases, Redis prefix and exchange are named by it). */
export function faultRunId(): string {
  return `fault${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
}

/** A whole system of the fault test's own, over the infrastructure it chooses (some of it private). */
export async function startFaultStack(
  infra: Partial<Pick<Infrastructure, 'postgresUrl' | 'redisUrl' | 'amqpUrl'>>,
  env: Record<string, string> = {},
  options: { runId?: string; reuseDatabases?: boolean } = {},
) {
  const runId = options.runId ?? faultRunId();
  const stack = new Stack({
    infra: {
      kind: 'local',
      postgresUrl: infra.postgresUrl ?? process.env.DATABASE_URL ?? localPostgresUrl(),
      redisUrl: infra.redisUrl ?? process.env.REDIS_URL ?? LOCAL_DEFAULTS.redisUrl,
      amqpUrl: infra.amqpUrl ?? process.env.AMQP_URL ?? LOCAL_DEFAULTS.amqpUrl,
      stop: async () => undefined,
    },
    runId,
    reuseDatabases: options.reuseDatabases,
    ports: 'random',
    logDir: join(tmpdir(), 'confab-faults', runId),
    env: {
      CONFAB_DEV_ENDPOINTS: '1',
      CONFAB_PASSWORD_HASH_COST: '10',
      CONFAB_TRUST_PROXY: '1',
      CONFAB_OUTBOX_POLL_MS: '100',
      CONFAB_RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
  });
  const info = await stack.start();
  return { stack, info };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function eventually<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await probe();
  while (!accept(last)) {
    if (Date.now() > deadline)
      throw new Error(`condition not reached within ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    await sleep(100);
    last = await probe();
  }
  return last;
}

export async function readiness(url: string): Promise<{ status: number; checks: Record<string, boolean> }> {
  try {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) });
    const body = (await response.json()) as { checks?: Record<string, boolean> };
    return { status: response.status, checks: body.checks ?? {} };
  } catch {
    return { status: 0, checks: {} };
  }
}
