import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER } from '@confab/identity';
import type { Group, GroupSettingValue, PermissionValue, Realm, User } from './types.js';

/** What permission checks need to know about groups: the organization's groups and recursive membership. */
export interface GroupLookup {
  groupsOf(realmId: number): Promise<Map<number, Group>>;
  /** Which of `groupIds` (non-system groups) the user belongs to, recursively. */
  memberGroupIds(userId: number, groupIds: readonly number[]): Promise<Set<number>>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a user belongs to a system group, decided from the role as Zulip does
 * (check_user_has_permission_by_role): system groups are defined by roles, so no membership rows are needed.
 */
export function inSystemGroup(
  name: string,
  user: Pick<User, 'role' | 'dateJoined'>,
  realm: Pick<Realm, 'waitingPeriodThreshold'>,
  now = Date.now(),
): boolean {
  switch (name) {
    case 'role:internet':
    case 'role:everyone':
      return true;
    case 'role:members':
      return user.role <= ROLE_MEMBER;
    case 'role:fullmembers':
      if (user.role < ROLE_MEMBER) return true;
      return user.role === ROLE_MEMBER && now - user.dateJoined.getTime() >= realm.waitingPeriodThreshold * DAY_MS;
    case 'role:moderators':
      return user.role <= ROLE_MODERATOR;
    case 'role:administrators':
      return user.role <= ROLE_ADMINISTRATOR;
    case 'role:owners':
      return user.role === ROLE_OWNER;
    default:
      // role:nobody and unknown names hold nothing.
      return false;
  }
}

/** Users of a system group among `users` (for showing a role-defined group as an anonymous group). */
export function systemGroupMembers(name: string, users: readonly User[], realm: Realm): number[] {
  return users.filter((u) => inSystemGroup(name, u, realm)).map((u) => u.id);
}

export const isGuest = (user: Pick<User, 'role'>) => user.role === ROLE_GUEST;
export const isAdmin = (user: Pick<User, 'role'>) => user.role <= ROLE_ADMINISTRATOR;

/** Decides whether a user holds a group-valued permission. */
export class Permissions {
  constructor(private readonly groups: GroupLookup) {}

  async has(user: User, realm: Realm, value: PermissionValue | undefined): Promise<boolean> {
    if (value === undefined) return false;
    if (typeof value === 'string') return inSystemGroup(value, user, realm);
    const groups = await this.groups.groupsOf(realm.id);
    return this.inValue(user, realm, value, groups);
  }

  private async inValue(
    user: User,
    realm: Realm,
    value: GroupSettingValue,
    groups: Map<number, Group>,
  ): Promise<boolean> {
    if (typeof value === 'number') return this.inGroups(user, realm, [value], groups);
    if (value.direct_members.includes(user.id)) return true;
    return this.inGroups(user, realm, value.direct_subgroups, groups);
  }

  private async inGroups(
    user: User,
    realm: Realm,
    ids: readonly number[],
    groups: Map<number, Group>,
  ): Promise<boolean> {
    const others: number[] = [];
    for (const id of ids) {
      const group = groups.get(id);
      if (group?.isSystemGroup) {
        if (inSystemGroup(group.name, user, realm)) return true;
      } else {
        others.push(id);
      }
    }
    if (others.length === 0) return false;
    return (await this.groups.memberGroupIds(user.id, others)).size > 0;
  }

  /** An organization permission (`can_mention_many_users_group`, ...); unset means nobody. */
  realmPermission(user: User, realm: Realm, setting: string): Promise<boolean> {
    return this.has(user, realm, realm.permissions[setting]);
  }
}
