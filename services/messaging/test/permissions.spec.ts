import { inSystemGroup, Permissions } from '../src/domain/permissions';
import type { Group, Realm, User } from '../src/domain/types';

const DAY = 24 * 60 * 60 * 1000;
const realm = {
  id: 1,
  waitingPeriodThreshold: 3,
  permissions: { can_mention_many_users_group: 'role:moderators' },
} as unknown as Realm;
const userWith = (role: 100 | 200 | 300 | 400 | 600, joinedDaysAgo = 10) =>
  ({ id: role, role, dateJoined: new Date(Date.now() - joinedDaysAgo * DAY) }) as User;

describe('inSystemGroup', () => {
  it('decides membership from the role, as Zulip does for system groups', () => {
    expect(inSystemGroup('role:everyone', userWith(600), realm)).toBe(true);
    expect(inSystemGroup('role:members', userWith(600), realm)).toBe(false);
    expect(inSystemGroup('role:members', userWith(400), realm)).toBe(true);
    expect(inSystemGroup('role:moderators', userWith(300), realm)).toBe(true);
    expect(inSystemGroup('role:moderators', userWith(400), realm)).toBe(false);
    expect(inSystemGroup('role:administrators', userWith(100), realm)).toBe(true);
    expect(inSystemGroup('role:owners', userWith(200), realm)).toBe(false);
    expect(inSystemGroup('role:nobody', userWith(100), realm)).toBe(false);
  });

  it('counts members as full members only after the waiting period', () => {
    expect(inSystemGroup('role:fullmembers', userWith(400, 1), realm)).toBe(false);
    expect(inSystemGroup('role:fullmembers', userWith(400, 4), realm)).toBe(true);
    expect(inSystemGroup('role:fullmembers', userWith(300, 0), realm)).toBe(true);
  });
});

describe('Permissions', () => {
  const groups = new Map<number, Group>([
    [
      10,
      { id: 10, realmId: 1, name: 'role:administrators', isSystemGroup: true, deactivated: false, canMentionGroup: 10 },
    ],
    [20, { id: 20, realmId: 1, name: 'writers', isSystemGroup: false, deactivated: false, canMentionGroup: 10 }],
  ]);
  const memberships = new Map<number, number[]>([[400, [20]]]);
  const permissions = new Permissions({
    groupsOf: async () => groups,
    memberGroupIds: async (userId, ids) => new Set((memberships.get(userId) ?? []).filter((id) => ids.includes(id))),
  });

  it('resolves system groups by name or id, user groups by membership', async () => {
    expect(await permissions.has(userWith(200), realm, 'role:administrators')).toBe(true);
    expect(await permissions.has(userWith(200), realm, 10)).toBe(true);
    expect(await permissions.has(userWith(400), realm, 10)).toBe(false);
    expect(await permissions.has(userWith(400), realm, 20)).toBe(true);
    expect(await permissions.has(userWith(300), realm, 20)).toBe(false);
  });

  it('resolves anonymous groups by direct members and subgroups', async () => {
    expect(await permissions.has(userWith(300), realm, { direct_members: [300], direct_subgroups: [] })).toBe(true);
    expect(await permissions.has(userWith(400), realm, { direct_members: [], direct_subgroups: [20] })).toBe(true);
    expect(await permissions.has(userWith(600), realm, { direct_members: [], direct_subgroups: [10, 20] })).toBe(false);
  });

  it('reads organization permissions, unset meaning nobody', async () => {
    expect(await permissions.realmPermission(userWith(300), realm, 'can_mention_many_users_group')).toBe(true);
    expect(await permissions.realmPermission(userWith(100), realm, 'unset_setting')).toBe(false);
  });
});
