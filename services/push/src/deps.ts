import type { EventBus, OutboxRelay } from '@confab/events';
import type { IdentityVerifier } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { RedisClient } from '@confab/runtime';
import type { PushConfig } from './config.js';
import type { RegistrationScheduler, TestNotificationDispatcher } from './domain/types.js';
import type { PushRepository } from './repositories/push.repository.js';

/** Everything the HTTP app needs, built once in main.ts (or by a test). */
export interface PushDeps {
  config: PushConfig;
  logger: Logger;
  repo: PushRepository;
  redis: RedisClient;
  bus: EventBus;
  relay: OutboxRelay;
  verifier: IdentityVerifier;
  dispatcher: TestNotificationDispatcher;
  scheduler: RegistrationScheduler;
}
