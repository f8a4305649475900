import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/**
 * The organization's invitations changed (created, revoked, resent, used): Zulip's `invites_changed`, for its
 * administrators and the invitation's creator, whose clients then fetch GET /invites again.
 */
export const invitesChanged = defineEvent(
  'invites.changed',
  z.object({ realm_id: z.number().int(), referrer_id: z.number().int() }),
);
