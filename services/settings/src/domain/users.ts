import { createHash } from 'node:crypto';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_OWNER, type UserIdentity } from '@confab/identity';
import type { contracts } from '@confab/events';
import { canSeeDeliveryEmail, type Viewer } from './email-visibility.js';
import type { User } from './types.js';

/** Where an uploaded avatar is served (without authentication, as Zulip serves /user_avatars). */
export function uploadedAvatarPath(realmId: number, fileName: string): string {
  return `/user_avatars/${realmId}/${fileName}`;
}

/**
 * The user's uploaded avatar (a relative URL, versioned for cache-busting), else Zulip's default: Gravatar's
 * identicon. Hashed from the API email, which is the delivery email unless the user hides it (a hash of a hidden
 * address would give it away to a guess), and which is what clients hash themselves under client_gravatar.
 */
export function avatarUrl(user: User, medium = false): string {
  if (user.avatarFile) {
    // Zulip's medium avatar is `<name>-medium.png` beside the 100×100 `<name>.png`.
    const file = medium ? user.avatarFile.replace(/\.png$/, '-medium.png') : user.avatarFile;
    return `${uploadedAvatarPath(user.realmId, file)}?version=${user.avatarVersion}`;
  }
  const hash = createHash('md5').update(user.email.toLowerCase()).digest('hex');
  return `https://secure.gravatar.com/avatar/${hash}?d=identicon${medium ? '&s=500' : ''}&version=${user.avatarVersion}`;
}

/** Django's isoformat of an aware datetime: microseconds and a +00:00 offset. */
export function formatDate(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

/** The own-user record of GET /users/me (docs/api.md), with the newest message they received (-1: none). */
export function ownUserRecord(
  user: User,
  maxMessageId: number,
  profileData: Record<string, unknown> = {},
): Record<string, unknown> {
  const record: Record<string, unknown> = {
    user_id: user.id,
    email: user.email,
    delivery_email: user.deliveryEmail,
    full_name: user.fullName,
    avatar_url: avatarUrl(user),
    avatar_version: user.avatarVersion,
    is_admin: user.role <= ROLE_ADMINISTRATOR,
    is_owner: user.role === ROLE_OWNER,
    is_guest: user.role === ROLE_GUEST,
    is_bot: user.isBot,
    is_active: user.isActive,
    is_imported_stub: user.isImportedStub,
    role: user.role,
    timezone: user.timezone,
    date_joined: formatDate(user.dateJoined),
    max_message_id: maxMessageId,
  };
  if (!user.isBot) record.profile_data = profileData;
  return record;
}

/** Zulip's user object (GET /users, GET /users/{id}, the JWT key retrieval profile). */
export function apiUserRecord(
  user: User,
  options: {
    clientGravatar: boolean;
    includeCustomProfileFields: boolean;
    /** Who is looking: delivery_email is null unless the user's email_address_visibility admits them. */
    viewer?: Viewer | undefined;
  },
  profileData: Record<string, unknown> = {},
): Record<string, unknown> {
  const record: Record<string, unknown> = {
    user_id: user.id,
    delivery_email: !options.viewer || canSeeDeliveryEmail(options.viewer, user) ? user.deliveryEmail : null,
    email: user.email,
    full_name: user.fullName,
    date_joined: formatDate(user.dateJoined),
    is_active: user.isActive,
    is_owner: user.role === ROLE_OWNER,
    is_admin: user.role <= ROLE_ADMINISTRATOR,
    is_guest: user.role === ROLE_GUEST,
    is_bot: user.isBot,
    bot_type: user.botType,
    role: user.role,
    timezone: user.timezone,
    // With client_gravatar the client computes Gravatar URLs itself; an uploaded avatar's URL is always sent.
    avatar_url: options.clientGravatar && !user.avatarFile ? null : avatarUrl(user),
    avatar_version: user.avatarVersion,
    is_imported_stub: user.isImportedStub,
  };
  if (user.isBot) record.bot_owner_id = user.botOwnerId;
  else if (options.includeCustomProfileFields) record.profile_data = profileData;
  return record;
}

export function userRecord(user: User): contracts.UserRecord {
  return {
    user_id: user.id,
    realm_id: user.realmId,
    email: user.email,
    delivery_email: user.deliveryEmail,
    full_name: user.fullName,
    role: user.role,
    is_bot: user.isBot,
    bot_type: user.botType,
    bot_owner_id: user.botOwnerId,
    ...(user.isSystemBot ? { is_system_bot: true } : {}),
    is_active: user.isActive,
    timezone: user.timezone,
    date_joined: user.dateJoined.toISOString(),
    email_address_visibility: user.emailAddressVisibility,
    avatar_url: user.avatarFile ? avatarUrl(user) : null,
    avatar_version: user.avatarVersion,
    is_imported_stub: user.isImportedStub,
  };
}

export function identityOf(user: User): UserIdentity {
  return {
    kind: 'user',
    userId: user.id,
    realmId: user.realmId,
    role: user.role,
    email: user.email,
    isBot: user.isBot,
  };
}
