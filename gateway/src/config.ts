import { join } from 'node:path';
import { bool, commonConfig, commonEnv, int, parseEnv, port, url, z, type CommonConfig } from '@confab/config';

const optionalUrl = z.union([z.literal(''), z.string().url()]).default('');

export const Env = z.object({
  ...commonEnv,
  CONFAB_PORT: port(9991),
  SETTINGS_URL: url('http://127.0.0.1:9101'),
  MESSAGING_URL: optionalUrl,
  GROUPS_URL: optionalUrl,
  INVITATIONS_URL: optionalUrl,
  PUSH_URL: optionalUrl,
  EVENTS_URL: optionalUrl,
  /** The integrations service: Zulip's incoming webhooks, /api/v1/external/* (docs/integrations.md). */
  INTEGRATIONS_URL: optionalUrl,
  /**
   * Largest form body the gateway reads to find a webhook's `api_key` when the query string has none (bytes; the only
   * body it ever buffers). Larger ones answer 413. Default 5 MiB.
   */
  CONFAB_WEBHOOK_FORM_MAX_BYTES: int(5 * 1024 * 1024, 1024),
  /**
   * The events service's channel (`tcp://host:port`, its EVENTS_CHANNEL_PORT): GET/DELETE /events go there as frames
   * over persistent connections instead of one HTTP request each (docs/architecture.md, "The gateway"). Empty: off,
   * every events request takes the HTTP forwarder to EVENTS_URL.
   */
  EVENTS_CHANNEL_URL: optionalUrl,
  /** Persistent connections to the events channel; a Service spreads them over the replicas. Default 4. */
  CONFAB_EVENTS_CHANNEL_CONNECTIONS: int(4, 1, 256),
  /** Requests per user per minute (Zulip's api_by_user default). Default 200. */
  CONFAB_RATE_LIMIT_PER_MINUTE: int(200, 1),
  /** Unauthenticated requests per client IP per minute (login, server settings). Default 100. */
  CONFAB_RATE_LIMIT_IP_PER_MINUTE: int(100, 1),
  /** Images through the external image proxy per client IP per minute (a page of messages shows many). Default 1200. */
  CONFAB_RATE_LIMIT_EXTERNAL_CONTENT_PER_MINUTE: int(1200, 1),
  /** How long a verified API key stays cached, in seconds. Default 60. */
  CONFAB_AUTH_CACHE_TTL_SECONDS: int(60, 1, 3600),
  /** Take the client address from X-Forwarded-For (set when behind a trusted ingress). Default off. */
  CONFAB_TRUST_PROXY: bool(false),
  /** Longest a proxied request may take, in ms (event long-polls last up to 90 s). Default 120000. */
  CONFAB_PROXY_TIMEOUT_MS: int(120_000, 1000),
  /** Connections open at once to one service; requests beyond wait for a free one. Default 256. */
  CONFAB_PROXY_MAX_SOCKETS: int(256, 1),
  /**
   * Connections open at once to the events service, where each waiting long poll holds one for up to 90 s: a limit
   * below the number of connected clients would hold their polls back in the gateway. Default 100000.
   */
  CONFAB_PROXY_EVENTS_MAX_SOCKETS: int(100_000, 1),
  /** How long a browser session lasts after sign-in, in seconds. Default 14 days. */
  CONFAB_SESSION_TTL_SECONDS: int(14 * 24 * 3600, 1),
  /** The built web client (web/dist) the gateway serves at /; empty: the one beside this checkout. */
  CONFAB_WEB_DIR: z.string().default(''),
});

export type ServiceName = 'settings' | 'messaging' | 'groups' | 'invitations' | 'push' | 'events' | 'integrations';

export interface GatewayConfig extends CommonConfig {
  port: number;
  services: Partial<Record<ServiceName, string>>;
  /** The events channel: where, and how many connections (none: the HTTP forwarder alone). */
  eventsChannel: { url: string; connections: number } | undefined;
  rateLimit: { perUserPerMinute: number; perIpPerMinute: number; externalContentPerIpPerMinute: number };
  authCacheTtlSeconds: number;
  trustProxy: boolean;
  proxyTimeoutMs: number;
  proxyMaxSockets: number;
  proxyEventsMaxSockets: number;
  sessionTtlSeconds: number;
  webDir: string;
  webhookFormMaxBytes: number;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): GatewayConfig {
  const e = parseEnv(Env, env);
  const services: Partial<Record<ServiceName, string>> = { settings: e.SETTINGS_URL };
  const optional: [ServiceName, string][] = [
    ['messaging', e.MESSAGING_URL],
    ['groups', e.GROUPS_URL],
    ['invitations', e.INVITATIONS_URL],
    ['push', e.PUSH_URL],
    ['events', e.EVENTS_URL],
    ['integrations', e.INTEGRATIONS_URL],
  ];
  for (const [name, value] of optional) if (value) services[name] = value;
  return {
    ...commonConfig(e),
    port: e.CONFAB_PORT,
    services,
    eventsChannel:
      e.EVENTS_CHANNEL_URL && e.EVENTS_URL
        ? { url: e.EVENTS_CHANNEL_URL, connections: e.CONFAB_EVENTS_CHANNEL_CONNECTIONS }
        : undefined,
    rateLimit: {
      perUserPerMinute: e.CONFAB_RATE_LIMIT_PER_MINUTE,
      perIpPerMinute: e.CONFAB_RATE_LIMIT_IP_PER_MINUTE,
      externalContentPerIpPerMinute: e.CONFAB_RATE_LIMIT_EXTERNAL_CONTENT_PER_MINUTE,
    },
    authCacheTtlSeconds: e.CONFAB_AUTH_CACHE_TTL_SECONDS,
    trustProxy: e.CONFAB_TRUST_PROXY,
    proxyTimeoutMs: e.CONFAB_PROXY_TIMEOUT_MS,
    proxyMaxSockets: e.CONFAB_PROXY_MAX_SOCKETS,
    proxyEventsMaxSockets: e.CONFAB_PROXY_EVENTS_MAX_SOCKETS,
    sessionTtlSeconds: e.CONFAB_SESSION_TTL_SECONDS,
    webDir: e.CONFAB_WEB_DIR || join(__dirname, '..', '..', 'web', 'dist'),
    webhookFormMaxBytes: e.CONFAB_WEBHOOK_FORM_MAX_BYTES,
  };
}
