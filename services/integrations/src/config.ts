import { commonConfig, commonEnv, int, parseEnv, port, z, type CommonConfig } from '@confab/config';

const optionalUrl = z.union([z.literal(''), z.string().url()]).default('');

export const Env = z.object({
  ...commonEnv,
  INTEGRATIONS_PORT: port(9108),
  /** Messaging, which posts the webhooks' messages (empty: every webhook answers 503). */
  MESSAGING_URL: optionalUrl,
  /**
   * The address the bot owner's notices of a misconfigured webhook tell them to write to (Zulip's FromAddress.SUPPORT,
   * its ZULIP_ADMINISTRATOR). Default support@localhost.
   */
  CONFAB_SUPPORT_EMAIL: z.string().min(3).default('support@localhost'),
  /** Largest webhook body, in bytes (GitHub sends up to 25 MB). Default 25 MiB. */
  INTEGRATIONS_MAX_BODY_BYTES: int(25 * 1024 * 1024, 1024),
  /** Longest a call to messaging may take, in ms. Default 10000. */
  INTEGRATIONS_MESSAGING_TIMEOUT_MS: int(10_000, 100, 120_000),
});

export interface IntegrationsConfig extends CommonConfig {
  port: number;
  messagingUrl: string;
  supportEmail: string;
  maxBodyBytes: number;
  messagingTimeoutMs: number;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): IntegrationsConfig {
  const e = parseEnv(Env, env);
  return {
    ...commonConfig(e),
    port: e.INTEGRATIONS_PORT,
    messagingUrl: e.MESSAGING_URL,
    supportEmail: e.CONFAB_SUPPORT_EMAIL,
    maxBodyBytes: e.INTEGRATIONS_MAX_BODY_BYTES,
    messagingTimeoutMs: e.INTEGRATIONS_MESSAGING_TIMEOUT_MS,
  };
}
