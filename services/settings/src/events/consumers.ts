import { contracts, type EventBus } from '@confab/events';

export const MAX_MESSAGE_ID_CONSUMER = 'settings.max_message_id';

/** What the consumers change in this service's storage. */
export interface MessageMaxima {
  /** Raises each user's max_message_id to `messageId` (never lowers it; applying it twice changes nothing). */
  raiseMaxMessageId(userIds: readonly number[], messageId: number): Promise<void>;
}

/**
 * `max_message_id` of GET /users/me follows the messages each user receives, learned from `message.sent`. It is
 * derived from another service's fact, so it is eventually consistent; raising is idempotent, so no claim is kept.
 */
export function registerConsumers(bus: EventBus, maxima: MessageMaxima): void {
  bus
    .consumer(MAX_MESSAGE_ID_CONSUMER, { prefetch: 200 })
    .on(contracts.messageSent, (event) => maxima.raiseMaxMessageId(event.payload.user_ids, event.payload.message.id));
}
