import { invalid, notFound } from '@confab/errors';
import { groupForUpdate, holdsRealmPermission } from './access.js';
import { emptyChange, membersChangedEvents, trackRecursiveMembership } from './records.js';
import type { GroupsDatabase } from './store.js';
import type { Actor } from './types.js';

/**
 * What the invitations service asks before it creates a reusable invitation link: may the actor create such links
 * (the organization's create_multiuse_invite_group), and may they add members to each group the link names (Zulip's
 * access_user_groups_for_invite). Throws Zulip's error for the first refusal.
 */
export async function checkInvitation(db: GroupsDatabase, actor: Actor, groupIds: readonly number[]): Promise<void> {
  await db.read(async (store) => {
    if (!(await holdsRealmPermission(store, actor, 'create_multiuse_invite_group', 'role:administrators'))) {
      throw invalid('Insufficient permission');
    }
    for (const groupId of groupIds) {
      await groupForUpdate(store, actor, groupId, 'can_add_members_group', { allowDeactivated: false });
    }
  });
}

/**
 * Adds a user who just joined through an invitation to the invitation's groups. The permission was checked when the
 * link was made (as in Zulip); groups deactivated or gone since are skipped, and so are groups the user is already in,
 * so a retried call does nothing twice. 404 while this service has not heard of the new user yet.
 */
export async function joinInvitedGroups(
  db: GroupsDatabase,
  realmId: number,
  userId: number,
  groupIds: readonly number[],
  requestId?: string,
): Promise<number[]> {
  return db.write(realmId, async (store) => {
    const user = await store.user(userId);
    if (!user || user.realmId !== realmId || !user.isActive) throw notFound('No such user');
    const groups = (await store.groups(realmId, groupIds)).filter((g) => !g.deactivated && !g.isSystemGroup);
    const current = await store.directMembers(groups.map((g) => g.id));
    const targets = groups.filter((g) => !(current.get(g.id) ?? []).includes(userId)).map((g) => g.id);
    const finish = await trackRecursiveMembership(store, targets, [userId]);
    const changes = [];
    for (const groupId of targets) {
      await store.addMembers(groupId, [userId]);
      changes.push({ ...emptyChange(groupId), added_members: [userId] });
    }
    return { result: targets, events: membersChangedEvents(changes, await finish(), { realmId, requestId }) };
  });
}
