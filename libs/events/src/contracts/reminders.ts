import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A reminder as GET /reminders lists it (the messaging service owns them, as scheduled messages). */
export const reminderRecord = z.object({
  reminder_id: z.number().int(),
  type: z.literal('private'),
  to: z.array(z.number().int()),
  content: z.string(),
  rendered_content: z.string(),
  /** Unix time in seconds. */
  scheduled_delivery_timestamp: z.number().int(),
  failed: z.boolean(),
  reminder_target_message_id: z.number().int(),
});
export type ReminderRecord = z.infer<typeof reminderRecord>;

const owner = { user_id: z.number().int() };

/** Zulip's `reminders` events, for the owner's clients. */
export const remindersAdded = defineEvent('reminder.added', z.object({ ...owner, reminders: z.array(reminderRecord) }));
export const reminderRemoved = defineEvent('reminder.removed', z.object({ ...owner, reminder_id: z.number().int() }));
