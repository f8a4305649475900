import { invalid } from '@confab/errors';
import { groupForUpdate, groupForUpdateEither, requireNonGuest } from './access.js';
import { emptyChange, membersChangedEvents, trackRecursiveMembership, type MembershipChange } from './records.js';
import { groupDeactivated } from './setting-values.js';
import type { GroupsDatabase, GroupStore } from './store.js';
import type { Actor, Group } from './types.js';

export interface MembershipInput {
  add?: number[] | undefined;
  delete?: number[] | undefined;
  addSubgroups?: number[] | undefined;
  deleteSubgroups?: number[] | undefined;
}

const given = (ids: number[] | undefined): ids is number[] => ids !== undefined && ids.length > 0;

/** Zulip's user_ids_to_users: every id must be an active user of the organization. */
async function activeUsers(store: GroupStore, actor: Actor, ids: readonly number[]): Promise<number[]> {
  const found = new Map((await store.users(actor.realmId, ids)).map((u) => [u.id, u]));
  for (const id of ids) if (!found.get(id)?.isActive) throw invalid(`Invalid user ID: ${id}`);
  return [...new Set(ids)];
}

/** The groups named as subgroups: all must exist in the organization and be active. */
async function potentialSubgroups(store: GroupStore, actor: Actor, ids: readonly number[]): Promise<Group[]> {
  const found = new Map((await store.groups(actor.realmId, ids)).map((g) => [g.id, g]));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw invalid(`Invalid user group ID: ${missing}`);
  if ([...found.values()].some((g) => g.deactivated)) throw groupDeactivated();
  return [...found.values()];
}

async function addMembers(store: GroupStore, actor: Actor, groupId: number, ids: number[], change: MembershipChange) {
  const group =
    ids.length === 1 && ids[0] === actor.userId
      ? await groupForUpdateEither(store, actor, groupId, 'can_join_group', 'can_add_members_group')
      : await groupForUpdate(store, actor, groupId, 'can_add_members_group', { allowDeactivated: true });
  const users = await activeUsers(store, actor, ids);
  const existing = new Set((await store.directMembers([group.id])).get(group.id));
  for (const id of users) if (existing.has(id)) throw invalid(`User ${id} is already a member of this group`);
  await store.addMembers(group.id, users);
  change.added_members.push(...users);
}

async function removeMembers(
  store: GroupStore,
  actor: Actor,
  groupId: number,
  ids: number[],
  change: MembershipChange,
) {
  const users = await activeUsers(store, actor, ids);
  const group =
    ids.length === 1 && ids[0] === actor.userId
      ? await groupForUpdateEither(store, actor, groupId, 'can_leave_group', 'can_remove_members_group')
      : await groupForUpdate(store, actor, groupId, 'can_remove_members_group', { allowDeactivated: true });
  const current = new Set((await store.directMembers([group.id])).get(group.id));
  for (const id of ids) if (!current.has(id)) throw invalid(`There is no member '${id}' in this user group`);
  await store.removeMembers(group.id, users);
  change.removed_members.push(...users);
}

/** Adds subgroups, refusing any that would make the group contain itself (across the whole graph). */
async function addSubgroups(store: GroupStore, actor: Actor, groupId: number, ids: number[], change: MembershipChange) {
  const group = await groupForUpdate(store, actor, groupId, 'can_add_members_group', { allowDeactivated: true });
  const subgroups = await potentialSubgroups(store, actor, ids);
  const existing = new Set((await store.directSubgroups([group.id])).get(group.id));
  for (const id of ids) if (existing.has(id)) throw invalid(`User group ${id} is already a subgroup of this group.`);
  if ((await store.recursiveSubgroups(subgroups.map((g) => g.id))).includes(group.id)) {
    throw invalid(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
  }
  const added = [...new Set(ids)];
  await store.addSubgroups(group.id, added);
  change.added_subgroups.push(...added);
}

async function removeSubgroups(
  store: GroupStore,
  actor: Actor,
  groupId: number,
  ids: number[],
  change: MembershipChange,
) {
  const group = await groupForUpdate(store, actor, groupId, 'can_manage_group', { allowDeactivated: true });
  await potentialSubgroups(store, actor, ids);
  const existing = new Set((await store.directSubgroups([group.id])).get(group.id));
  for (const id of ids) if (!existing.has(id)) throw invalid(`User group ${id} is not a subgroup of this group.`);
  const removed = [...new Set(ids)];
  await store.removeSubgroups(group.id, removed);
  change.removed_subgroups.push(...removed);
}

type Step = (store: GroupStore, change: MembershipChange) => Promise<void>;

/** Runs the steps in one transaction (all or nothing) and publishes the direct and recursive membership changes. */
async function applySteps(
  db: GroupsDatabase,
  actor: Actor,
  groupId: number,
  steps: Step[],
  named: { users: readonly number[]; subgroups: readonly number[] },
  requestId?: string,
): Promise<void> {
  await db.write(actor.realmId, async (store) => {
    const exists = (await store.group(actor.realmId, groupId)) !== null;
    // Whose membership can change: the users named, and everyone in the subgroups named.
    const inSubgroups = await store.recursiveMembers(named.subgroups);
    const candidates = [...new Set([...named.users, ...[...inSubgroups.values()].flat()])];
    const finish = await trackRecursiveMembership(store, exists ? [groupId] : [], candidates);
    const change = emptyChange(groupId);
    for (const step of steps) await step(store, change);
    return {
      result: undefined,
      events: membersChangedEvents([change], await finish(), { realmId: actor.realmId, requestId }),
    };
  });
}

/** POST /user_groups/{user_group_id}/members. */
export async function updateMembers(
  db: GroupsDatabase,
  actor: Actor,
  groupId: number,
  input: MembershipInput,
  requestId?: string,
): Promise<void> {
  requireNonGuest(actor);
  const steps: Step[] = [];
  const { add, delete: remove, addSubgroups: addGroups, deleteSubgroups: removeGroups } = input;
  if (given(add)) steps.push((store, change) => addMembers(store, actor, groupId, add, change));
  if (given(remove)) steps.push((store, change) => removeMembers(store, actor, groupId, remove, change));
  if (given(addGroups)) steps.push((store, change) => addSubgroups(store, actor, groupId, addGroups, change));
  if (given(removeGroups)) steps.push((store, change) => removeSubgroups(store, actor, groupId, removeGroups, change));
  if (steps.length === 0) {
    throw invalid('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  }
  const named = {
    users: [...(add ?? []), ...(remove ?? [])],
    subgroups: [...(addGroups ?? []), ...(removeGroups ?? [])],
  };
  await applySteps(db, actor, groupId, steps, named, requestId);
}

/** POST /user_groups/{user_group_id}/subgroups. */
export async function updateSubgroups(
  db: GroupsDatabase,
  actor: Actor,
  groupId: number,
  input: { add?: number[] | undefined; delete?: number[] | undefined },
  requestId?: string,
): Promise<void> {
  requireNonGuest(actor);
  const steps: Step[] = [];
  const { add, delete: remove } = input;
  if (given(add)) steps.push((store, change) => addSubgroups(store, actor, groupId, add, change));
  if (given(remove)) steps.push((store, change) => removeSubgroups(store, actor, groupId, remove, change));
  if (steps.length === 0) throw invalid('Nothing to do. Specify at least one of "add" or "delete".');
  await applySteps(db, actor, groupId, steps, { users: [], subgroups: [...(add ?? []), ...(remove ?? [])] }, requestId);
}
