import { ConfabError, invalid } from '@confab/errors';
import { EVERYONE, INTERNET, NOBODY, OWNERS } from '@confab/zulip';
import type { GroupStore } from './store.js';
import { isAnonymous, type AnonymousValue, type SettingName, type SettingValue } from './types.js';

export interface SettingConfig {
  /** Guests can hold the permission (Zulip's allow_everyone_group); otherwise role:everyone is refused too. */
  allowEveryone: boolean;
  /** System groups the setting may not be set to. */
  forbidden: readonly string[];
  /** Value for a new user-defined group: the creator alone, or a system group. */
  defaultValue: 'creator' | typeof NOBODY | typeof EVERYONE;
}

/** Zulip's NamedUserGroup.GROUP_PERMISSION_SETTINGS, with docs/api.md's restriction of can_mention_group. */
export const SETTING_CONFIG: Record<SettingName, SettingConfig> = {
  can_add_members_group: { allowEveryone: false, forbidden: [INTERNET, EVERYONE], defaultValue: 'creator' },
  can_join_group: { allowEveryone: false, forbidden: [INTERNET, EVERYONE], defaultValue: NOBODY },
  can_leave_group: { allowEveryone: true, forbidden: [INTERNET], defaultValue: EVERYONE },
  can_manage_group: { allowEveryone: false, forbidden: [INTERNET, EVERYONE], defaultValue: 'creator' },
  can_mention_group: { allowEveryone: true, forbidden: [INTERNET, OWNERS], defaultValue: EVERYONE },
  can_remove_members_group: { allowEveryone: false, forbidden: [INTERNET, EVERYONE], defaultValue: NOBODY },
};

const sortedUnique = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);

export function anonymous(members: readonly number[], subgroups: readonly number[]): AnonymousValue {
  return { direct_members: sortedUnique(members), direct_subgroups: sortedUnique(subgroups) };
}

/** Zulip's parse_group_setting_value: one subgroup and no members is that group; nothing at all is role:nobody. */
export function simplify(value: SettingValue, nobodyId: number): SettingValue {
  if (!isAnonymous(value)) return value;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 1) return value.direct_subgroups[0]!;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 0) return nobodyId;
  return anonymous(value.direct_members, value.direct_subgroups);
}

/** Zulip's are_both_group_setting_values_equal: ids by value, anonymous groups as sets. */
export function sameValue(a: SettingValue, b: SettingValue): boolean {
  if (!isAnonymous(a) || !isAnonymous(b)) return a === b;
  const same = (x: readonly number[], y: readonly number[]) => {
    const sx = new Set(x);
    const sy = new Set(y);
    return sx.size === sy.size && [...sx].every((v) => sy.has(v));
  };
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
}

/** `old` did not match the current value: someone else changed the setting since the client looked. */
export const oldValueMismatch = () =>
  new ConfabError("'old' value does not match the expected value.", {
    code: 'EXPECTATION_MISMATCH',
    data: { field_name: 'old' },
  });

export const groupDeactivated = () => invalid('User group is deactivated.');

/**
 * Checks a (simplified) value for a setting the way Zulip's access_user_group_for_setting does and returns what to
 * store: named groups must exist in the organization, be active and be allowed for the setting; anonymous groups
 * need active users and active groups of the organization.
 */
export async function checkSettingValue(
  store: GroupStore,
  realmId: number,
  setting: SettingName,
  value: SettingValue,
): Promise<SettingValue> {
  if (!isAnonymous(value)) {
    const group = await store.group(realmId, value);
    if (!group) throw invalid('Invalid user group');
    if (group.deactivated) throw groupDeactivated();
    if (group.isSystemGroup && SETTING_CONFIG[setting].forbidden.includes(group.name)) {
      throw invalid(`'${setting}' setting cannot be set to '${group.name}' group.`);
    }
    return value;
  }
  const users = new Map((await store.users(realmId, value.direct_members)).map((u) => [u.id, u]));
  for (const id of value.direct_members) {
    if (!users.get(id)?.isActive) throw invalid(`Invalid user ID: ${id}`);
  }
  const groups = new Map((await store.groups(realmId, value.direct_subgroups)).map((g) => [g.id, g]));
  for (const id of value.direct_subgroups) {
    if (!groups.has(id)) throw invalid(`Invalid user group ID: ${id}`);
  }
  if ([...groups.values()].some((g) => g.deactivated)) throw groupDeactivated();
  return anonymous(value.direct_members, value.direct_subgroups);
}

/** Whether the user is in the set a value describes (recursively; active users only). */
export async function valueIncludes(store: GroupStore, value: SettingValue, userId: number): Promise<boolean> {
  if (!isAnonymous(value)) return store.isRecursiveMember(value, userId);
  if (value.direct_members.includes(userId)) {
    const user = await store.user(userId);
    if (user?.isActive) return true;
  }
  for (const subgroup of value.direct_subgroups) {
    if (await store.isRecursiveMember(subgroup, userId)) return true;
  }
  return false;
}

/** A value as clients see it: deactivated users are left out of anonymous groups (Zulip ≥ feature level 303). */
export function apiValue(value: SettingValue, activeUserIds: ReadonlySet<number>): SettingValue {
  if (!isAnonymous(value)) return value;
  return anonymous(
    value.direct_members.filter((id) => activeUserIds.has(id)),
    value.direct_subgroups,
  );
}

/** Whether the value names this group, directly or as a subgroup of an anonymous group. */
export function valueUsesGroup(value: SettingValue, groupId: number): boolean {
  return isAnonymous(value) ? value.direct_subgroups.includes(groupId) : value === groupId;
}
