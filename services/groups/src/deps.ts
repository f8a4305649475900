import type { EventBus, OutboxRelay } from '@confab/events';
import type { CausalOptions } from '@confab/http';
import type { IdentityVerifier } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { GroupsConfig } from './config.js';
import type { PrismaGroupsDatabase } from './repositories/groups-database.js';

/** Everything the HTTP app and the consumers need, built once in main.ts (or by a test). */
export interface GroupsDeps {
  config: GroupsConfig;
  logger: Logger;
  db: PrismaGroupsDatabase;
  bus: EventBus;
  relay: OutboxRelay;
  verifier: IdentityVerifier;
  /** Read-your-writes: records users' own changes here, waits for their changes in settings. */
  causal?: CausalOptions;
}
