import { z } from 'zod';
import { defineEvent } from '../envelope.js';
import { messageRecord } from './messages.js';

/**
 * A message triggered outgoing webhook bots (Zulip's `outgoing_webhooks` queue events, from get_service_bot_events):
 * a channel message that mentions them, or a direct message they take part in, sent by someone who is not a bot.
 * Published by messaging with the message itself, in the send's own statement, and only for such messages: the
 * deliverer hears of nothing else. `message` is the message.sent record (its id completed by the statement).
 */
const trigger = z.object({ user_id: z.number().int(), trigger: z.enum(['mention', 'direct_message']) });
export type OutgoingWebhookTrigger = z.infer<typeof trigger>;

export const outgoingWebhookTriggered = defineEvent(
  'outgoing_webhook.triggered',
  z.object({ message: messageRecord, bots: z.array(trigger) }),
);
