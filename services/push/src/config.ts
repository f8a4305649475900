import { commonConfig, commonEnv, int, parseEnv, port, url, z, type CommonConfig } from '@confab/config';
import { dataDirOf, mailConfig, mailEnv, type MailConfig } from '@confab/runtime';

const optionalUrl = z.union([z.literal(''), z.string().url()]).default('');

export const Env = z.object({
  ...commonEnv,
  PUSH_PORT: port(9105),
  PUSH_DATABASE_URL: url(),
  /** Connections in this process's Postgres pool. Default 5. */
  PUSH_DB_POOL: int(5, 1, 100),
  /** Base URL of the push relay ("bouncer"); empty means push notifications are not configured. */
  CONFAB_PUSH_RELAY_URL: optionalUrl,
  /** This server's identity at the relay (HTTP Basic user name). */
  CONFAB_PUSH_RELAY_SERVER_ID: z.string().default(''),
  /** This server's secret at the relay (HTTP Basic password). */
  CONFAB_PUSH_RELAY_SERVER_KEY: z.string().default(''),
  /** Longest one request to the relay may take, in ms. Default 10000. */
  PUSH_RELAY_TIMEOUT_MS: int(10_000, 100, 120_000),
  /** Tries of one relay request when it fails transiently (network, timeout, 5xx, 429). Default 3. */
  PUSH_RELAY_ATTEMPTS: int(3, 1, 10),
  /** Wait before the first retry, in ms; doubled for each further one. Default 500. */
  PUSH_RELAY_BACKOFF_MS: int(500, 0, 60_000),
  /** Longest a test-notification request waits for its job, in ms (bounded by the gateway's timeout). Default 45000. */
  PUSH_TEST_WAIT_MS: int(45_000, 1000, 110_000),
  /** Jobs one worker process runs at once. Default 8. */
  PUSH_WORKER_CONCURRENCY: int(8, 1, 100),
  /** The settings service (presence and the settings backfill of notifications). */
  SETTINGS_URL: url('http://127.0.0.1:9101'),
  /** The server's external URL; an organization's URL (in notifications) is its subdomain of it. */
  CONFAB_EXTERNAL_URL: url('http://127.0.0.1:9991'),
  /** Tries of a message's push notifications (and of a removal) before what is left counts as failed. Default 12. */
  PUSH_NOTIFY_ATTEMPTS: int(12, 1, 50),
  /** Wait before the first retry of a message's notifications, in ms; doubled for each further one. Default 1000. */
  PUSH_NOTIFY_BACKOFF_MS: int(1000, 10, 600_000),
  /** Tries of a device registration at the relay before it is marked failed (exponential backoff). Default 8. */
  PUSH_REGISTER_ATTEMPTS: int(8, 1, 50),
  /** Missed-message email (push-worker sends it): the same variables as the settings service's mail. */
  ...mailEnv,
});

export interface RelayConfig {
  /** '' when not configured. */
  url: string;
  serverId: string;
  serverKey: string;
  timeoutMs: number;
  attempts: number;
  backoffMs: number;
}

export interface PushConfig extends CommonConfig {
  port: number;
  db: { url: string; poolSize: number };
  relay: RelayConfig;
  testWaitMs: number;
  workerConcurrency: number;
  registerAttempts: number;
  settingsUrl: string;
  externalUrl: string;
  notify: { attempts: number; backoffMs: number };
  /** Missed-message email; neither an SMTP server nor a capture directory: none is sent. */
  mail: MailConfig;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): PushConfig {
  const e = parseEnv(Env, env);
  const common = commonConfig(e);
  return {
    ...common,
    port: e.PUSH_PORT,
    db: { url: e.PUSH_DATABASE_URL, poolSize: e.PUSH_DB_POOL },
    relay: {
      url: e.CONFAB_PUSH_RELAY_URL.replace(/\/+$/, ''),
      serverId: e.CONFAB_PUSH_RELAY_SERVER_ID,
      serverKey: e.CONFAB_PUSH_RELAY_SERVER_KEY,
      timeoutMs: e.PUSH_RELAY_TIMEOUT_MS,
      attempts: e.PUSH_RELAY_ATTEMPTS,
      backoffMs: e.PUSH_RELAY_BACKOFF_MS,
    },
    testWaitMs: e.PUSH_TEST_WAIT_MS,
    workerConcurrency: e.PUSH_WORKER_CONCURRENCY,
    registerAttempts: e.PUSH_REGISTER_ATTEMPTS,
    settingsUrl: e.SETTINGS_URL.replace(/\/+$/, ''),
    externalUrl: e.CONFAB_EXTERNAL_URL.replace(/\/+$/, ''),
    notify: { attempts: e.PUSH_NOTIFY_ATTEMPTS, backoffMs: e.PUSH_NOTIFY_BACKOFF_MS },
    mail: mailConfig(e, dataDirOf(e, common.redis.prefix)),
  };
}
