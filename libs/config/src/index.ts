import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
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

/**
 * A list of networks, CIDRs (`10.0.0.0/8`, `fd00::/8`) or single addresses, separated by commas or spaces; empty by
 * default. Each entry is checked with ipaddr.js, and a process with a malformed one refuses to start.
 */
export function cidrList() {
  return z
    .string()
    .default('')
    .transform((text, ctx) => {
      const entries = text.split(/[\s,]+/).filter((entry) => entry !== '');
      for (const entry of entries) {
        if (!ipaddr.isValidCIDR(entry) && !ipaddr.isValid(entry))
          ctx.addIssue({ code: 'custom', message: `${entry} is neither a CIDR (10.0.0.0/8) nor an IP address` });
      }
      return entries;
    });
}

/** A shared secret; at least 16 characters so a placeholder typo cannot slip into production. */
export function secret(defaultValue?: string) {
  const base = z.string().min(16, 'must be at least 16 characters');
  return defaultValue === undefined ? base : base.default(defaultValue);
}

export type RunEnvironment = 'development' | 'production' | 'test';

/**
 * The internal identity secret a development or test process falls back to when none is given. Never accepted
 * outside development: the development tools (libs/devkit) pass a random one per run anyway.
 */
export const DEVELOPMENT_INTERNAL_SECRET = 'confab-dev-internal-secret-change-me';

/** Shortest secret accepted outside development (32 characters: `openssl rand -hex 32` gives 64). */
export const MIN_SECRET_LENGTH = 32;

/** Values that are published (in this repository or its examples) and so are no secret. */
const PUBLISHED_SECRET = /change-?me|placeholder|replace-with|example|^(.)\1*$/i;

/** A secret given directly (`NAME`) or in a file (`NAME_FILE`: Docker and Kubernetes secret files); undefined when neither. */
export function readSecret(name: string, value: string | undefined, file: string | undefined): string | undefined {
  if (value !== undefined && value !== '') return value;
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new ConfigError([`${name}_FILE: cannot read ${file} (${(err as Error).message})`]);
  }
}

/**
 * A secret checked for the environment the process runs in (docs/security.md). Outside development (NODE_ENV other
 * than `development` or `test`) it must be set, at least MIN_SECRET_LENGTH characters long and not a published
 * default or placeholder, or the process refuses to start, saying how to set one. In development and tests a missing
 * one falls back to `developmentDefault` (when the caller has one).
 */
export function checkedSecret(
  name: string,
  value: string | undefined,
  env: RunEnvironment,
  developmentDefault?: string,
): string {
  const development = env === 'development' || env === 'test';
  const howTo =
    `Generate one with \`openssl rand -hex 32\` and set ${name} (or ${name}_FILE, the path of a file holding it) ` +
    `to the same value in every Confab process; see docs/security.md. ` +
    `On a development machine set NODE_ENV=development (npm start does).`;
  if (value === undefined || value === '') {
    if (development && developmentDefault !== undefined) return developmentDefault;
    throw new ConfigError([`${name} is not set, and NODE_ENV=${env} requires a real secret. ${howTo}`]);
  }
  if (development) {
    if (value.length < 16) throw new ConfigError([`${name}: must be at least 16 characters`]);
    return value;
  }
  if (value.length < MIN_SECRET_LENGTH) {
    throw new ConfigError([
      `${name} is too short (${value.length} characters; NODE_ENV=${env} needs at least ${MIN_SECRET_LENGTH}). ${howTo}`,
    ]);
  }
  if (value === DEVELOPMENT_INTERNAL_SECRET || PUBLISHED_SECRET.test(value)) {
    throw new ConfigError([`${name} is a published default or placeholder, not a secret. ${howTo}`]);
  }
  return value;
}

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');

/**
 * Settings every Confab process shares: infrastructure addresses, the internal identity secret,
 * and the names that keep parallel test runs apart.
 */
export const commonEnv = {
  /**
   * Decided explicitly: `development` and `test` (what libs/devkit sets) relax the secret checks; anything else,
   * including no NODE_ENV at all, is production.
   */
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  LOG_LEVEL: logLevel,
  /**
   * HS256 secret for X-Confab-Identity tokens between the gateway and the services (it signs them). Required outside
   * development: at least 32 characters, no published default (checkedSecret). `_FILE`: a file holding it.
   */
  CONFAB_INTERNAL_SECRET: z.string().optional(),
  CONFAB_INTERNAL_SECRET_FILE: z.string().optional(),
  /** During a rotation, another secret whose tokens are accepted too (never used to sign); see docs/security.md. */
  CONFAB_INTERNAL_SECRET_PREVIOUS: z.string().optional(),
  CONFAB_INTERNAL_SECRET_PREVIOUS_FILE: z.string().optional(),
  /**
   * Address the process's HTTP API listens on. Default 0.0.0.0 (containers, where other containers call it);
   * `npm start` binds the services to 127.0.0.1 and only the gateway to the published address.
   */
  CONFAB_BIND_HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * Redis to use: `redis://` or `rediss://` for one server; `redis+cluster://host:port` (or `rediss+cluster://`) names
   * one node of a Redis Cluster, from which the client discovers the rest (README, "Redis Cluster");
   * `redis+sentinel://host:port,host:port,…/<master name>` the sentinels of a server with automatic failover.
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?(\+cluster|\+sentinel)?:\/\//, 'must be a redis:// URL')
    .default('redis://127.0.0.1:6379'),
  /** Treat REDIS_URL as a node of a Redis Cluster even in its plain `redis://` form. Default false. */
  CONFAB_REDIS_CLUSTER: bool(false),
  /** Prefix of every Redis key and BullMQ queue, so several deployments or test runs can share a Redis. */
  CONFAB_REDIS_PREFIX: z.string().default('confab'),
  /**
   * RabbitMQ: one `amqp://` URL, or the nodes of a cluster separated by commas (a lost connection reconnects to the
   * next node that answers; later URLs without credentials take the first one's).
   */
  AMQP_URL: z
    .string()
    .regex(/^amqps?:\/\/[^,]+(,\s*(amqps?:\/\/)?[^,]+)*$/, 'must be amqp:// URLs, separated by commas')
    .default('amqp://guest:guest@127.0.0.1:5672'),
  /** Topic exchange every service publishes its events to. */
  CONFAB_EVENTS_EXCHANGE: z.string().min(1).default('confab.events'),
  /**
   * Port this process serves Prometheus /metrics (and /healthz) on, apart from its API port, which never serves them;
   * 0 serves none (the default).
   */
  CONFAB_METRICS_PORT: int(0, 0, 65_535),
  /**
   * Address of that metrics listener. Default 127.0.0.1; Kubernetes sets 0.0.0.0 so Prometheus can scrape the pod,
   * and a NetworkPolicy admits only the monitoring namespace to the port (docs/security.md).
   */
  CONFAB_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * How long a request waits for this service to apply its user's own recent changes made in another service
   * before answering 503 (read-your-writes), in ms. Default 5000.
   */
  CONFAB_CAUSAL_WAIT_MS: int(5000, 0),
  /** Delete durable test queues after this many ms without consumers (tests only). Default 0: never. */
  CONFAB_EVENTS_QUEUE_EXPIRES_MS: int(0, 0),
  /**
   * The type of the consumers' durable queues: `quorum` (replicated across a RabbitMQ cluster's nodes; production)
   * or `classic` (one node; the development default). docs/architecture.md, "RabbitMQ".
   */
  CONFAB_EVENTS_QUEUE_TYPE: z.enum(['classic', 'quorum']).default('classic'),
  /** How often a service's outbox relay looks for unpublished events, in ms. Default 250. */
  CONFAB_OUTBOX_POLL_MS: int(250, 10),
  /**
   * Networks that requests to URLs users choose (outgoing webhooks, link previews) may reach although they are not
   * public: bot servers inside the cluster. Comma-separated CIDRs or addresses; default empty, so only public
   * addresses are reached (docs/security.md, "Requests to URLs users choose").
   */
  CONFAB_OUTGOING_ALLOWED_CIDRS: cidrList(),
};

export interface CommonConfig {
  env: RunEnvironment;
  logLevel: z.infer<typeof logLevel>;
  /** Signs identity tokens, and verifies them. */
  internalSecret: string;
  /** Verifies identity tokens too, during a rotation (docs/security.md). */
  internalSecretPrevious: string | undefined;
  /** Address the HTTP API listens on. */
  bindHost: string;
  redis: RedisSettings;
  amqp: { url: string; exchange: string; queueType: 'classic' | 'quorum' };
  /** Where /metrics is served; port 0: nowhere. */
  metrics: { host: string; port: number };
  /** Longest wait for a user's own changes from other services to arrive (ms). */
  causalWaitMs: number;
  /** How long an idle durable queue of this process outlives it (tests only); undefined: forever. */
  queueExpiresMs: number | undefined;
  /** How often the outbox relay of a service that writes events polls for unpublished ones (ms). */
  outboxPollMs: number;
  /** Networks the guarded HTTP client may reach although they are not public (CIDRs or addresses). */
  outgoingAllowedCidrs: string[];
}

export function commonConfig(e: {
  NODE_ENV: RunEnvironment;
  LOG_LEVEL: z.infer<typeof logLevel>;
  CONFAB_INTERNAL_SECRET?: string | undefined;
  CONFAB_INTERNAL_SECRET_FILE?: string | undefined;
  CONFAB_INTERNAL_SECRET_PREVIOUS?: string | undefined;
  CONFAB_INTERNAL_SECRET_PREVIOUS_FILE?: string | undefined;
  CONFAB_BIND_HOST: string;
  REDIS_URL: string;
  CONFAB_REDIS_CLUSTER: boolean;
  CONFAB_REDIS_PREFIX: string;
  AMQP_URL: string;
  CONFAB_EVENTS_EXCHANGE: string;
  CONFAB_METRICS_PORT: number;
  CONFAB_METRICS_HOST: string;
  CONFAB_CAUSAL_WAIT_MS: number;
  CONFAB_EVENTS_QUEUE_EXPIRES_MS: number;
  CONFAB_EVENTS_QUEUE_TYPE: 'classic' | 'quorum';
  CONFAB_OUTBOX_POLL_MS: number;
  CONFAB_OUTGOING_ALLOWED_CIDRS: string[];
}): CommonConfig {
  const internalSecret = checkedSecret(
    'CONFAB_INTERNAL_SECRET',
    readSecret('CONFAB_INTERNAL_SECRET', e.CONFAB_INTERNAL_SECRET, e.CONFAB_INTERNAL_SECRET_FILE),
    e.NODE_ENV,
    DEVELOPMENT_INTERNAL_SECRET,
  );
  const previous = readSecret(
    'CONFAB_INTERNAL_SECRET_PREVIOUS',
    e.CONFAB_INTERNAL_SECRET_PREVIOUS,
    e.CONFAB_INTERNAL_SECRET_PREVIOUS_FILE,
  );
  return {
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    internalSecret,
    internalSecretPrevious:
      previous === undefined ? undefined : checkedSecret('CONFAB_INTERNAL_SECRET_PREVIOUS', previous, e.NODE_ENV),
    bindHost: e.CONFAB_BIND_HOST,
    redis: redisSettings(e.REDIS_URL, e.CONFAB_REDIS_PREFIX, e.CONFAB_REDIS_CLUSTER),
    amqp: { url: e.AMQP_URL, exchange: e.CONFAB_EVENTS_EXCHANGE, queueType: e.CONFAB_EVENTS_QUEUE_TYPE },
    metrics: { host: e.CONFAB_METRICS_HOST, port: e.CONFAB_METRICS_PORT },
    causalWaitMs: e.CONFAB_CAUSAL_WAIT_MS,
    queueExpiresMs: e.CONFAB_EVENTS_QUEUE_EXPIRES_MS || undefined,
    outboxPollMs: e.CONFAB_OUTBOX_POLL_MS,
    outgoingAllowedCidrs: e.CONFAB_OUTGOING_ALLOWED_CIDRS,
  };
}

/**
 * Where a process's Redis is: a server, a Redis Cluster (one node's URL, in its plain form) or a server that Redis
 * Sentinel watches and fails over (`sentinel`: the sentinels and the name of the master they watch), and the key
 * prefix.
 */
export interface RedisSettings {
  url: string;
  prefix: string;
  cluster: boolean;
  sentinel?: SentinelSettings;
}

/** `redis+sentinel://[user:password@]host:port,host:port,…/<master name>[/<db>]`: the sentinels to ask for the master. */
export interface SentinelSettings {
  name: string;
  sentinels: { host: string; port: number }[];
  db: number;
  username?: string;
  password?: string;
  tls: boolean;
}

const CLUSTER_SCHEME = /^(rediss?)\+cluster:/;
const SENTINEL_URL = /^(rediss?)\+sentinel:\/\/(?:([^:@/]*)(?::([^@/]*))?@)?([^/]+)\/([^/?#]+)(?:\/(\d+))?\/?$/;

/** The sentinels and master a `redis+sentinel://` URL names, or undefined for another URL. */
export function sentinelSettings(url: string): SentinelSettings | undefined {
  const m = SENTINEL_URL.exec(url);
  if (!m) {
    if (/^rediss?\+sentinel:/.test(url)) throw new ConfigError([`REDIS_URL: not a sentinel URL: ${url}`]);
    return undefined;
  }
  const sentinels = m[4]!.split(',').map((hostPort) => {
    const at = hostPort.lastIndexOf(':');
    return at < 0
      ? { host: hostPort, port: 26379 }
      : { host: hostPort.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(hostPort.slice(at + 1)) };
  });
  return {
    name: decodeURIComponent(m[5]!),
    sentinels,
    db: Number(m[6] ?? 0),
    ...(m[2] ? { username: decodeURIComponent(m[2]) } : {}),
    ...(m[3] ? { password: decodeURIComponent(m[3]) } : {}),
    tls: m[1] === 'rediss',
  };
}

/**
 * Redis settings from REDIS_URL: `redis+cluster://` (or CONFAB_REDIS_CLUSTER) marks a Redis Cluster, whose node the
 * URL then names in its plain form.
 */
export function redisSettings(url: string, prefix: string, cluster = false): RedisSettings {
  const sentinel = sentinelSettings(url);
  if (sentinel) return { url, prefix, cluster: false, sentinel };
  const match = CLUSTER_SCHEME.exec(url);
  return { url: match ? url.replace(CLUSTER_SCHEME, `${match[1]}:`) : url, prefix, cluster: cluster || match !== null };
}

/** ioredis connection options from a redis:// or rediss:// URL. */
export interface RedisConnectionOptions {
  host: string;
  port: number;
  db: number;
  username?: string;
  password?: string;
  tls?: Record<string, never>;
}

/** The connection options a redis:// or rediss:// URL stands for. */
export function redisConnectionOptions(url: string): RedisConnectionOptions {
  const u = new URL(url);
  return {
    host: u.hostname,
    port: Number(u.port || 6379),
    db: Number(u.pathname.replace(/^\//, '') || 0),
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

export { z };
