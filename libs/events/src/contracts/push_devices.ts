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

/** Zulip's fields of a client device's push registration; in an update, only those that changed (null clears). */
const clientDeviceFields = z
  .object({
    push_key_id: z.number().int().nullable(),
    push_token_id: z.string().nullable(),
    pending_push_token_id: z.string().nullable(),
    push_token_last_updated_timestamp: z.number().int().nullable(),
    push_registration_error_code: z.string().nullable(),
  })
  .partial()
  .strict();

/**
 * A user's client device (POST /register_client_device, feature level 468) was added, removed, or its push
 * registration changed; the events service turns it into Zulip's `device` event for the user's clients.
 */
export const clientDeviceChanged = defineEvent(
  'client_device.changed',
  z.object({
    user_id: z.number().int(),
    realm_id: z.number().int(),
    device_id: z.number().int(),
    op: z.enum(['add', 'remove', 'update']),
    changes: clientDeviceFields,
  }),
);
