import { bool, commonConfig, commonEnv, int, parseEnv, port, url, z, type CommonConfig } from '@confab/config';

export const Env = z.object({
  ...commonEnv,
  INVITATIONS_PORT: port(9104),
  INVITATIONS_DATABASE_URL: url(),
  /** Connections in this process's Postgres pool. Default 4. */
  INVITATIONS_DB_POOL: int(4, 1, 100),
  /** Minutes a new link stays valid when the request does not say (Zulip's INVITATION_LINK_VALIDITY_MINUTES). Default 14400 (10 days). */
  INVITATIONS_DEFAULT_EXPIRY_MINUTES: int(14400, 1),
  /** Email invitations an organization may send in 24 hours (Zulip's INVITES_DEFAULT_REALM_DAILY_MAX). Default 100. */
  INVITATIONS_MAX_PER_DAY: int(100, 1),
  /** The welcome message a new member gets when the link's welcome_message_custom_text is null (Markdown). */
  INVITATIONS_DEFAULT_WELCOME_TEXT: z
    .string()
    .default('Welcome! You joined through an invitation link. Say hello in your channels.'),
  /** How long a sign-up waits for the other services to learn of the new account, in ms. Default 15000. */
  INVITATIONS_JOIN_WAIT_MS: int(15_000, 100),
  /** Development and test endpoints under /internal/dev (never in production). Default off. */
  CONFAB_DEV_ENDPOINTS: bool(false),
  SETTINGS_URL: url('http://127.0.0.1:9101'),
  MESSAGING_URL: url('http://127.0.0.1:9102'),
  GROUPS_URL: url('http://127.0.0.1:9103'),
});

export interface InvitationsConfig extends CommonConfig {
  port: number;
  db: { url: string; poolSize: number };
  defaultExpiryMinutes: number;
  maxInvitesPerDay: number;
  defaultWelcomeText: string;
  joinWaitMs: number;
  devEndpoints: boolean;
  urls: { settings: string; messaging: string; groups: string };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): InvitationsConfig {
  const e = parseEnv(Env, env);
  const base = (u: string) => u.replace(/\/+$/, '');
  return {
    ...commonConfig(e),
    port: e.INVITATIONS_PORT,
    db: { url: e.INVITATIONS_DATABASE_URL, poolSize: e.INVITATIONS_DB_POOL },
    defaultExpiryMinutes: e.INVITATIONS_DEFAULT_EXPIRY_MINUTES,
    maxInvitesPerDay: e.INVITATIONS_MAX_PER_DAY,
    defaultWelcomeText: e.INVITATIONS_DEFAULT_WELCOME_TEXT,
    joinWaitMs: e.INVITATIONS_JOIN_WAIT_MS,
    devEndpoints: e.CONFAB_DEV_ENDPOINTS,
    urls: { settings: base(e.SETTINGS_URL), messaging: base(e.MESSAGING_URL), groups: base(e.GROUPS_URL) },
  };
}
