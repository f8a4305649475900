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
  /**
   * Who may see delivery_email (Zulip's email_address_visibility: 1 everyone, 2 members, 3 administrators, 4 nobody,
   * 5 moderators); absent from records published before it existed, which count as 1.
   */
  email_address_visibility: z.number().int().optional(),
  /**
   * The uploaded avatar's URL (relative, with `?version=N`), or null for the default (Gravatar) one; absent from
   * records published before it existed.
   */
  avatar_url: z.string().nullable().optional(),
  /** Counts the avatar's changes (Zulip's avatar_version); absent from records published before it, which count as 1. */
  avatar_version: z.number().int().optional(),
  /** An account an import created and nobody has signed in to yet; absent from older records (false). */
  is_imported_stub: z.boolean().optional(),
});
export type UserRecord = z.infer<typeof userRecord>;

/** Zulip's ROLE_TO_ACCESSIBLE_EMAIL_ADDRESS_VISIBILITY_IDS: the email_address_visibility values each role sees past. */
export const EMAIL_VISIBILITIES_SEEN_BY_ROLE: Readonly<Record<number, readonly number[]>> = {
  100: [1, 2, 5, 3],
  200: [1, 2, 5, 3],
  300: [1, 2, 5],
  400: [1, 2],
  600: [1],
};

/** Zulip's can_access_delivery_email: one's own address, or one whose visibility admits the viewer's role. */
export function canSeeDeliveryEmail(
  viewer: { userId: number; role: number },
  target: { userId: number; emailAddressVisibility: number },
): boolean {
  return (
    viewer.userId === target.userId ||
    (EMAIL_VISIBILITIES_SEEN_BY_ROLE[viewer.role] ?? []).includes(target.emailAddressVisibility)
  );
}

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
/**
 * The user uploaded or removed their avatar (Zulip's avatar_source "U" or "G"): `avatar_url` is the new picture's
 * address as the settings service serves it (a relative URL for an uploaded one), `avatar_version` counts changes.
 */
export const userAvatarChanged = defineEvent(
  'user.avatar_changed',
  z.object({
    user_id: z.number().int(),
    realm_id: z.number().int(),
    avatar_source: z.enum(['U', 'G']),
    avatar_url: z.string(),
    /** The 500×500 picture (Zulip's avatar_url_medium); absent from events published before it existed. */
    avatar_url_medium: z.string().optional(),
    avatar_version: z.number().int(),
  }),
);
