import type { EventBus, OutboxRelay } from '@confab/events';
import type { CausalOptions } from '@confab/http';
import type { IdentityVerifier } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { Redis } from 'ioredis';
import type { SettingsConfig } from './config.js';
import type { FailureLimiter } from './domain/auth.js';
import type { MeetingProvider } from './domain/meetings/provider.js';
import type { GroupDirectory, Mailer } from './domain/ports.js';
import type { EmailChangeRepository } from './repositories/email-changes.repository.js';
import type { MeetingTokenRepository } from './repositories/meeting-tokens.repository.js';
import type { NavigationViewRepository } from './repositories/navigation-views.repository.js';
import type { SettingsRepository } from './repositories/settings.repository.js';
import type { UserSettingsRepository } from './repositories/user-settings.repository.js';

/** Everything the HTTP app and the consumers need, built once in main.ts (or by a test). */
export interface SettingsDeps {
  config: SettingsConfig;
  logger: Logger;
  repo: SettingsRepository;
  userSettings: UserSettingsRepository;
  navigationViews: NavigationViewRepository;
  emailChanges: EmailChangeRepository;
  meetingTokens: MeetingTokenRepository;
  redis: Redis;
  bus: EventBus;
  relay: OutboxRelay;
  verifier: IdentityVerifier;
  /** Failed logins (and wrong old passwords) per username. */
  failures: FailureLimiter;
  /** Email changes started per user. */
  emailChangeLimiter: FailureLimiter;
  mailer: Mailer;
  groups: GroupDirectory;
  meetings: MeetingProvider;
  /** Read-your-writes: records the events of users' own changes for the services that copy them. */
  causal?: CausalOptions;
}
