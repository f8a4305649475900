import { contracts, type EventBus, type EventEnvelope } from '@confab/events';
import {
  applySettings,
  flagsChanged,
  messageSent,
  messagesDeleted,
  NOTIFICATIONS_CONSUMER,
  type NotificationContext,
} from '../domain/message-notifications.js';

/**
 * One consumer (one queue, so in the order the broker received them) for what notifications depend on: a user's
 * settings changed before they were sent a message is applied before that message is decided.
 */
export function registerConsumers(bus: EventBus, ctx: NotificationContext): void {
  const claim = (event: EventEnvelope<unknown>) => ({ consumer: NOTIFICATIONS_CONSUMER, eventId: event.event_id });
  bus
    .consumer(NOTIFICATIONS_CONSUMER)
    .on(contracts.userSettingsChanged, (event) => applySettings(ctx, claim(event), event.payload))
    .on(contracts.messageSent, async (event) => {
      await messageSent(ctx, claim(event), event.payload, {
        realmId: event.realm_id ?? 0,
        requestId: event.request_id,
      });
    })
    .on(contracts.messageFlagsChanged, (event) => flagsChanged(ctx, claim(event), event.payload, event.request_id))
    .on(contracts.messageDeleted, (event) => messagesDeleted(ctx, claim(event), event.payload, event.request_id));
}
