import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A scheduled message as GET /scheduled_messages lists it (the messaging service owns them). */
export const scheduledMessageRecord = z.object({
  scheduled_message_id: z.number().int(),
  type: z.enum(['stream', 'private']),
  /** A channel ID, or the recipients' user IDs. */
  to: z.union([z.number().int(), z.array(z.number().int())]),
  /** Channel messages only. */
  topic: z.string().optional(),
  content: z.string(),
  rendered_content: z.string(),
  /** Unix time in seconds. */
  scheduled_delivery_timestamp: z.number().int(),
  failed: z.boolean(),
});
export type ScheduledMessageRecord = z.infer<typeof scheduledMessageRecord>;

const owner = { user_id: z.number().int() };

/** Zulip's `scheduled_messages` events, for the owner's clients. */
export const scheduledMessagesAdded = defineEvent(
  'scheduled_message.added',
  z.object({ ...owner, scheduled_messages: z.array(scheduledMessageRecord) }),
);
export const scheduledMessageUpdated = defineEvent(
  'scheduled_message.updated',
  z.object({ ...owner, scheduled_message: scheduledMessageRecord }),
);
export const scheduledMessageRemoved = defineEvent(
  'scheduled_message.removed',
  z.object({ ...owner, scheduled_message_id: z.number().int() }),
);
/**
 * Scheduled messages of one owner delivered together (a batch of a due time, see messaging's scheduled-batch.ts):
 * for each, what `scheduled_message.removed` says for one. One event per owner and batch instead of one per message.
 */
export const scheduledMessagesDelivered = defineEvent(
  'scheduled_message.delivered',
  z.object({ ...owner, scheduled_message_ids: z.array(z.number().int()).min(1) }),
);
