import { z } from 'zod';

/**
 * Validates a process environment against a schema once, at start-up, and reports every problem at once.
 * Libraries never read process.env: each process builds a typed config object here and passes it down.
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

export function parseEnv<S extends z.ZodObject>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.infer<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  return result.data;
}

/** An integer read from the environment, with a default and bounds. */
export function int(defaultValue: number, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  return z.coerce.number().int().min(min).max(max).default(defaultValue);
}

export function port(defaultValue: number) {
  return int(defaultValue, 0, 65535);
}

/** "1", "true", "yes" and "on" are true; "0", "false", "no", "off" and "" are false. */
export function bool(defaultValue: boolean) {
  return z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
    .default(defaultValue ? 'true' : 'false')
    .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));
}

export function url(defaultValue?: string) {
  const base = z.string().url();
  return defaultValue === undefined ? base : base.default(defaultValue);
}

/** A shared secret; at least 16 characters so a placeholder typo cannot slip into production. */
export function secret(defaultValue?: string) {
  const base = z.string().min(16, 'must be at least 16 characters');
  return defaultValue === undefined ? base : base.default(defaultValue);
}

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/**
 * Settings every Confab process shares: infrastructure addresses, the internal identity secret,
 * and the names that keep parallel test runs apart.
 */
export const commonEnv = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: logLevel,
  /** HS256 secret for X-Confab-Identity tokens between the gateway and the services. */
  CONFAB_INTERNAL_SECRET: secret('confab-dev-internal-secret-change-me'),
  REDIS_URL: url('redis://127.0.0.1:6379'),
  /** Prefix of every Redis key and BullMQ queue, so several deployments or test runs can share a Redis. */
  CONFAB_REDIS_PREFIX: z.string().default('confab'),
  AMQP_URL: url('amqp://guest:guest@127.0.0.1:5672'),
  /** Topic exchange every service publishes its events to. */
  CONFAB_EVENTS_EXCHANGE: z.string().min(1).default('confab.events'),
  /** Port a worker process (no HTTP API) serves Prometheus /metrics on; 0 serves none. */
  CONFAB_WORKER_METRICS_PORT: int(0, 0, 65_535),
  /**
   * How long a request waits for this service to apply its user's own recent changes made in another service
   * before answering 503 (read-your-writes), in ms. Default 5000.
   */
  CONFAB_CAUSAL_WAIT_MS: int(5000, 0),
  /** Delete durable test queues after this many ms without consumers (tests only). Default 0: never. */
  CONFAB_EVENTS_QUEUE_EXPIRES_MS: int(0, 0),
  /** How often a service's outbox relay looks for unpublished events, in ms. Default 250. */
  CONFAB_OUTBOX_POLL_MS: int(250, 10),
};

export interface CommonConfig {
  env: 'development' | 'production' | 'test';
  logLevel: z.infer<typeof logLevel>;
  internalSecret: string;
  redis: { url: string; prefix: string };
  amqp: { url: string; exchange: string };
  /** 0 when the process serves no separate metrics port. */
  workerMetricsPort: number;
  /** Longest wait for a user's own changes from other services to arrive (ms). */
  causalWaitMs: number;
  /** How long an idle durable queue of this process outlives it (tests only); undefined: forever. */
  queueExpiresMs: number | undefined;
  /** How often the outbox relay of a service that writes events polls for unpublished ones (ms). */
  outboxPollMs: number;
}

export function commonConfig(e: {
  NODE_ENV: 'development' | 'production' | 'test';
  LOG_LEVEL: z.infer<typeof logLevel>;
  CONFAB_INTERNAL_SECRET: string;
  REDIS_URL: string;
  CONFAB_REDIS_PREFIX: string;
  AMQP_URL: string;
  CONFAB_EVENTS_EXCHANGE: string;
  CONFAB_WORKER_METRICS_PORT: number;
  CONFAB_CAUSAL_WAIT_MS: number;
  CONFAB_EVENTS_QUEUE_EXPIRES_MS: number;
  CONFAB_OUTBOX_POLL_MS: number;
}): CommonConfig {
  return {
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    internalSecret: e.CONFAB_INTERNAL_SECRET,
    redis: { url: e.REDIS_URL, prefix: e.CONFAB_REDIS_PREFIX },
    amqp: { url: e.AMQP_URL, exchange: e.CONFAB_EVENTS_EXCHANGE },
    workerMetricsPort: e.CONFAB_WORKER_METRICS_PORT,
    causalWaitMs: e.CONFAB_CAUSAL_WAIT_MS,
    queueExpiresMs: e.CONFAB_EVENTS_QUEUE_EXPIRES_MS || undefined,
    outboxPollMs: e.CONFAB_OUTBOX_POLL_MS,
  };
}

/** ioredis connection options from a redis:// or rediss:// URL. */
export interface RedisConnectionOptions {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: Record<string, never>;
  /** null: BullMQ's blocking commands wait through reconnections instead of failing. */
  maxRetriesPerRequest: null;
}

/** Options for BullMQ's own connections (it opens and closes them itself), read from the Redis URL. */
export function redisConnectionOptions(url: string): RedisConnectionOptions {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    db: Number(u.pathname.replace(/^\//, '') || 0),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
    maxRetriesPerRequest: null,
  };
}

export { z };
