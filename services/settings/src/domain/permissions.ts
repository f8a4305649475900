import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER } from '@confab/identity';
import type { GroupDirectory } from './ports.js';
import { realmPermissions } from './realms.js';
import type { GroupRef, Realm, User } from './types.js';

const DAY_MS = 86_400_000;

/** Zulip's is_provisional_member: a member for fewer days than the organization's waiting period. */
function isFullMember(user: User, realm: Realm, now = Date.now()): boolean {
  if (user.role > ROLE_MEMBER) return false;
  if (user.role < ROLE_MEMBER) return true;
  return Math.floor((now - user.dateJoined.getTime()) / DAY_MS) >= realm.waitingPeriodThreshold;
}

/** Membership of a system group follows from the user's role (and, for full members, their tenure). */
export function inSystemGroup(name: string, user: User, realm: Realm): boolean {
  switch (name) {
    case 'role:everyone':
      return user.role <= ROLE_GUEST;
    case 'role:members':
      return user.role <= ROLE_MEMBER;
    case 'role:fullmembers':
      return isFullMember(user, realm);
    case 'role:moderators':
      return user.role <= ROLE_MODERATOR;
    case 'role:administrators':
      return user.role <= ROLE_ADMINISTRATOR;
    case 'role:owners':
      return user.role === ROLE_OWNER;
    default:
      return false;
  }
}

/**
 * Whether an active user holds one of the organization's group-valued permissions. System groups are decided
 * here from the role; a user-defined group is a question for the groups service, which owns memberships.
 */
export async function hasRealmPermission(
  groups: GroupDirectory,
  realm: Realm,
  user: User,
  setting: string,
): Promise<boolean> {
  if (!user.isActive) return false;
  const ref: GroupRef | undefined = realmPermissions(realm)[setting];
  if (ref === undefined) return false;
  if (typeof ref === 'string') return inSystemGroup(ref, user, realm);
  return groups.isMember(realm.id, user.id, ref);
}
