import { contracts, type EventBus } from '@confab/events';
import type { InviteRepository } from '../domain/ports.js';

export const REFERRER_CONSUMER = 'invitations.referrers';

/**
 * Links die with their creator's account: when a user is deactivated, every link they made that is still valid
 * expires at once (Zulip's revoke_invites_generated_by_user), so it shows the expired page from then on.
 */
export function registerConsumers(bus: EventBus, repo: InviteRepository): void {
  bus.consumer(REFERRER_CONSUMER).on(contracts.userDeactivated, async (event) => {
    await repo.expireLinksOf(event.payload.user.user_id, new Date(), {
      consumer: REFERRER_CONSUMER,
      eventId: event.event_id,
    });
  });
}
