import { invalid, isConfabError } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_GUEST } from '@confab/identity';
import type { contracts } from '@confab/events';
import { OWNERS } from '@confab/zulip';
import { groupDeactivated, SETTING_CONFIG, valueIncludes } from './setting-values.js';
import type { GroupStore } from './store.js';
import type { Actor, Group, SettingName, SettingValue } from './types.js';

export const insufficientPermission = () => invalid('Insufficient permission');
export const invalidGroup = () => invalid('Invalid user group');

/** Zulip's @require_member_or_admin: no guests and no bots. */
export function requireMemberOrAdmin(actor: Actor): void {
  if (actor.role === ROLE_GUEST) throw invalid('Not allowed for guest users');
  if (actor.isBot) throw invalid('This endpoint does not accept bot requests.');
}

/** Guests are refused; bots may edit groups since feature level 496. */
export function requireNonGuest(actor: Actor): void {
  if (actor.role === ROLE_GUEST) throw invalid('Not allowed for guest users');
}

/** Zulip's user_has_permission_for_group_setting: guests never hold settings that exclude role:everyone. */
export async function holds(
  store: GroupStore,
  actor: Actor,
  value: SettingValue,
  allowEveryone: boolean,
): Promise<boolean> {
  if (!allowEveryone && actor.role === ROLE_GUEST) return false;
  return valueIncludes(store, value, actor.userId);
}

/** A realm permission (a system group name or a group id) as a group id of this organization. */
export async function resolveRealmPermission(
  store: GroupStore,
  realmId: number,
  ref: contracts.GroupRef,
): Promise<number | null> {
  if (typeof ref === 'number') return ref;
  return (await store.groupByName(realmId, ref))?.id ?? null;
}

/** Whether the actor holds a group-valued organization permission that excludes guests (e.g. can_create_groups). */
export async function holdsRealmPermission(
  store: GroupStore,
  actor: Actor,
  setting: string,
  fallback: contracts.GroupRef,
): Promise<boolean> {
  const realm = await store.realm(actor.realmId);
  const groupId = await resolveRealmPermission(store, actor.realmId, realm?.permissions[setting] ?? fallback);
  return groupId !== null && holds(store, actor, groupId, false);
}

/** Administrators, and whoever the organization's can_manage_all_groups names, manage every user-defined group. */
export async function managesAllGroups(store: GroupStore, actor: Actor): Promise<boolean> {
  if (actor.role <= ROLE_ADMINISTRATOR) return true;
  return holdsRealmPermission(store, actor, 'can_manage_all_groups', OWNERS);
}

/** A group of the actor's organization, or Zulip's `Invalid user group`. */
export async function groupInRealm(
  store: GroupStore,
  actor: Actor,
  groupId: number,
  allowDeactivated: boolean,
): Promise<Group> {
  const group = await store.group(actor.realmId, groupId);
  if (!group) throw invalidGroup();
  if (!allowDeactivated && group.deactivated) throw groupDeactivated();
  return group;
}

/**
 * Zulip's access_user_group_for_update: system groups are never edited through the API; managers of the group (or
 * of all groups) may do anything; otherwise the actor needs the given setting.
 */
export async function groupForUpdate(
  store: GroupStore,
  actor: Actor,
  groupId: number,
  setting: SettingName,
  options: { allowDeactivated: boolean },
): Promise<Group> {
  const group = await groupInRealm(store, actor, groupId, options.allowDeactivated);
  if (group.isSystemGroup) throw insufficientPermission();
  if (await managesAllGroups(store, actor)) return group;
  if (await holds(store, actor, group.settings.can_manage_group, SETTING_CONFIG.can_manage_group.allowEveryone))
    return group;
  if (
    setting !== 'can_manage_group' &&
    (await holds(store, actor, group.settings[setting], SETTING_CONFIG[setting].allowEveryone))
  ) {
    return group;
  }
  throw insufficientPermission();
}

/** Like groupForUpdate with the first setting, falling back to the second (joining via can_add_members_group...). */
export async function groupForUpdateEither(
  store: GroupStore,
  actor: Actor,
  groupId: number,
  first: SettingName,
  second: SettingName,
): Promise<Group> {
  try {
    return await groupForUpdate(store, actor, groupId, first, { allowDeactivated: true });
  } catch (err) {
    if (!isConfabError(err)) throw err;
    return groupForUpdate(store, actor, groupId, second, { allowDeactivated: true });
  }
}
