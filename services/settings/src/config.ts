import { join } from 'node:path';
import { dataDirOf, mailConfig, mailEnv, type MailConfig } from '@confab/runtime';
import {
  bool,
  checkedSecret,
  commonConfig,
  commonEnv,
  int,
  parseEnv,
  port,
  readSecret,
  url,
  z,
  type CommonConfig,
} from '@confab/config';
import type { SsoSettings } from './domain/sso/settings.js';
import { ssoEnv, ssoSettings } from './sso-config.js';

const optionalUrl = z.union([z.literal(''), z.string().url()]).default('');
/** The meeting token key a development or test process falls back to; never accepted outside development. */
const DEVELOPMENT_MEETING_TOKEN_KEY = 'confab-dev-meeting-token-key-change-me';

export const Env = z.object({
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
  CONFAB_DEV_ENDPOINTS: bool(false),
  /** The groups service, asked for the members of target_users' group_ids. */
  GROUPS_URL: optionalUrl,
  MESSAGING_URL: optionalUrl,
  /** The invitations service, asked for the pending invitation of a person's first sign-in with SSO. */
  INVITATIONS_URL: optionalUrl,
  ...mailEnv,
  /** How long an email-change confirmation link works, in seconds. Default 86400 (Zulip's one day). */
  CONFAB_CONFIRMATION_LINK_VALIDITY_SECONDS: int(86_400, 60),
  /** Email changes a user may start per window. Default 2 (Zulip's email_change_by_user). */
  CONFAB_EMAIL_CHANGES_ALLOWED: int(2, 1),
  /** Length of that window, in seconds. Default 3600. */
  CONFAB_EMAIL_CHANGE_WINDOW_SECONDS: int(3600, 1),
  /** Shortest accepted new password, in characters. Default 6 (Zulip's PASSWORD_MIN_LENGTH). */
  CONFAB_PASSWORD_MIN_LENGTH: int(6, 1, 100),
  /** zxcvbn's estimated guesses a new password must need. Default 10000 (Zulip's PASSWORD_MIN_GUESSES). */
  CONFAB_PASSWORD_MIN_GUESSES: int(10_000, 0),
  /** Meeting links: '' none, 'jitsi' (a link on a Jitsi-style server, no user token), 'oauth' (per-user OAuth). */
  CONFAB_MEETING_PROVIDER: z.enum(['', 'jitsi', 'oauth']).default(''),
  /** The provider's name in messages ("Invalid Zoom access token"). */
  CONFAB_MEETING_PROVIDER_NAME: z.string().default(''),
  CONFAB_JITSI_SERVER_URL: url('https://meet.jit.si'),
  CONFAB_MEETING_OAUTH_CLIENT_ID: z.string().default(''),
  CONFAB_MEETING_OAUTH_CLIENT_SECRET: z.string().default(''),
  CONFAB_MEETING_OAUTH_AUTHORIZE_URL: optionalUrl,
  CONFAB_MEETING_OAUTH_TOKEN_URL: optionalUrl,
  /** POSTed with the user's bearer token; answers JSON whose CONFAB_MEETING_OAUTH_JOIN_URL_FIELD is the link. */
  CONFAB_MEETING_OAUTH_CREATE_URL: optionalUrl,
  CONFAB_MEETING_OAUTH_JOIN_URL_FIELD: z.string().min(1).default('join_url'),
  CONFAB_MEETING_OAUTH_SCOPE: z.string().default(''),
  /** Longest wait for the provider, in ms. Default 5000 (Zulip's video-call timeout). */
  CONFAB_MEETING_OAUTH_TIMEOUT_MS: int(5000, 100),
  /**
   * Key that seals stored provider tokens (AES-256-GCM); changing it makes users authorize again. Required outside
   * development like the internal secret (checkedSecret: at least 32 characters, no published default); development
   * and tests fall back to a development key. `_FILE`: a file holding it (docs/security.md).
   */
  CONFAB_MEETING_TOKEN_KEY: z.string().optional(),
  CONFAB_MEETING_TOKEN_KEY_FILE: z.string().optional(),
  /** Presence of users not seen for this many days is forgotten. Default 30 (clients ask for 14 at most by default). */
  CONFAB_PRESENCE_RETENTION_DAYS: int(30, 1, 3650),
  /** The messaging service's upload limit (the same variable), announced to clients as max_file_upload_size_mib. */
  MESSAGING_MAX_FILE_UPLOAD_MIB: int(25, 1, 10_240),
  /** LDAP, OpenID Connect, SAML and SCIM (sso-config.ts; docs/security.md). */
  ...ssoEnv,
});

export interface SettingsConfig extends CommonConfig {
  port: number;
  db: { url: string; poolSize: number };
  externalUrl: string;
  authFailures: { allowed: number; windowSeconds: number };
  pushEnabled: boolean;
  passwordHashCost: number;
  /** /internal/dev/* endpoints (create throw-away organizations); development and tests only. */
  devEndpoints: boolean;
  groupsUrl: string;
  messagingUrl: string;
  invitationsUrl: string;
  mail: MailConfig & { linkValiditySeconds: number };
  emailChangeLimit: { allowed: number; windowSeconds: number };
  passwordPolicy: { minLength: number; minGuesses: number };
  meetings: MeetingConfig;
  /** Custom emoji images: `<CONFAB_DATA_DIR>/emoji/<realm id>/<file>`. */
  emojiDir: string;
  /** Uploaded avatars and organization icons and logos: `<avatarDir>/<realm id>/<file name>`. */
  avatarDir: string;
  presenceRetentionSeconds: number;
  maxFileUploadMib: number;
  /** Sign-in with the company's identity: LDAP, OpenID Connect, SAML, SCIM tokens (none configured: all empty). */
  sso: SsoSettings;
}

export interface MeetingConfig {
  provider: '' | 'jitsi' | 'oauth';
  name: string;
  jitsiServerUrl: string;
  oauth: {
    clientId: string;
    clientSecret: string;
    authorizeUrl: string;
    tokenUrl: string;
    createUrl: string;
    joinUrlField: string;
    scope: string;
    timeoutMs: number;
  };
  tokenKey: string;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): SettingsConfig {
  const e = parseEnv(Env, env);
  const common = commonConfig(e);
  // Custom emoji images live under <data dir>/emoji; in development, captured mail under <data dir>/mail.
  const dataDir = dataDirOf(e, common.redis.prefix);
  return {
    ...common,
    port: e.SETTINGS_PORT,
    db: { url: e.SETTINGS_DATABASE_URL, poolSize: e.SETTINGS_DB_POOL },
    externalUrl: e.CONFAB_EXTERNAL_URL.replace(/\/+$/, ''),
    authFailures: { allowed: e.CONFAB_AUTH_FAILURES_ALLOWED, windowSeconds: e.CONFAB_AUTH_FAILURE_WINDOW_SECONDS },
    pushEnabled: e.CONFAB_PUSH_RELAY_URL !== '',
    passwordHashCost: e.CONFAB_PASSWORD_HASH_COST,
    devEndpoints: e.CONFAB_DEV_ENDPOINTS,
    groupsUrl: e.GROUPS_URL.replace(/\/+$/, ''),
    messagingUrl: e.MESSAGING_URL.replace(/\/+$/, ''),
    invitationsUrl: e.INVITATIONS_URL.replace(/\/+$/, ''),
    mail: { ...mailConfig(e, dataDir), linkValiditySeconds: e.CONFAB_CONFIRMATION_LINK_VALIDITY_SECONDS },
    emailChangeLimit: { allowed: e.CONFAB_EMAIL_CHANGES_ALLOWED, windowSeconds: e.CONFAB_EMAIL_CHANGE_WINDOW_SECONDS },
    passwordPolicy: { minLength: e.CONFAB_PASSWORD_MIN_LENGTH, minGuesses: e.CONFAB_PASSWORD_MIN_GUESSES },
    meetings: {
      provider: e.CONFAB_MEETING_PROVIDER,
      name: e.CONFAB_MEETING_PROVIDER_NAME || (e.CONFAB_MEETING_PROVIDER === 'jitsi' ? 'Jitsi' : 'Meeting provider'),
      jitsiServerUrl: e.CONFAB_JITSI_SERVER_URL.replace(/\/+$/, ''),
      oauth: {
        clientId: e.CONFAB_MEETING_OAUTH_CLIENT_ID,
        clientSecret: e.CONFAB_MEETING_OAUTH_CLIENT_SECRET,
        authorizeUrl: e.CONFAB_MEETING_OAUTH_AUTHORIZE_URL,
        tokenUrl: e.CONFAB_MEETING_OAUTH_TOKEN_URL,
        createUrl: e.CONFAB_MEETING_OAUTH_CREATE_URL,
        joinUrlField: e.CONFAB_MEETING_OAUTH_JOIN_URL_FIELD,
        scope: e.CONFAB_MEETING_OAUTH_SCOPE,
        timeoutMs: e.CONFAB_MEETING_OAUTH_TIMEOUT_MS,
      },
      tokenKey: checkedSecret(
        'CONFAB_MEETING_TOKEN_KEY',
        readSecret('CONFAB_MEETING_TOKEN_KEY', e.CONFAB_MEETING_TOKEN_KEY, e.CONFAB_MEETING_TOKEN_KEY_FILE),
        e.NODE_ENV,
        DEVELOPMENT_MEETING_TOKEN_KEY,
      ),
    },
    emojiDir: join(dataDir, 'emoji'),
    avatarDir: join(dataDir, 'avatars'),
    presenceRetentionSeconds: e.CONFAB_PRESENCE_RETENTION_DAYS * 86_400,
    maxFileUploadMib: e.MESSAGING_MAX_FILE_UPLOAD_MIB,
    sso: ssoSettings(e, e.CONFAB_EXTERNAL_URL.replace(/\/+$/, '')),
  };
}
