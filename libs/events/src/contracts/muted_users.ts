import { z } from 'zod';
import { defineEvent } from '../envelope.js';

export const mutedUserRecord = z.object({
  /** The muted user. */
  id: z.number().int(),
  /** When they were muted, Unix seconds. */
  timestamp: z.number().int(),
});

const mutedUserChange = z.object({
  /** Who muted or unmuted. */
  user_id: z.number().int(),
  realm_id: z.number().int(),
  muted_user_id: z.number().int(),
  /** Everyone `user_id` mutes after the change. */
  muted_users: z.array(mutedUserRecord),
});

/** `user_id` muted `muted_user_id`: their messages arrive already read for `user_id` (messaging applies it). */
export const mutedUserAdded = defineEvent('muted_user.added', mutedUserChange);
export const mutedUserRemoved = defineEvent('muted_user.removed', mutedUserChange);
