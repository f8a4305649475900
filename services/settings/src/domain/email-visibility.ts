import { contracts } from '@confab/events';
import type { Role } from '@confab/identity';
import { realmUrl } from './realms.js';
import type { Realm, User } from './types.js';

/**
 * Zulip's email_address_visibility (zerver/models/users.py): who may see a user's real (delivery) email. Everyone
 * else sees the dummy API email `user{id}@{organization host}` and a null delivery_email.
 */
export const EMAIL_VISIBILITY_EVERYONE = 1;
export const EMAIL_VISIBILITY_MEMBERS = 2;
export const EMAIL_VISIBILITY_ADMINS = 3;
export const EMAIL_VISIBILITY_NOBODY = 4;
export const EMAIL_VISIBILITY_MODERATORS = 5;
export const EMAIL_VISIBILITY_VALUES = [1, 2, 3, 4, 5] as const;

export interface Viewer {
  userId: number;
  role: Role;
}

/** Zulip's can_access_delivery_email: one's own address, or one whose visibility admits the viewer's role. */
export function canSeeDeliveryEmail(viewer: Viewer, target: Pick<User, 'id' | 'emailAddressVisibility'>): boolean {
  return contracts.canSeeDeliveryEmail(viewer, {
    userId: target.id,
    emailAddressVisibility: target.emailAddressVisibility,
  });
}

/** The domain of dummy addresses: the organization's host name (Zulip's get_fake_email_domain). */
export function dummyEmailDomain(realm: Pick<Realm, 'stringId'>, externalUrl: string): string {
  return new URL(realmUrl(realm, externalUrl)).hostname;
}

/** The API email a user is addressed by: the delivery email if everyone may see it, else the dummy address. */
export function apiEmailFor(
  user: Pick<User, 'id' | 'deliveryEmail'>,
  visibility: number,
  realm: Pick<Realm, 'stringId'>,
  externalUrl: string,
): string {
  if (visibility === EMAIL_VISIBILITY_EVERYONE) return user.deliveryEmail;
  return `user${user.id}@${dummyEmailDomain(realm, externalUrl)}`;
}

/** The user id a dummy address names (`user12@host`), or null for any other address. */
export function dummyEmailUserId(email: string, realm: Pick<Realm, 'stringId'>, externalUrl: string): number | null {
  const domain = dummyEmailDomain(realm, externalUrl).toLowerCase();
  const match = /^user([0-9]{1,10})@(.+)$/i.exec(email.trim());
  if (!match || match[2]!.toLowerCase() !== domain) return null;
  return Number(match[1]);
}
