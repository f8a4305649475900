import { bool, commonConfig, commonEnv, int, parseEnv, port, url, z, type CommonConfig } from '@confab/config';

const Env = z.object({
  ...commonEnv,
  SETTINGS_PORT: port(9101),
  SETTINGS_DATABASE_URL: url(),
  /** Connections in this process's Postgres pool. Default 8. */
  SETTINGS_DB_POOL: int(8, 1, 100),
  /** The address clients reach the gateway at; the default organization's realm_url. */
  CONFAB_EXTERNAL_URL: url('http://127.0.0.1:9991'),
  /** Failed logins allowed per username in one window before 429. Default 5 (Zulip's authenticate_by_username). */
  CONFAB_AUTH_FAILURES_ALLOWED: int(5, 1),
  /** Length of that window, in seconds. Default 1800. */
  CONFAB_AUTH_FAILURE_WINDOW_SECONDS: int(1800, 1),
  /** URL of the mobile push relay; push notifications are enabled when it is set. */
  CONFAB_PUSH_RELAY_URL: z.string().default(''),
  /** scrypt cost for new password hashes (log2 N). Default 15; tests lower it to speed up. */
  CONFAB_PASSWORD_HASH_COST: int(15, 10, 20),
  /** Delete durable test queues after this many ms without consumers (tests only). */
  CONFAB_EVENTS_QUEUE_EXPIRES_MS: int(0, 0),
  CONFAB_OUTBOX_POLL_MS: int(250, 10),
  CONFAB_DEV_ENDPOINTS: bool(false),
});

export interface SettingsConfig extends CommonConfig {
  port: number;
  db: { url: string; poolSize: number };
  externalUrl: string;
  authFailures: { allowed: number; windowSeconds: number };
  pushEnabled: boolean;
  passwordHashCost: number;
  queueExpiresMs: number | undefined;
  outboxPollMs: number;
  /** /internal/dev/* endpoints (create throw-away organizations); development and tests only. */
  devEndpoints: boolean;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): SettingsConfig {
  const e = parseEnv(Env, env);
  return {
    ...commonConfig(e),
    port: e.SETTINGS_PORT,
    db: { url: e.SETTINGS_DATABASE_URL, poolSize: e.SETTINGS_DB_POOL },
    externalUrl: e.CONFAB_EXTERNAL_URL.replace(/\/+$/, ''),
    authFailures: { allowed: e.CONFAB_AUTH_FAILURES_ALLOWED, windowSeconds: e.CONFAB_AUTH_FAILURE_WINDOW_SECONDS },
    pushEnabled: e.CONFAB_PUSH_RELAY_URL !== '',
    passwordHashCost: e.CONFAB_PASSWORD_HASH_COST,
    queueExpiresMs: e.CONFAB_EVENTS_QUEUE_EXPIRES_MS || undefined,
    outboxPollMs: e.CONFAB_OUTBOX_POLL_MS,
    devEndpoints: e.CONFAB_DEV_ENDPOINTS,
  };
}
