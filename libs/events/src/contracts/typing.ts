import { z } from 'zod';
import { defineEvent } from '../envelope.js';

const person = z.object({ user_id: z.number().int(), email: z.string() });

/**
 * Someone started or stopped composing. `user_ids` are the users to notify: the conversation's other participants
 * (or the channel's subscribers) whose `receives_typing_notifications` setting is on.
 */
const typingChange = z.object({
  sender: person,
  message_type: z.enum(['direct', 'stream']),
  /** Direct messages: every participant, the sender included. */
  recipients: z.array(person).optional(),
  stream_id: z.number().int().optional(),
  topic: z.string().optional(),
  user_ids: z.array(z.number().int()),
});

export const typingStarted = defineEvent('typing.started', typingChange);
export const typingStopped = defineEvent('typing.stopped', typingChange);

/** Someone started or stopped editing a message (Zulip's `typing_edit_message` event). */
const editTypingChange = z.object({
  sender_id: z.number().int(),
  message_id: z.number().int(),
  recipient: z.union([
    z.object({ type: z.literal('channel'), channel_id: z.number().int(), topic: z.string() }),
    z.object({ type: z.literal('direct'), user_ids: z.array(z.number().int()) }),
  ]),
  user_ids: z.array(z.number().int()),
});

export const typingEditMessageStarted = defineEvent('typing_edit_message.started', editTypingChange);
export const typingEditMessageStopped = defineEvent('typing_edit_message.stopped', editTypingChange);
