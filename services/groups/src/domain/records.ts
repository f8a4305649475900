import { contracts, outboxRecord, type OutboxRecord, type PayloadOf } from '@confab/events';
import { apiValue } from './setting-values.js';
import type { GroupStore } from './store.js';
import { isAnonymous, SETTING_NAMES, type Group, type GroupSettings } from './types.js';

/** A group with what clients see of it: active direct members, direct subgroups, settings without deactivated users. */
export interface GroupView {
  group: Group;
  members: number[];
  subgroups: number[];
  settings: GroupSettings;
}

export async function viewsOf(store: GroupStore, groups: readonly Group[]): Promise<GroupView[]> {
  const ids = groups.map((g) => g.id);
  const [members, subgroups] = await Promise.all([store.directMembers(ids), store.directSubgroups(ids)]);
  const active = new Set<number>();
  const byRealm = new Map<number, Set<number>>();
  for (const group of groups) {
    for (const value of Object.values(group.settings)) {
      if (!isAnonymous(value)) continue;
      const wanted = byRealm.get(group.realmId) ?? new Set<number>();
      for (const id of value.direct_members) wanted.add(id);
      byRealm.set(group.realmId, wanted);
    }
  }
  for (const [realmId, wanted] of byRealm) {
    for (const user of await store.users(realmId, [...wanted])) if (user.isActive) active.add(user.id);
  }
  return groups.map((group) => ({
    group,
    members: members.get(group.id) ?? [],
    subgroups: subgroups.get(group.id) ?? [],
    settings: Object.fromEntries(SETTING_NAMES.map((s) => [s, apiValue(group.settings[s], active)])) as GroupSettings,
  }));
}

/** Zulip's user group dictionary (GET /user_groups). */
export function apiGroup(view: GroupView): Record<string, unknown> {
  const { group } = view;
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    members: view.members,
    direct_subgroup_ids: view.subgroups,
    creator_id: group.creatorId,
    date_created: Math.floor(group.dateCreated.getTime() / 1000),
    is_system_group: group.isSystemGroup,
    ...view.settings,
    deactivated: group.deactivated,
  };
}

export function groupRecord(view: GroupView): contracts.GroupRecord {
  const { group } = view;
  return {
    group_id: group.id,
    realm_id: group.realmId,
    name: group.name,
    description: group.description,
    is_system_group: group.isSystemGroup,
    deactivated: group.deactivated,
    creator_id: group.creatorId,
    date_created: group.dateCreated.toISOString(),
    ...view.settings,
  };
}

export interface EventMeta {
  realmId: number;
  requestId?: string | null | undefined;
}

export async function groupUpdatedEvents(
  store: GroupStore,
  groups: readonly Group[],
  meta: EventMeta,
): Promise<OutboxRecord[]> {
  const views = await viewsOf(store, groups);
  return views.map((view) => outboxRecord(contracts.groupUpdated, { group: groupRecord(view) }, meta));
}

type MembersChanged = PayloadOf<typeof contracts.groupMembersChanged>;

export type MembershipChange = MembersChanged['changes'][number];

export function emptyChange(groupId: number): MembershipChange {
  return { group_id: groupId, added_members: [], removed_members: [], added_subgroups: [], removed_subgroups: [] };
}

function isEmpty(change: MembershipChange): boolean {
  return (
    change.added_members.length +
      change.removed_members.length +
      change.added_subgroups.length +
      change.removed_subgroups.length ===
    0
  );
}

export type FlattenedChanges = MembersChanged['flattened_changes'];

export function membersChangedEvents(
  changes: readonly MembershipChange[],
  flattened: FlattenedChanges,
  meta: EventMeta,
): OutboxRecord[] {
  const real = changes.filter((c) => !isEmpty(c));
  if (real.length === 0 && flattened.length === 0) return [];
  return [
    outboxRecord(
      contracts.groupMembersChanged,
      { realm_id: meta.realmId, changes: real, flattened: [], flattened_changes: [...flattened] },
      meta,
    ),
  ];
}

/**
 * Snapshots, for the touched groups and everything above them, which of the `candidates` are recursive members; the
 * returned function gives how that changed since, per group (only groups where it did). Only users who can change
 * membership in this write are candidates (those added or removed, members of the subgroups added or removed, users
 * (de)activated), so the cost follows the change, not the size of the groups above it (role:everyone holds
 * the whole organization).
 */
export async function trackRecursiveMembership(
  store: GroupStore,
  touched: readonly number[],
  candidates: readonly number[],
): Promise<() => Promise<FlattenedChanges>> {
  const affected = touched.length > 0 && candidates.length > 0 ? await store.recursiveSupergroups(touched) : [];
  const before = await store.recursiveMembers(affected, candidates);
  return async () => {
    const after = await store.recursiveMembers(affected, candidates);
    const changed: FlattenedChanges = [];
    for (const groupId of [...affected].sort((a, b) => a - b)) {
      const was = new Set(before.get(groupId) ?? []);
      const now = new Set(after.get(groupId) ?? []);
      const added = [...now].filter((id) => !was.has(id));
      const removed = [...was].filter((id) => !now.has(id));
      if (added.length > 0 || removed.length > 0)
        changed.push({ group_id: groupId, added_members: added, removed_members: removed });
    }
    return changed;
  };
}
