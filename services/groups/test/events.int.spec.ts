import { contracts, type PayloadOf } from '@confab/events';
import { createGroup, deactivateGroup, updateGroup } from '../src/domain/groups';
import { updateMembers, updateSubgroups } from '../src/domain/membership';
import { promoteFullMembers } from '../src/domain/sync';
import type { Actor } from '../src/domain/types';
import { Harness, newId, realm, user } from './harness';

const h = new Harness();

beforeAll(() => h.start(), 60_000);
afterAll(() => h.stop(), 30_000);
jest.setTimeout(30_000);

const DAY = 86_400_000;

/** A fresh organization with its system groups; returns their ids by name. */
async function organization(
  overrides: Partial<contracts.RealmRecord> = {},
): Promise<{ realmId: number; sys: Record<string, number> }> {
  const realmId = newId();
  await h.publish(contracts.realmCreated, { realm: realm(realmId, overrides) }, realmId);
  const groups = await h.db.read((store) => store.groupsInRealm(realmId, { includeDeactivated: true }));
  return { realmId, sys: Object.fromEntries(groups.map((g) => [g.name, g.id])) };
}

async function addUser(realmId: number, overrides: Partial<contracts.UserRecord> = {}): Promise<number> {
  const userId = newId();
  await h.publish(contracts.userCreated, { user: user(realmId, userId, overrides) }, realmId);
  return userId;
}

const directMembers = (groupId: number) =>
  h.db.read(async (store) => (await store.directMembers([groupId])).get(groupId) ?? []);
type MembersChanged = PayloadOf<typeof contracts.groupMembersChanged>;
type GroupCreated = PayloadOf<typeof contracts.groupCreated>;
type GroupUpdated = PayloadOf<typeof contracts.groupUpdated>;

/** How the group's recursive membership changed in the event, or undefined when it did not. */
const flattenedOf = (payload: MembersChanged, groupId: number) => {
  const change = payload.flattened_changes.find((f) => f.group_id === groupId);
  return change && { added: change.added_members, removed: change.removed_members };
};

describe('realm.created', () => {
  it("creates Zulip's eight system groups, nested, and publishes group.created for each", async () => {
    const { realmId, sys } = await organization();
    const created = await h.events(contracts.groupCreated, (p) => p.group.realm_id === realmId, 8);
    const names = created.map((e) => e.payload.group.name);
    expect(names).toEqual([
      'role:nobody',
      'role:owners',
      'role:administrators',
      'role:moderators',
      'role:fullmembers',
      'role:members',
      'role:everyone',
      'role:internet',
    ]);
    const subgroups = Object.fromEntries(created.map((e) => [e.payload.group.name, e.payload.direct_subgroups]));
    expect(subgroups['role:administrators']).toEqual([sys['role:owners']]);
    expect(subgroups['role:internet']).toEqual([sys['role:everyone']]);
    expect(subgroups['role:nobody']).toEqual([]);
    for (const event of created)
      expect(event.payload.group).toMatchObject({ is_system_group: true, can_manage_group: sys['role:nobody'] });
  });

  it('changes nothing when the same event is delivered again', async () => {
    const realmId = newId();
    const eventId = await h.publish(contracts.realmCreated, { realm: realm(realmId) }, realmId);
    await h.publish(contracts.realmCreated, { realm: realm(realmId) }, realmId, eventId);
    const groups = await h.db.read((store) => store.groupsInRealm(realmId, { includeDeactivated: true }));
    expect(groups).toHaveLength(8);
  });
});

describe('user.* events', () => {
  it('put each new user in their role group and publish the new flattened membership of every group above', async () => {
    const { realmId, sys } = await organization();
    const admin = await addUser(realmId, { role: 200 });
    const event = await h.find(contracts.groupMembersChanged, (p) => p.realm_id === realmId);
    expect(event.payload.changes).toEqual([
      {
        group_id: sys['role:administrators'],
        added_members: [admin],
        removed_members: [],
        added_subgroups: [],
        removed_subgroups: [],
      },
    ]);
    expect(event.payload.flattened).toEqual([]);
    const flattenedGroups = event.payload.flattened_changes.map((f) => f.group_id).sort((a, b) => a - b);
    expect(flattenedGroups).toEqual(
      ['role:administrators', 'role:moderators', 'role:fullmembers', 'role:members', 'role:everyone', 'role:internet']
        .map((n) => sys[n])
        .sort((a, b) => a! - b!),
    );
    for (const f of event.payload.flattened_changes)
      expect(f).toMatchObject({ added_members: [admin], removed_members: [] });
    const member = await addUser(realmId);
    const guest = await addUser(realmId, { role: 600 });
    expect(await directMembers(sys['role:members']!)).toEqual([member]);
    expect(await directMembers(sys['role:fullmembers']!)).toEqual([member]);
    expect(await directMembers(sys['role:everyone']!)).toEqual([guest]);
  });

  it('move a user between system groups on user.role_changed, publishing only groups whose recursive membership changed', async () => {
    const { realmId, sys } = await organization();
    const userId = await addUser(realmId);
    const changedBy = (groupId: number, key: 'added_members' | 'removed_members') => (payload: MembersChanged) =>
      payload.changes.some((c) => c.group_id === groupId && c[key].includes(userId));
    await h.publish(contracts.userRoleChanged, { user: user(realmId, userId, { role: 300 }) }, realmId);
    let event = await h.find(contracts.groupMembersChanged, changedBy(sys['role:moderators']!, 'added_members'));
    expect(event.payload.changes).toEqual([
      {
        group_id: sys['role:moderators'],
        added_members: [userId],
        removed_members: [],
        added_subgroups: [],
        removed_subgroups: [],
      },
      {
        group_id: sys['role:fullmembers'],
        added_members: [],
        removed_members: [userId],
        added_subgroups: [],
        removed_subgroups: [],
      },
      {
        group_id: sys['role:members'],
        added_members: [],
        removed_members: [userId],
        added_subgroups: [],
        removed_subgroups: [],
      },
    ]);
    // A moderator is still a (full) member through the nesting: only role:moderators gained someone.
    expect(event.payload.flattened_changes).toEqual([
      { group_id: sys['role:moderators'], added_members: [userId], removed_members: [] },
    ]);

    await h.publish(contracts.userRoleChanged, { user: user(realmId, userId, { role: 600 }) }, realmId);
    event = await h.find(contracts.groupMembersChanged, changedBy(sys['role:everyone']!, 'added_members'));
    expect(flattenedOf(event.payload, sys['role:moderators']!)).toEqual({ added: [], removed: [userId] });
    expect(flattenedOf(event.payload, sys['role:members']!)).toEqual({ added: [], removed: [userId] });
    expect(flattenedOf(event.payload, sys['role:everyone']!)).toBeUndefined();
    expect(await directMembers(sys['role:everyone']!)).toEqual([userId]);
  });

  it('hide a deactivated user everywhere and show them again on reactivation', async () => {
    const { realmId, sys } = await organization();
    const owner = await addUser(realmId, { role: 100 });
    const userId = await addUser(realmId);
    const actor: Actor = { userId: owner, realmId, role: 100, isBot: false };
    const groupId = await createGroup(h.db, actor, {
      name: 'team',
      description: '',
      members: [userId],
      settings: { can_mention_group: { direct_members: [userId, owner], direct_subgroups: [] } },
    });
    const flattenedHas = (key: 'added' | 'removed') => (payload: MembersChanged) =>
      flattenedOf(payload, groupId)?.[key].includes(userId) === true;
    const updatedGroup = (p: GroupUpdated) => p.group.group_id === groupId;
    await h.publish(contracts.userDeactivated, { user: user(realmId, userId, { is_active: false }) }, realmId);
    const changed = await h.find(contracts.groupMembersChanged, flattenedHas('removed'));
    expect(changed.payload.changes).toEqual([]);
    expect(flattenedOf(changed.payload, groupId)).toEqual({ added: [], removed: [userId] });
    // Only the deactivated user left: the owner stays a member of role:members through the nesting.
    expect(flattenedOf(changed.payload, sys['role:members']!)).toEqual({ added: [], removed: [userId] });
    expect(flattenedOf(changed.payload, sys['role:everyone']!)).toEqual({ added: [], removed: [userId] });
    expect(flattenedOf(changed.payload, sys['role:owners']!)).toBeUndefined();
    const [updated] = await h.events(contracts.groupUpdated, updatedGroup);
    expect(updated!.payload.group).toMatchObject({
      group_id: groupId,
      can_mention_group: { direct_members: [owner], direct_subgroups: [] },
    });

    await h.publish(contracts.userReactivated, { user: user(realmId, userId) }, realmId);
    const back = await h.find(contracts.groupMembersChanged, flattenedHas('added'));
    expect(flattenedOf(back.payload, groupId)).toEqual({ added: [userId], removed: [] });
    const [, shown] = await h.events(contracts.groupUpdated, updatedGroup, 2);
    expect(shown!.payload.group.can_mention_group).toEqual({
      direct_members: [owner, userId].sort((a, b) => a - b),
      direct_subgroups: [],
    });
  });

  it('arrive before their organization and still land in the system groups once it is known', async () => {
    const realmId = newId();
    const userId = newId();
    await h.publish(contracts.userCreated, { user: user(realmId, userId, { role: 200 }) }, realmId);
    await h.publish(contracts.realmCreated, { realm: realm(realmId) }, realmId);
    const admins = await h.db.read((store) => store.groupByName(realmId, 'role:administrators'));
    expect(await directMembers(admins!.id)).toEqual([userId]);
  });
});

describe('full members', () => {
  it("follow the organization's waiting period, including when it changes and when time passes", async () => {
    const { realmId, sys } = await organization({ waiting_period_threshold: 3 });
    const settled = await addUser(realmId, { date_joined: new Date(Date.now() - 10 * DAY).toISOString() });
    const newcomer = await addUser(realmId);
    expect(await directMembers(sys['role:fullmembers']!)).toEqual([settled]);
    await h.publish(contracts.realmUpdated, { realm: realm(realmId, { waiting_period_threshold: 0 }) }, realmId);
    expect(await directMembers(sys['role:fullmembers']!)).toEqual([settled, newcomer]);
    await h.publish(contracts.realmUpdated, { realm: realm(realmId, { waiting_period_threshold: 20 }) }, realmId);
    expect(await directMembers(sys['role:fullmembers']!)).toEqual([]);
    // Time passing: a member whose waiting period is over is promoted by the periodic sweep.
    await h.db.read((store) =>
      store.upsertUser({
        id: newcomer,
        realmId,
        role: 400,
        isBot: false,
        isActive: true,
        dateJoined: new Date(Date.now() - 30 * DAY),
      }),
    );
    await promoteFullMembers(h.db);
    expect(await directMembers(sys['role:fullmembers']!)).toEqual([newcomer]);
  });
});

describe('changes made through the API', () => {
  it('publish group.created, group.updated and group.members_changed with flattened membership, within a second', async () => {
    const { realmId, sys } = await organization();
    const admin = await addUser(realmId, { role: 200 });
    const alice = await addUser(realmId);
    const bob = await addUser(realmId);
    const actor: Actor = { userId: admin, realmId, role: 200, isBot: false };
    const inRealm = (p: GroupCreated | MembersChanged) => ('group' in p ? p.group.realm_id : p.realm_id) === realmId;
    const inner = await createGroup(h.db, actor, { name: 'inner', description: '', members: [alice], settings: {} });
    const outer = await createGroup(h.db, actor, {
      name: 'outer',
      description: '',
      members: [],
      subgroups: [inner],
      settings: {},
    });
    const created = (await h.events(contracts.groupCreated, (p) => inRealm(p) && !p.group.is_system_group, 2)).slice(
      0,
      2,
    );
    expect(
      created.map((e) => [
        e.payload.group.name,
        e.payload.direct_members,
        e.payload.direct_subgroups,
        e.payload.flattened,
      ]),
    ).toEqual([
      ['inner', [alice], [], [{ group_id: inner, members: [alice] }]],
      ['outer', [], [inner], [{ group_id: outer, members: [alice] }]],
    ]);

    const started = Date.now();
    await updateMembers(h.db, actor, inner, { add: [bob] });
    const changed = await h.find(
      contracts.groupMembersChanged,
      (p) => inRealm(p) && p.changes.some((c) => c.group_id === inner),
    );
    expect(changed.at - started).toBeLessThan(1000);
    expect(changed.payload).toEqual({
      realm_id: realmId,
      changes: [
        { group_id: inner, added_members: [bob], removed_members: [], added_subgroups: [], removed_subgroups: [] },
      ],
      flattened: [],
      flattened_changes: [
        { group_id: inner, added_members: [bob], removed_members: [] },
        { group_id: outer, added_members: [bob], removed_members: [] },
      ],
    });

    await updateSubgroups(h.db, actor, outer, { delete: [inner] });
    const removed = await h.find(
      contracts.groupMembersChanged,
      (p) => inRealm(p) && p.changes.some((c) => c.group_id === outer),
    );
    expect(removed.payload.flattened_changes).toEqual([
      { group_id: outer, added_members: [], removed_members: [alice, bob] },
    ]);

    await updateGroup(h.db, actor, outer, {
      name: 'outer renamed',
      settings: { can_mention_group: { new: sys['role:members']! } },
    });
    await deactivateGroup(h.db, actor, outer);
    const updates = await h.events(contracts.groupUpdated, (p) => p.group.group_id === outer, 2);
    expect(
      updates.map((e) => [e.payload.group.name, e.payload.group.can_mention_group, e.payload.group.deactivated]),
    ).toEqual([
      ['outer renamed', sys['role:members'], false],
      ['outer renamed', sys['role:members'], true],
    ]);
  });
});

describe('organization permissions', () => {
  it('can_manage_all_groups and can_create_groups come from the realm record; realm settings block deactivation', async () => {
    const { realmId, sys } = await organization();
    const owner = await addUser(realmId, { role: 100 });
    const alice = await addUser(realmId);
    const bob = await addUser(realmId);
    const ownerActor: Actor = { userId: owner, realmId, role: 100, isBot: false };
    const aliceActor: Actor = { userId: alice, realmId, role: 400, isBot: false };
    const stewards = await createGroup(h.db, ownerActor, {
      name: 'stewards',
      description: '',
      members: [alice],
      settings: {},
    });
    const other = await createGroup(h.db, ownerActor, { name: 'other', description: '', members: [], settings: {} });
    await expect(updateGroup(h.db, aliceActor, other, { description: 'by alice', settings: {} })).rejects.toThrow(
      'Insufficient permission',
    );
    await h.publish(
      contracts.realmUpdated,
      {
        realm: realm(realmId, {
          permissions: { can_manage_all_groups: stewards, can_create_groups: 'role:administrators' },
        }),
      },
      realmId,
    );
    await updateGroup(h.db, aliceActor, other, { description: 'by alice', settings: {} });
    await expect(
      createGroup(h.db, { ...aliceActor, userId: bob }, { name: 'b', description: '', members: [], settings: {} }),
    ).rejects.toThrow('Insufficient permission');
    await expect(deactivateGroup(h.db, ownerActor, stewards)).rejects.toMatchObject({
      code: 'CANNOT_DEACTIVATE_GROUP_IN_USE',
      data: { objections: [{ type: 'realm', settings: ['can_manage_all_groups'] }] },
    });
    expect(sys['role:administrators']).toBeDefined();
  });
});
