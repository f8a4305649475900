import { commonConfig, commonEnv, int, parseEnv, port, z, type CommonConfig } from '@confab/config';

const optionalUrl = z.union([z.literal(''), z.string().url()]).default('');

export const Env = z.object({
  ...commonEnv,
  EVENTS_PORT: port(9106),
  /**
   * TCP port of the gateway's channel (docs/architecture.md, "The gateway"): its long polls come as frames over a few
   * persistent connections here, instead of one HTTP request each. Default 9116.
   */
  EVENTS_CHANNEL_PORT: port(9116),
  /** A queue nobody has polled for this long is deleted, in seconds. Default 600 (Zulip's 10 minutes). */
  EVENTS_QUEUE_TIMEOUT_SECONDS: int(600, 1, 7 * 24 * 3600),
  /**
   * Live event queues one user may hold; registering one more answers 429 until one of them expires (0: no cap).
   * Default 100: many browser tabs, apps and bots of one account stay well below it.
   */
  EVENTS_MAX_QUEUES_PER_USER: int(100, 0, 1_000_000),
  /** A long poll with nothing to deliver answers with a heartbeat after this many seconds. Default 45. */
  EVENTS_HEARTBEAT_SECONDS: int(45, 1, 3600),
  /** Up to this many extra random seconds per poll, so heartbeats of many clients spread out. Default 10. */
  EVENTS_HEARTBEAT_JITTER_SECONDS: int(10, 0, 600),
  /** What /register tells clients to use as their HTTP timeout for GET /events, in seconds. Default 90. */
  EVENTS_LONGPOLL_TIMEOUT_SECONDS: int(90, 1, 3600),
  /** How long /register waits for each owning service's initial-state fragment, in ms. Default 5000. */
  EVENTS_STATE_TIMEOUT_MS: int(5000, 100, 60_000),
  /** Registers gathering initial state at once per replica; more wait their turn (domain/admission.ts). Default 6. */
  EVENTS_REGISTER_CONCURRENCY: int(6, 1, 1000),
  /** How long a register waits for its turn before a 503 with Retry-After, in ms. Default 10000. */
  EVENTS_REGISTER_WAIT_MS: int(10_000, 0, 120_000),
  /** How long a handled broker event id is remembered against redelivery, in seconds. Default 86400. */
  EVENTS_DEDUPE_TTL_SECONDS: int(86_400, 60),
  /** Broker deliveries in flight per replica (each is fanned out in order). Default 50. */
  EVENTS_PREFETCH: int(50, 1, 10_000),
  /** Owning services asked for initial state (empty = not deployed). */
  SETTINGS_URL: optionalUrl,
  MESSAGING_URL: optionalUrl,
  GROUPS_URL: optionalUrl,
  INVITATIONS_URL: optionalUrl,
  PUSH_URL: optionalUrl,
});

export interface EventsConfig extends CommonConfig {
  port: number;
  channelPort: number;
  queueTimeoutSeconds: number;
  /** Live queues per user (0: no cap). */
  maxQueuesPerUser: number;
  heartbeat: { seconds: number; jitterSeconds: number };
  longpollTimeoutSeconds: number;
  stateTimeoutMs: number;
  registers: { concurrency: number; waitMs: number };
  dedupeTtlSeconds: number;
  prefetch: number;
  /** Base URLs of the services that own parts of the initial state, by service name. */
  stateProviders: Record<string, string>;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): EventsConfig {
  const e = parseEnv(Env, env);
  const providers: Record<string, string> = {};
  const candidates: [string, string][] = [
    ['settings', e.SETTINGS_URL],
    ['messaging', e.MESSAGING_URL],
    ['groups', e.GROUPS_URL],
    ['invitations', e.INVITATIONS_URL],
    ['push', e.PUSH_URL],
  ];
  for (const [name, url] of candidates) if (url) providers[name] = url.replace(/\/+$/, '');
  return {
    ...commonConfig(e),
    port: e.EVENTS_PORT,
    channelPort: e.EVENTS_CHANNEL_PORT,
    queueTimeoutSeconds: e.EVENTS_QUEUE_TIMEOUT_SECONDS,
    maxQueuesPerUser: e.EVENTS_MAX_QUEUES_PER_USER,
    heartbeat: { seconds: e.EVENTS_HEARTBEAT_SECONDS, jitterSeconds: e.EVENTS_HEARTBEAT_JITTER_SECONDS },
    longpollTimeoutSeconds: e.EVENTS_LONGPOLL_TIMEOUT_SECONDS,
    stateTimeoutMs: e.EVENTS_STATE_TIMEOUT_MS,
    registers: { concurrency: e.EVENTS_REGISTER_CONCURRENCY, waitMs: e.EVENTS_REGISTER_WAIT_MS },
    dedupeTtlSeconds: e.EVENTS_DEDUPE_TTL_SECONDS,
    prefetch: e.EVENTS_PREFETCH,
    stateProviders: providers,
  };
}
