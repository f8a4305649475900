import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/**
 * A user came online (or their presence sharing was switched on or off), so other users' clients show them at once
 * instead of at their next presence poll. Published by the settings service, which keeps presence in Redis.
 */
export const presenceChanged = defineEvent(
  'presence.changed',
  z.object({
    user_id: z.number().int(),
    realm_id: z.number().int(),
    email: z.string(),
    /** Unix seconds: last time the user was active, and last time any client of theirs was connected. */
    active_timestamp: z.number().int(),
    idle_timestamp: z.number().int(),
    /** When the server recorded it (Unix seconds with a fraction, as Zulip's `server_timestamp`). */
    server_timestamp: z.number(),
    /** Zulip's legacy one-client view of the same data (the shape of clients' `presence` events). */
    status: z.enum(['active', 'idle']),
    timestamp: z.number().int(),
  }),
);
export type PresenceChanged = z.infer<typeof presenceChanged.schema>;
