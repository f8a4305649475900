import type { EventBus, OutboxRelay } from '@confab/events';
import type { CausalOptions } from '@confab/http';
import type { IdentityVerifier } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { MessagingConfig } from './config.js';
import type { Domain } from './domain/context.js';
import type { DeliveryQueue } from './domain/scheduled-messages.js';
import type { ExportRunner } from './domain/realm-content-store.js';
import type { OwnerReminders, WebhookPeopleReader } from './domain/webhooks.js';
import type { Store } from './repositories/store.js';

/** Everything the HTTP app and the consumers need, built once in main.ts (or by a test). */
export interface MessagingDeps {
  config: MessagingConfig;
  logger: Logger;
  domain: Domain;
  /** The database itself, for the health check and the internal event-status endpoint. */
  store: Store;
  bus: EventBus;
  relay: OutboxRelay;
  verifier: IdentityVerifier;
  /** Delivery jobs of scheduled messages. */
  deliveries: DeliveryQueue;
  /** Organization exports: the worker's job, and the archives' removal. */
  exportRunner: ExportRunner;
  /** Incoming webhooks: at most one notice to a bot's owner a minute (none when absent: every notice is sent). */
  ownerReminders?: OwnerReminders;
  /** Incoming webhooks: the people an integration names (none found when absent). */
  webhookPeople?: WebhookPeopleReader;
  /** Read-your-writes: waits for a user's own changes in settings and groups before acting for them. */
  causal?: CausalOptions;
}
