import { contracts, type EventBus, type EventEnvelope } from '@confab/events';
import {
  EMAIL_CONSUMER,
  emailFlagsChanged,
  emailMessageSent,
  emailMessagesDeleted,
  type EmailContext,
} from '../domain/email-notifications.js';
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
    .on(contracts.userSettingsChanged, (event) => applySettings(ctx.store, claim(event), event))
    .on(contracts.messageSent, async (event) => {
      await messageSent(ctx, claim(event), event.payload, {
        realmId: event.realm_id ?? 0,
        requestId: event.request_id,
      });
    })
    .on(contracts.messageFlagsChanged, (event) => flagsChanged(ctx, claim(event), event.payload, event.request_id))
    .on(contracts.messageDeleted, (event) => messagesDeleted(ctx, claim(event), event.payload, event.request_id));
}

/**
 * The consumer of missed-message email, in a queue of its own (`push.email`), so that processes configured for mail
 * and processes configured for a relay each take every event they need; it keeps the settings copy too, in its order.
 */
export function registerEmailConsumer(bus: EventBus, ctx: EmailContext): void {
  const claim = (event: EventEnvelope<unknown>) => ({ consumer: EMAIL_CONSUMER, eventId: event.event_id });
  bus
    .consumer(EMAIL_CONSUMER)
    .on(contracts.userSettingsChanged, (event) => applySettings(ctx.store, claim(event), event))
    .on(contracts.messageSent, async (event) => {
      await emailMessageSent(ctx, claim(event), event.payload, {
        realmId: event.realm_id ?? 0,
        requestId: event.request_id,
      });
    })
    .on(contracts.messageFlagsChanged, (event) => emailFlagsChanged(ctx, claim(event), event.payload))
    .on(contracts.messageDeleted, (event) => emailMessagesDeleted(ctx, claim(event), event.payload));
}
