import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/**
 * Who holds a group-valued permission: a group id, or an anonymous group of users and subgroups
 * (Zulip's group-setting value).
 */
export const groupSettingValue = z.union([
  z.number().int(),
  z.object({ direct_members: z.array(z.number().int()), direct_subgroups: z.array(z.number().int()) }),
]);
export type GroupSettingValue = z.infer<typeof groupSettingValue>;

export const GROUP_PERMISSION_SETTINGS = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_mention_group',
  'can_remove_members_group',
] as const;

/** A user group as other services keep it (the groups service owns groups). */
export const groupRecord = z.object({
  group_id: z.number().int(),
  realm_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** System groups are named `role:owners`, `role:administrators`, ... `role:nobody`. */
  is_system_group: z.boolean(),
  deactivated: z.boolean(),
  creator_id: z.number().int().nullable(),
  date_created: z.string(),
  can_add_members_group: groupSettingValue,
  can_join_group: groupSettingValue,
  can_leave_group: groupSettingValue,
  can_manage_group: groupSettingValue,
  can_mention_group: groupSettingValue,
  can_remove_members_group: groupSettingValue,
});
export type GroupRecord = z.infer<typeof groupRecord>;

const ids = z.array(z.number().int());

/** Recursive (flattened) membership of one group after a change: every user in it or in any of its subgroups. */
export const flattenedMembership = z.object({ group_id: z.number().int(), members: ids });

/**
 * How one group's recursive (flattened) membership changed: the users who entered it and those who left it, through
 * any of its subgroups. A change costs what it touches, not the group's size (Zulip's user_group events are deltas
 * too), so making the organization's N-th member is no dearer than its first.
 */
export const flattenedChange = z.object({ group_id: z.number().int(), added_members: ids, removed_members: ids });

export const groupCreated = defineEvent(
  'group.created',
  z.object({ group: groupRecord, direct_members: ids, direct_subgroups: ids, flattened: z.array(flattenedMembership) }),
);

/** Name, description, permission settings or deactivation changed; carries the whole record after the change. */
export const groupUpdated = defineEvent('group.updated', z.object({ group: groupRecord }));

/**
 * Direct membership changed. `changes` lists what changed directly (for clients' user_group events);
 * `flattened_changes` gives how the recursive membership changed of every group whose recursive membership
 * changed, so consumers can answer "is this user in that group" from their own tables. `flattened` (whole
 * memberships) is what earlier versions published: still read, so events queued before an upgrade apply, and
 * published empty.
 */
export const groupMembersChanged = defineEvent(
  'group.members_changed',
  z.object({
    realm_id: z.number().int(),
    changes: z.array(
      z.object({
        group_id: z.number().int(),
        added_members: ids,
        removed_members: ids,
        added_subgroups: ids,
        removed_subgroups: ids,
      }),
    ),
    flattened: z.array(flattenedMembership).default([]),
    flattened_changes: z.array(flattenedChange).default([]),
  }),
);
export type GroupMembersChanged = z.infer<typeof groupMembersChanged.schema>;
