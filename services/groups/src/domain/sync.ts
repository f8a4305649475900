import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { ROLE_MEMBER } from '@confab/identity';
import { NOBODY, SYSTEM_GROUPS } from '@confab/zulip';
import {
  emptyChange,
  groupRecord,
  groupUpdatedEvents,
  membersChangedEvents,
  trackRecursiveMembership,
  viewsOf,
  type EventMeta,
  type MembershipChange,
} from './records.js';
import type { GroupsDatabase, GroupStore, Written } from './store.js';
import { systemGroupsFor } from './system-groups.js';
import { isAnonymous, SETTING_NAMES, type Group, type GroupSettings, type GroupUser, type RealmInfo } from './types.js';

/**
 * Keeps this service's copies of organizations and users, and what follows from them: each organization's system
 * groups (created when it is first heard of) and their membership as users join, change role, leave or come back.
 */

async function systemGroupsOf(store: GroupStore, realmId: number): Promise<Map<string, Group>> {
  const groups = await store.groupsInRealm(realmId, { includeDeactivated: true });
  return new Map(groups.filter((g) => g.isSystemGroup).map((g) => [g.name, g]));
}

/** Zulip's create_system_user_groups_for_realm: the eight role groups, nested, every setting role:nobody. */
async function createSystemGroups(store: GroupStore, realmId: number, meta: EventMeta): Promise<OutboxRecord[]> {
  const created = new Map<string, Group>();
  for (const spec of SYSTEM_GROUPS) {
    const nobodyId = created.get(NOBODY)?.id;
    // role:nobody is created first and refers to itself once its id exists.
    const settings = Object.fromEntries(SETTING_NAMES.map((s) => [s, nobodyId ?? 0])) as GroupSettings;
    let group = await store.createGroup({
      realmId,
      name: spec.name,
      description: spec.description,
      isSystemGroup: true,
      creatorId: null,
      settings,
    });
    if (nobodyId === undefined) {
      const own = Object.fromEntries(SETTING_NAMES.map((s) => [s, group.id])) as GroupSettings;
      group = await store.updateGroup(group.id, { settings: own });
    }
    if (spec.subgroup) await store.addSubgroups(group.id, [created.get(spec.subgroup)!.id]);
    created.set(spec.name, group);
  }
  const views = await viewsOf(store, [...created.values()]);
  return views.map((view) =>
    outboxRecord(
      contracts.groupCreated,
      {
        group: groupRecord(view),
        direct_members: [],
        direct_subgroups: view.subgroups,
        flattened: [{ group_id: view.group.id, members: [] }],
      },
      meta,
    ),
  );
}

/**
 * Makes the users' direct system-group memberships match their roles (Zulip's do_change_user_role and
 * update_users_in_full_members_system_group); `alsoTouched` are groups whose recursive membership changed for other
 * reasons (a user's activation), so their new flattened membership is published too.
 */
async function reconcileSystemMemberships(
  store: GroupStore,
  realm: RealmInfo,
  users: readonly GroupUser[],
  alsoTouched: readonly number[],
  meta: EventMeta,
  apply: () => Promise<void>,
): Promise<OutboxRecord[]> {
  const system = await systemGroupsOf(store, realm.id);
  const systemIds = new Set([...system.values()].map((g) => g.id));
  const adds = new Map<number, number[]>();
  const removes = new Map<number, number[]>();
  const now = new Date();
  if (system.size > 0) {
    for (const user of users) {
      const wanted = new Set(
        systemGroupsFor(user, realm.waitingPeriodThreshold, now).map((name) => system.get(name)!.id),
      );
      const current = new Set((await store.directGroupsOf(user.id)).filter((id) => systemIds.has(id)));
      for (const id of wanted) if (!current.has(id)) adds.set(id, [...(adds.get(id) ?? []), user.id]);
      for (const id of current) if (!wanted.has(id)) removes.set(id, [...(removes.get(id) ?? []), user.id]);
    }
  }
  const touched = [...new Set([...adds.keys(), ...removes.keys(), ...alsoTouched])];
  // Only these users' memberships change: their roles, their activation.
  const finish = await trackRecursiveMembership(
    store,
    touched,
    users.map((u) => u.id),
  );
  await apply();
  const changes: MembershipChange[] = [];
  for (const [id, userIds] of removes) {
    await store.removeMembers(id, userIds);
    changes.push({ ...emptyChange(id), removed_members: userIds });
  }
  for (const [id, userIds] of adds) {
    await store.addMembers(id, userIds);
    changes.push({ ...emptyChange(id), added_members: userIds });
  }
  changes.sort((a, b) => a.group_id - b.group_id);
  return membersChangedEvents(changes, await finish(), meta);
}

function realmInfo(record: contracts.RealmRecord): RealmInfo {
  return {
    id: record.realm_id,
    permissions: record.permissions,
    waitingPeriodThreshold: record.waiting_period_threshold,
  };
}

/** `realm.created` / `realm.updated`: keeps the copy, creates the system groups once, settles full members. */
export async function applyRealm(
  store: GroupStore,
  record: contracts.RealmRecord,
  meta: EventMeta,
): Promise<Written<void>> {
  const realm = realmInfo(record);
  const previous = await store.realm(realm.id);
  await store.upsertRealm(realm);
  const events: OutboxRecord[] = [];
  const needsGroups = (await systemGroupsOf(store, realm.id)).size === 0;
  if (needsGroups) events.push(...(await createSystemGroups(store, realm.id, meta)));
  if (needsGroups || previous?.waitingPeriodThreshold !== realm.waitingPeriodThreshold) {
    const users = await store.usersInRealm(realm.id);
    events.push(...(await reconcileSystemMemberships(store, realm, users, [], meta, async () => undefined)));
  }
  return { result: undefined, events };
}

function groupUser(record: contracts.UserRecord): GroupUser {
  return {
    id: record.user_id,
    realmId: record.realm_id,
    role: record.role,
    isBot: record.is_bot,
    isActive: record.is_active,
    dateJoined: new Date(record.date_joined),
  };
}

/**
 * `user.*`: stores the users' new state and publishes what it changed: system-group memberships, the flattened
 * membership of every group a (de)activated user is in, and anonymous permission values that show or hide them.
 */
export async function applyUsers(
  store: GroupStore,
  realmId: number,
  records: readonly contracts.UserRecord[],
  meta: EventMeta,
): Promise<Written<void>> {
  // System bots are no members of the organization, nor of its groups.
  const users = records.filter((r) => !r.is_system_bot).map(groupUser);
  const realm = (await store.realm(realmId)) ?? { id: realmId, permissions: {}, waitingPeriodThreshold: 0 };
  const previous = new Map(
    (
      await store.users(
        realmId,
        users.map((u) => u.id),
      )
    ).map((u) => [u.id, u]),
  );
  const flipped = users.filter((u) => previous.has(u.id) && previous.get(u.id)!.isActive !== u.isActive);
  const flippedGroups = new Set<number>();
  for (const user of flipped) for (const id of await store.directGroupsOf(user.id)) flippedGroups.add(id);
  const events = await reconcileSystemMemberships(store, realm, users, [...flippedGroups], meta, async () => {
    for (const user of users) await store.upsertUser(user);
  });
  if (flipped.length > 0) {
    const ids = new Set(flipped.map((u) => u.id));
    const shown = (await store.groupsInRealm(realmId, { includeDeactivated: true })).filter((g) =>
      Object.values(g.settings).some((v) => isAnonymous(v) && v.direct_members.some((id) => ids.has(id))),
    );
    events.push(...(await groupUpdatedEvents(store, shown, meta)));
  }
  return { result: undefined, events };
}

/** Members whose waiting period ended since the last sweep join role:fullmembers (Zulip's promote_new_full_members). */
export async function promoteFullMembers(db: GroupsDatabase): Promise<void> {
  const realms = await db.read((store) => store.realmsWithWaitingPeriod());
  for (const realm of realms) {
    await db.write(realm.id, async (store) => {
      const members = (await store.usersInRealm(realm.id)).filter((u) => u.role === ROLE_MEMBER);
      const events = await reconcileSystemMemberships(
        store,
        realm,
        members,
        [],
        { realmId: realm.id },
        async () => undefined,
      );
      return { result: undefined, events };
    });
  }
}
