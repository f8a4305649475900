import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A user as other services keep it in their own read models (the settings service owns users). */
export const userRecord = z.object({
  user_id: z.number().int(),
  realm_id: z.number().int(),
  /** API email (what clients address the user by). */
  email: z.string(),
  delivery_email: z.string(),
  full_name: z.string(),
  role: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]),
  is_bot: z.boolean(),
  /** null for humans; 1 generic, 2 incoming webhook, 3 outgoing webhook, 4 embedded. */
  bot_type: z.number().int().nullable(),
  bot_owner_id: z.number().int().nullable(),
  /** Zulip's system bots (the Notification Bot, which posts notices of moved and resolved topics). */
  is_system_bot: z.boolean().optional(),
  is_active: z.boolean(),
  timezone: z.string(),
  date_joined: z.string(),
});
export type UserRecord = z.infer<typeof userRecord>;

const userSnapshot = z.object({ user: userRecord });

/**
 * `via_invitation`: the account was made by a sign-up through an invitation, whose own steps subscribe it (to the
 * invitation's channels, and to the default channels only if the invitation says so); other new members are
 * subscribed to the organization's default channels when messaging hears of them.
 */
export const userCreated = defineEvent('user.created', userSnapshot.extend({ via_invitation: z.boolean().optional() }));
/** Profile changes (name, email, time zone); carries the whole record after the change. */
export const userUpdated = defineEvent('user.updated', userSnapshot);
export const userRoleChanged = defineEvent('user.role_changed', userSnapshot);
export const userDeactivated = defineEvent('user.deactivated', userSnapshot);
export const userReactivated = defineEvent('user.reactivated', userSnapshot);
/** The user's API keys were replaced; cached credentials must be dropped. */
export const userApiKeyChanged = defineEvent('user.api_key_changed', z.object({ user_id: z.number().int() }));
/** The user's password was changed; the gateway ends their browser sessions. */
export const userPasswordChanged = defineEvent('user.password_changed', z.object({ user_id: z.number().int() }));
