import type { EventBus } from '@confab/events';
import type { IdentityVerifier } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { RedisClient } from '@confab/runtime';
import type { EventsConfig } from './config.js';
import type { Admission } from './domain/admission.js';
import type { StateProviders } from './state/providers.js';
import type { QueueStore } from './store/queues.js';
import type { ReadModel } from './store/readmodel.js';
import type { Wakeups } from './store/wakeups.js';

/** Everything the HTTP app and the consumer need, built once in main.ts (or by a test). */
export interface EventsDeps {
  config: EventsConfig;
  logger: Logger;
  redis: RedisClient;
  bus: EventBus;
  verifier: IdentityVerifier;
  store: QueueStore;
  readModel: ReadModel;
  wakeups: Wakeups;
  providers: StateProviders;
  /** Registers gathering initial state at once, the rest waiting their turn. */
  registers: Admission;
  heartbeat: { seconds: number; jitterSeconds: number };
  longpollTimeoutSeconds: number;
  /** Live event queues one user may hold (0: no cap). */
  maxQueuesPerUser: number;
}
