import { checkGroupName } from '../src/domain/groups';
import { apiValue, sameValue, simplify, valueUsesGroup } from '../src/domain/setting-values';
import { isProvisional, systemGroupsFor } from '../src/domain/system-groups';

const DAY = 86_400_000;

describe('group-setting values', () => {
  it("simplify like Zulip's parse_group_setting_value", () => {
    expect(simplify({ direct_members: [], direct_subgroups: [7] }, 1)).toBe(7);
    expect(simplify({ direct_members: [], direct_subgroups: [] }, 1)).toBe(1);
    expect(simplify({ direct_members: [5, 3, 5], direct_subgroups: [9, 2] }, 1)).toEqual({
      direct_members: [3, 5],
      direct_subgroups: [2, 9],
    });
    expect(simplify(4, 1)).toBe(4);
  });

  it('compare ids by value and anonymous groups as sets', () => {
    expect(sameValue(3, 3)).toBe(true);
    expect(sameValue(3, 4)).toBe(false);
    expect(
      sameValue({ direct_members: [1, 2], direct_subgroups: [] }, { direct_members: [2, 1], direct_subgroups: [] }),
    ).toBe(true);
    expect(
      sameValue({ direct_members: [1], direct_subgroups: [] }, { direct_members: [1], direct_subgroups: [3] }),
    ).toBe(false);
    expect(sameValue(3, { direct_members: [], direct_subgroups: [3] })).toBe(false);
  });

  it('hide deactivated users from clients and find groups used inside anonymous values', () => {
    expect(apiValue({ direct_members: [1, 2, 3], direct_subgroups: [8] }, new Set([1, 3]))).toEqual({
      direct_members: [1, 3],
      direct_subgroups: [8],
    });
    expect(apiValue(6, new Set())).toBe(6);
    expect(valueUsesGroup({ direct_members: [6], direct_subgroups: [8] }, 8)).toBe(true);
    expect(valueUsesGroup({ direct_members: [8], direct_subgroups: [] }, 8)).toBe(false);
    expect(valueUsesGroup(8, 8)).toBe(true);
  });
});

describe('system group membership', () => {
  const now = new Date('2030-01-10T12:00:00Z');

  it('puts each role in its group and settled members in role:fullmembers', () => {
    const old = new Date(now.getTime() - 30 * DAY);
    expect(systemGroupsFor({ role: 100, dateJoined: old }, 0, now)).toEqual(['role:owners']);
    expect(systemGroupsFor({ role: 200, dateJoined: old }, 0, now)).toEqual(['role:administrators']);
    expect(systemGroupsFor({ role: 300, dateJoined: old }, 0, now)).toEqual(['role:moderators']);
    expect(systemGroupsFor({ role: 400, dateJoined: old }, 0, now)).toEqual(['role:members', 'role:fullmembers']);
    expect(systemGroupsFor({ role: 600, dateJoined: old }, 0, now)).toEqual(['role:everyone']);
  });

  it('counts whole days of the waiting period, as Zulip does', () => {
    expect(isProvisional(new Date(now.getTime() - 2.9 * DAY), 3, now)).toBe(true);
    expect(isProvisional(new Date(now.getTime() - 3 * DAY), 3, now)).toBe(false);
    expect(isProvisional(now, 0, now)).toBe(false);
    expect(systemGroupsFor({ role: 400, dateJoined: now }, 3, now)).toEqual(['role:members']);
  });
});

describe('group names', () => {
  it("follow Zulip's check_user_group_name", () => {
    expect(checkGroupName('Design team')).toBe('Design team');
    expect(() => checkGroupName(' ')).toThrow("User group name can't be empty!");
    expect(() => checkGroupName('é'.repeat(101))).toThrow('User group name cannot exceed 100 characters.');
    expect(checkGroupName('é'.repeat(100))).toHaveLength(100);
    for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) {
      expect(() => checkGroupName(`${prefix}x`)).toThrow(`User group name cannot start with '${prefix}'.`);
    }
  });
});
