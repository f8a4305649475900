import type { contracts } from '@confab/events';
import type { Tx } from './prisma.js';

/**
 * The read model's copy of each group's recursive membership (`group_members`), as the groups service's events
 * describe it (docs/architecture.md, "Events").
 */

/** Replaces the recursive membership of each listed group (group.created; group.members_changed of earlier versions). */
export async function replaceGroupMembers(
  tx: Tx,
  flattened: readonly { group_id: number; members: readonly number[] }[],
): Promise<void> {
  // Only the difference, in one statement per group whatever its size (a join rewrote every member's row).
  for (const { group_id, members } of flattened) {
    await tx.$executeRawUnsafe(
      `WITH gone AS (DELETE FROM group_members WHERE group_id = $1 AND NOT (user_id = ANY($2::int[])))
       INSERT INTO group_members (group_id, user_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`,
      group_id,
      members,
    );
  }
}

/** The (group, user) pairs of one side of the changes, as two parallel arrays. */
function pairsOf(
  changes: contracts.GroupMembersChanged['flattened_changes'],
  key: 'added_members' | 'removed_members',
) {
  const groups: number[] = [];
  const users: number[] = [];
  for (const change of changes)
    for (const userId of change[key]) {
      groups.push(change.group_id);
      users.push(userId);
    }
  return [groups, users] as const;
}

/**
 * Applies `group.members_changed`: the whole memberships an earlier version published (events queued before an
 * upgrade), then the differences this one publishes, all in one statement — what a change touches, not the size
 * of the groups above it.
 */
export async function applyGroupMembersChanged(tx: Tx, payload: contracts.GroupMembersChanged): Promise<void> {
  await replaceGroupMembers(tx, payload.flattened);
  const [addedGroups, addedUsers] = pairsOf(payload.flattened_changes, 'added_members');
  const [removedGroups, removedUsers] = pairsOf(payload.flattened_changes, 'removed_members');
  if (addedGroups.length + removedGroups.length === 0) return;
  await tx.$executeRawUnsafe(
    `WITH gone AS (
       DELETE FROM group_members m USING unnest($1::int[], $2::int[]) AS r(group_id, user_id)
        WHERE m.group_id = r.group_id AND m.user_id = r.user_id
     )
     INSERT INTO group_members (group_id, user_id) SELECT * FROM unnest($3::int[], $4::int[]) ON CONFLICT DO NOTHING`,
    removedGroups,
    removedUsers,
    addedGroups,
    addedUsers,
  );
}
