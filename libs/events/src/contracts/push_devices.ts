import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/**
 * A user's end-to-end-encrypted push device changed registration status (the push service owns devices); the events
 * service turns it into Zulip's `push_device` event for the user's clients.
 */
export const pushDeviceUpdated = defineEvent(
  'push_device.updated',
  z.object({
    user_id: z.number().int(),
    realm_id: z.number().int(),
    device_id: z.number().int(),
    /** Chosen by the client (an integer up to 2^53 - 1); Zulip's event carries it as a string. */
    push_account_id: z.number().int(),
    status: z.enum(['pending', 'active', 'failed']),
    error_code: z.string().nullable(),
  }),
);
