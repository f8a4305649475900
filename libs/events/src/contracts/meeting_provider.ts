import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/**
 * Whether the user holds a working token for the configured meeting provider changed (authorization completed,
 * or the token was refused and dropped); clients learn it as the `has_meetingprovider_token` event.
 */
export const meetingProviderTokenChanged = defineEvent(
  'meeting_provider_token.changed',
  z.object({ user_id: z.number().int(), realm_id: z.number().int(), has_token: z.boolean() }),
);
