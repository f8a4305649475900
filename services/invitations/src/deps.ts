import type { CausalOptions } from '@confab/http';
import type { EventBus } from '@confab/events';
import type { IdentityVerifier } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { InvitationsConfig } from './config.js';
import type { InviteRepository, Owners } from './domain/ports.js';

/** Everything the HTTP app needs, built once in main.ts (or by a test). */
export interface InvitationsDeps {
  config: InvitationsConfig;
  logger: Logger;
  repo: InviteRepository;
  owners: Owners;
  /** Consumes `user.deactivated` (links die with their creator's account). */
  bus: EventBus;
  verifier: IdentityVerifier;
  /** Read-your-writes: waits for a user's own changes in settings (deactivations) before acting for them. */
  causal?: CausalOptions;
}
