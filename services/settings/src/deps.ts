import type { PeopleCache } from './domain/people-cache.js';
import type { EventBus, OutboxRelay } from '@confab/events';
import type { CausalOptions } from '@confab/http';
import type { IdentityVerifier } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { RedisClient } from '@confab/runtime';
import type { SettingsConfig } from './config.js';
import type { FailureLimiter } from './domain/auth.js';
import type { MeetingProvider } from './domain/meetings/provider.js';
import type {
  ChannelDirectory,
  ImageFiles,
  ImageResizer,
  GroupDirectory,
  Mailer,
  PresenceStore,
  ReceivedMessages,
} from './domain/ports.js';
import type { Database } from './domain/store.js';
import type { Directory, OidcClient, PendingInvitations, SamlClient, SsoFlowStore } from './domain/sso/ports.js';

/** The identity protocols' adapters (adapters/: ldapts, openid-client, @node-saml/node-saml) and the flows' state. */
export interface SsoServices {
  directory: Directory;
  oidc?: OidcClient;
  saml?: SamlClient;
  flows: SsoFlowStore;
  /** First sign-ins of invited people accept their invitation (the invitations service). */
  invitations?: PendingInvitations;
}

/** Everything the HTTP app and the consumers need, built once in main.ts (or by a test). */
export interface SettingsDeps {
  config: SettingsConfig;
  logger: Logger;
  db: Database;
  /** Presence (in Redis, shared by every replica). */
  presence: PresenceStore;
  /** Custom emoji images. */
  files: ImageFiles;
  /** Uploaded avatars, and the organization's icon and logo. */
  images: ImageFiles;
  /** Resizes uploaded avatars. */
  resizer: ImageResizer;
  redis: RedisClient;
  bus: EventBus;
  relay: OutboxRelay;
  verifier: IdentityVerifier;
  /** Failed logins (and wrong old passwords) per username. */
  failures: FailureLimiter;
  /** Email changes started per user. */
  emailChangeLimiter: FailureLimiter;
  mailer: Mailer;
  groups: GroupDirectory;
  /** Zulip's deprecated max_message_id of GET /users/me, and the channels settings name, from the messaging service. */
  messages: ReceivedMessages & ChannelDirectory;
  meetings: MeetingProvider;
  /** The organizations' people between their changes, for /register (domain/people-cache.ts). */
  people: PeopleCache;
  /** LDAP, OpenID Connect, SAML (config.sso says which are configured). */
  sso?: SsoServices;
  /** Read-your-writes: records the events of users' own changes for the services that copy them. */
  causal?: CausalOptions;
}
