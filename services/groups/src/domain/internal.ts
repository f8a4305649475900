import type { contracts } from '@confab/events';
import { invalid, notFound } from '@confab/errors';
import { resolveRealmPermission } from './access.js';
import { groupRecord, viewsOf } from './records.js';
import { valueIncludes } from './setting-values.js';
import type { GroupsDatabase } from './store.js';
import type { SettingValue } from './types.js';

/**
 * Answers for other services that need them strongly consistent (the events give the same answers eventually).
 * Membership is recursive and counts active users only.
 */

/** Is the user in the group (recursively unless `directOnly`)? 404 when the group is not in the user's organization. */
export async function userInGroup(
  db: GroupsDatabase,
  groupId: number,
  userId: number,
  directOnly: boolean,
): Promise<boolean> {
  return db.read(async (store) => {
    const user = await store.user(userId);
    const group = user ? await store.group(user.realmId, groupId) : null;
    if (!user || !group) throw notFound('Invalid user group');
    if (!directOnly) return store.isRecursiveMember(group.id, user.id);
    return ((await store.directMembers([group.id])).get(group.id) ?? []).includes(user.id);
  });
}

/**
 * Does a group-setting value (a group id, an anonymous group, or a realm permission's system group name) include the
 * user? Values naming groups of another organization include nobody.
 */
export async function evaluateSetting(
  db: GroupsDatabase,
  realmId: number,
  userId: number,
  value: SettingValue | contracts.GroupRef,
): Promise<boolean> {
  return db.read(async (store) => {
    const user = await store.user(userId);
    if (!user || user.realmId !== realmId || !user.isActive) return false;
    const resolved = typeof value === 'string' ? await resolveRealmPermission(store, realmId, value) : value;
    if (resolved === null) return false;
    if (typeof resolved === 'number') {
      return (await store.group(realmId, resolved)) !== null && store.isRecursiveMember(resolved, userId);
    }
    // Only this organization's groups count; the user is known to be active and of this organization.
    const subgroups = (await store.groups(realmId, resolved.direct_subgroups)).map((g) => g.id);
    return valueIncludes(store, { direct_members: resolved.direct_members, direct_subgroups: subgroups }, userId);
  });
}

/** Every group after `afterId` (any organization) with its direct and recursive membership, for other services' backfills. */
export async function groupsAfter(db: GroupsDatabase, afterId: number, limit: number) {
  return db.read(async (store) => {
    const groups = await store.groupsAfter(afterId, limit);
    const views = await viewsOf(store, groups);
    const flattened = await store.recursiveMembers(groups.map((g) => g.id));
    return views.map((view) => ({
      group: groupRecord(view),
      direct_members: view.members,
      direct_subgroups: view.subgroups,
      members: flattened.get(view.group.id) ?? [],
    }));
  });
}

/**
 * Active members (through subgroups) of several groups of one organization, for settings' `target_users.group_ids`.
 * The first id that is not a group of the organization is refused with Zulip's text.
 */
export async function activeMembersOf(
  db: GroupsDatabase,
  realmId: number,
  groupIds: readonly number[],
): Promise<number[]> {
  return db.read(async (store) => {
    const found = new Set((await store.groups(realmId, groupIds)).map((g) => g.id));
    const missing = groupIds.find((id) => !found.has(id));
    if (missing !== undefined) throw invalid(`Invalid user group ID: ${missing}`);
    const members = await store.recursiveMembers([...found]);
    return [...new Set([...members.values()].flat())].sort((a, b) => a - b);
  });
}
