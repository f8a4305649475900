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

export const groupCreated = defineEvent(
  'group.created',
  z.object({ group: groupRecord, direct_members: ids, direct_subgroups: ids, flattened: z.array(flattenedMembership) }),
);

/** Name, description, permission settings or deactivation changed; carries the whole record after the change. */
export const groupUpdated = defineEvent('group.updated', z.object({ group: groupRecord }));

/**
 * Direct membership changed. `changes` lists what changed directly (for clients' user_group events);
 * `flattened` gives the new recursive membership of every group whose recursive membership changed, so
 * consumers can answer "is this user in that group" from their own tables.
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
    flattened: z.array(flattenedMembership),
  }),
);
