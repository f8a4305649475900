import { contracts, type EventBus, type EventEnvelope, type PayloadOf } from '@confab/events';
import {
  EMAIL_CONSUMER,
  emailFlagsChanged,
  emailMessageEdited,
  emailMessageSent,
  emailMessagesDeleted,
  type EmailContext,
} from '../domain/email-notifications.js';
import {
  applySettings,
  flagsChanged,
  messageEdited,
  messagesDeleted,
  messagesSent,
  NOTIFICATIONS_CONSUMER,
  type NotificationContext,
  type SentEvent,
} from '../domain/message-notifications.js';

type Claim = { consumer: string; eventId: string };
type Meta = { realmId: number; requestId: string | null };

/** What a notification consumer does with each event it takes, besides keeping the settings copy. */
interface NotificationHandlers {
  store: Parameters<typeof applySettings>[0];
  /** Consecutive message.sent events, in their order (the bus hands them over together). */
  sent(events: readonly SentEvent[]): Promise<unknown>;
  flags(claim: Claim, payload: PayloadOf<typeof contracts.messageFlagsChanged>, meta: Meta): Promise<unknown>;
  deleted(claim: Claim, payload: PayloadOf<typeof contracts.messageDeleted>, meta: Meta): Promise<unknown>;
  edited(claim: Claim, event: EventEnvelope<PayloadOf<typeof contracts.messageUpdated>>, meta: Meta): Promise<unknown>;
}

/**
 * The consumers' queues are ordered (RabbitMQ's single active consumer: one replica at a time takes them, in the
 * order the broker received them), so that across replicas a message's notification is never handled after its
 * removal (read, deleted), nor a settings change after the message it came before. Their names changed when they
 * became ordered (a queue keeps the arguments it was declared with): start-up deletes the queues of the earlier names
 * once the earlier version's replicas have drained them (RETIRED_CONSUMERS). Claims keep the consumers' names, so an
 * event that both queues held during the upgrade is handled once.
 */
export const NOTIFICATIONS_QUEUE = `${NOTIFICATIONS_CONSUMER}.ordered`;
export const EMAIL_QUEUE = `${EMAIL_CONSUMER}.ordered`;
export const RETIRED_CONSUMERS = [NOTIFICATIONS_CONSUMER, EMAIL_CONSUMER];

/**
 * One consumer (one ordered queue) for what its notifications depend on: a user's settings changed before they were
 * sent a message are applied before that message is decided.
 */
function registerNotificationConsumer(bus: EventBus, queue: string, name: string, h: NotificationHandlers): void {
  const claim = (event: EventEnvelope<unknown>) => ({ consumer: name, eventId: event.event_id });
  const meta = (event: EventEnvelope<unknown>) => ({ realmId: event.realm_id ?? 0, requestId: event.request_id });
  bus
    .consumer(queue, { ordered: true })
    .on(contracts.userSettingsChanged, (event) => applySettings(h.store, claim(event), event))
    .onBatch(contracts.messageSent, async (events) => {
      await h.sent(events.map((event) => ({ claim: claim(event), payload: event.payload, meta: meta(event) })));
    })
    .on(contracts.messageFlagsChanged, async (event) => void (await h.flags(claim(event), event.payload, meta(event))))
    .on(contracts.messageDeleted, async (event) => void (await h.deleted(claim(event), event.payload, meta(event))))
    .on(contracts.messageUpdated, async (event) => void (await h.edited(claim(event), event, meta(event))));
}

/** Push notifications of messages (`push.notifications`), in processes with a relay. */
export function registerConsumers(bus: EventBus, ctx: NotificationContext): void {
  registerNotificationConsumer(bus, NOTIFICATIONS_QUEUE, NOTIFICATIONS_CONSUMER, {
    store: ctx.store,
    sent: (events) => messagesSent(ctx, events),
    flags: (claim, payload, meta) => flagsChanged(ctx, claim, payload, meta.requestId),
    deleted: (claim, payload, meta) => messagesDeleted(ctx, claim, payload, meta.requestId),
    edited: (claim, event, meta) => messageEdited(ctx, claim, event, meta),
  });
}

/**
 * Missed-message email, in a queue of its own (`push.email`), so that processes configured for mail and processes
 * configured for a relay each take every event they need; it keeps the settings copy too, in its own order.
 */
export function registerEmailConsumer(bus: EventBus, ctx: EmailContext): void {
  registerNotificationConsumer(bus, EMAIL_QUEUE, EMAIL_CONSUMER, {
    store: ctx.store,
    sent: async (events) => {
      for (const { claim, payload, meta } of events) await emailMessageSent(ctx, claim, payload, meta);
    },
    flags: (claim, payload) => emailFlagsChanged(ctx, claim, payload),
    deleted: (claim, payload) => emailMessagesDeleted(ctx, claim, payload),
    edited: (claim, event, meta) => emailMessageEdited(ctx, claim, event, meta),
  });
}
