import type { contracts } from '@confab/events';
import { applyMembership, groupMembersChanged, groupUpdated } from '../src/events/groups';
import { ctx, queue as fixtureQueue } from './queue-fixtures';

const group: contracts.GroupRecord = {
  group_id: 5,
  realm_id: 1,
  name: 'backend',
  description: 'Backend team',
  is_system_group: false,
  deactivated: false,
  creator_id: 2,
  date_created: '2024-06-04T07:01:16.000Z',
  can_add_members_group: 10,
  can_join_group: 10,
  can_leave_group: 10,
  can_manage_group: 10,
  can_mention_group: 10,
  can_remove_members_group: 10,
};

const queue = (capabilities: Record<string, boolean> = {}) => fixtureQueue({}, capabilities);
const before = { group, members: [2], subgroups: [] };

describe('user_group events', () => {
  it('carry only what changed since the last known state', () => {
    const [delivery] = groupUpdated({ group: { ...group, description: 'New', can_join_group: 11 } }, before);
    expect(delivery!.realm).toBe(1);
    expect(delivery!.build(ctx(queue()))).toEqual([
      { type: 'user_group', op: 'update', group_id: 5, data: { description: 'New', can_join_group: 11 } },
    ]);
    expect(groupUpdated({ group }, before)).toEqual([]);
  });

  it('turn deactivation into remove (and reactivation into add) for clients without include_deactivated_groups', () => {
    const [off] = groupUpdated({ group: { ...group, deactivated: true } }, before);
    expect(off!.build(ctx(queue()))).toEqual([{ type: 'user_group', op: 'remove', group_id: 5 }]);
    expect(off!.build(ctx(queue({ include_deactivated_groups: true })))).toEqual([
      { type: 'user_group', op: 'update', group_id: 5, data: { deactivated: true } },
    ]);
    const deactivated = { ...before, group: { ...group, deactivated: true } };
    const [on] = groupUpdated({ group }, deactivated);
    expect(on!.build(ctx(queue()))[0]).toMatchObject({ op: 'add', group: { id: 5, members: [2], deactivated: false } });
    const [renamed] = groupUpdated({ group: { ...group, deactivated: true, name: 'x' } }, deactivated);
    expect(renamed!.build(ctx(queue()))).toEqual([]);
  });

  it('split membership changes into Zulip’s four operations and track them', () => {
    const change = {
      group_id: 5,
      added_members: [3],
      removed_members: [2],
      added_subgroups: [7],
      removed_subgroups: [],
    };
    const [delivery] = groupMembersChanged({ realm_id: 1, changes: [change], flattened: [], flattened_changes: [] });
    expect(delivery!.build(ctx(queue())).map((e) => ('op' in e ? e.op : undefined))).toEqual([
      'add_members',
      'remove_members',
      'add_subgroups',
    ]);
    expect(applyMembership(before, change)).toMatchObject({ members: [3], subgroups: [7] });
  });
});
