import type { EventBus, OutboxRelay } from '@confab/events';
import type { IdentityVerifier } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { Redis } from 'ioredis';
import type { SettingsConfig } from './config.js';
import type { FailureLimiter } from './domain/auth.js';
import type { SettingsRepository } from './repositories/settings.repository.js';

/** Everything the HTTP app and the consumers need, built once in main.ts (or by a test). */
export interface SettingsDeps {
  config: SettingsConfig;
  logger: Logger;
  repo: SettingsRepository;
  redis: Redis;
  bus: EventBus;
  relay: OutboxRelay;
  verifier: IdentityVerifier;
  failures: FailureLimiter;
}
