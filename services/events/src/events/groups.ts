import { contracts, type PayloadOf } from '@confab/events';
import type { UserGroupChanges, UserGroupEvent } from '@confab/zulip';
import { acceptsType } from '../domain/descriptor.js';
import { apiGroup } from '../domain/shaping.js';
import type { GroupSnapshot } from '../store/readmodel.js';
import type { Delivery } from './fanout.js';

/** Fields of a group a user_group update event may carry. */
const UPDATABLE = ['name', 'description', 'deactivated', ...contracts.GROUP_PERMISSION_SETTINGS] as const;

const wantsGroups =
  (type = 'user_group') =>
  (d: Parameters<typeof acceptsType>[0]) =>
    acceptsType(d, type);

/** One field of the group into the changes (each field keeps its own type). */
function copyField<K extends (typeof UPDATABLE)[number]>(
  data: UserGroupChanges,
  group: contracts.GroupRecord,
  field: K,
): void {
  Object.assign(data, { [field]: group[field] });
}

/** Zulip's user_group add, to everyone in the organization; deactivated groups only to clients that handle them. */
export function groupCreated(payload: PayloadOf<typeof contracts.groupCreated>): Delivery[] {
  const group = apiGroup(payload.group, payload.direct_members, payload.direct_subgroups);
  return [
    {
      realm: payload.group.realm_id,
      build: (ctx) => {
        if (!wantsGroups()(ctx.queue)) return [];
        if (payload.group.deactivated && !ctx.queue.capabilities.includeDeactivatedGroups) return [];
        return [{ type: 'user_group', op: 'add', group }];
      },
    },
  ];
}

/**
 * Zulip's user_group update with only what changed (compared with the last state seen here). Clients without
 * include_deactivated_groups get `remove` on deactivation, `add` on reactivation, and nothing about deactivated
 * groups otherwise.
 */
export function groupUpdated(
  payload: PayloadOf<typeof contracts.groupUpdated>,
  before: GroupSnapshot | null,
): Delivery[] {
  const after = payload.group;
  const data: UserGroupChanges = {};
  for (const field of UPDATABLE) {
    if (!before || JSON.stringify(before.group[field]) !== JSON.stringify(after[field])) copyField(data, after, field);
  }
  if (Object.keys(data).length === 0) return [];
  const wasDeactivated = before?.group.deactivated ?? false;
  const full = apiGroup(after, before?.members ?? [], before?.subgroups ?? []);
  return [
    {
      realm: after.realm_id,
      build: (ctx) => {
        if (!wantsGroups()(ctx.queue)) return [];
        if (ctx.queue.capabilities.includeDeactivatedGroups) {
          return [{ type: 'user_group', op: 'update', group_id: after.group_id, data }];
        }
        if (after.deactivated && !wasDeactivated)
          return [{ type: 'user_group', op: 'remove', group_id: after.group_id }];
        if (!after.deactivated && wasDeactivated) return [{ type: 'user_group', op: 'add', group: full }];
        if (after.deactivated) return [];
        const { deactivated: _ignored, ...visible } = data;
        return Object.keys(visible).length > 0
          ? [{ type: 'user_group', op: 'update', group_id: after.group_id, data: visible }]
          : [];
      },
    },
  ];
}

/** Zulip's add_members, remove_members, add_subgroups and remove_subgroups, one per kind of change. */
export function groupMembersChanged(payload: PayloadOf<typeof contracts.groupMembersChanged>): Delivery[] {
  const events: UserGroupEvent[] = [];
  for (const change of payload.changes) {
    const group_id = change.group_id;
    if (change.added_members.length > 0)
      events.push({ type: 'user_group', op: 'add_members', group_id, user_ids: change.added_members });
    if (change.removed_members.length > 0)
      events.push({ type: 'user_group', op: 'remove_members', group_id, user_ids: change.removed_members });
    if (change.added_subgroups.length > 0)
      events.push({ type: 'user_group', op: 'add_subgroups', group_id, direct_subgroup_ids: change.added_subgroups });
    if (change.removed_subgroups.length > 0)
      events.push({
        type: 'user_group',
        op: 'remove_subgroups',
        group_id,
        direct_subgroup_ids: change.removed_subgroups,
      });
  }
  if (events.length === 0) return [];
  return [{ realm: payload.realm_id, build: (ctx) => (wantsGroups()(ctx.queue) ? events : []) }];
}

/** The group as it is after a change, for the next comparison. */
export function applyMembership(
  snapshot: GroupSnapshot,
  change: PayloadOf<typeof contracts.groupMembersChanged>['changes'][number],
): GroupSnapshot {
  const members = new Set(snapshot.members);
  for (const id of change.added_members) members.add(id);
  for (const id of change.removed_members) members.delete(id);
  const subgroups = new Set(snapshot.subgroups);
  for (const id of change.added_subgroups) subgroups.add(id);
  for (const id of change.removed_subgroups) subgroups.delete(id);
  return { group: snapshot.group, members: [...members], subgroups: [...subgroups] };
}
