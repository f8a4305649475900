import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** An emoji reaction changed on a message; `user_ids` are those who can see the message. */
const reactionChange = z.object({
  message_id: z.number().int(),
  user_id: z.number().int(),
  emoji_name: z.string(),
  emoji_code: z.string(),
  reaction_type: z.enum(['unicode_emoji', 'realm_emoji', 'service_extra_emoji']),
  user_ids: z.array(z.number().int()),
  /** The reacting user's email and name, for Zulip's deprecated `user` object (absent in events from before). */
  user: z.object({ email: z.string(), full_name: z.string() }).optional(),
});

export const reactionAdded = defineEvent('reaction.added', reactionChange);
export const reactionRemoved = defineEvent('reaction.removed', reactionChange);
