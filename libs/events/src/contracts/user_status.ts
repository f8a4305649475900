import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A user's status changed; only the fields the user set are present (Zulip's user_status event). */
export const userStatusChanged = defineEvent(
  'user_status.changed',
  z.object({
    user_id: z.number().int(),
    realm_id: z.number().int(),
    /** Deprecated: `away` is the opposite of the user's `presence_enabled` setting. */
    away: z.boolean().optional(),
    status_text: z.string().optional(),
    emoji_name: z.string().optional(),
    emoji_code: z.string().optional(),
    reaction_type: z.string().optional(),
  }),
);
