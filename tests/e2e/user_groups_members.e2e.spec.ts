import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { createGroup, getGroup, groupsInternal, membersOf, sorted, systemGroups } from './support/groups';
import { newWorld } from './support/system';

let world: World;
let sys: Record<string, number>;
const id = (name: Parameters<World['user']>[0]) => world.user(name).id;

beforeAll(async () => {
  world = await newWorld();
  sys = await systemGroups(world);
});

const hamletsGroup = (name: string, params: Record<string, unknown> = {}) =>
  createGroup(world.as('hamlet'), name, { members: [id('hamlet')], ...params });

describe('POST /user_groups/{user_group_id}/members', () => {
  it('adds and removes users and subgroups in one call', async () => {
    const groupId = await hamletsGroup('crew');
    const path = `/user_groups/${groupId}/members`;
    const response = await world.as('hamlet').post(path, {
      add: [id('othello'), id('cordelia')],
      delete: [id('hamlet')],
      add_subgroups: [sys['role:moderators']],
    });
    expectSuccess(response, 'POST', path);
    const group = await getGroup(world, groupId);
    expect(group.members).toEqual(sorted([id('othello'), id('cordelia')]));
    expect(group.direct_subgroup_ids).toEqual([sys['role:moderators']]);
    expect(await membersOf(world, groupId)).toEqual(
      sorted([id('othello'), id('cordelia'), id('shiva'), id('iago'), id('desdemona')]),
    );
    expectSuccess(await world.as('hamlet').post(path, { delete_subgroups: [sys['role:moderators']] }), 'POST', path);
    expect((await getGroup(world, groupId)).direct_subgroup_ids).toEqual([]);
  });

  it("answers Zulip's messages for nothing to do, existing and missing members, and invalid users", async () => {
    const groupId = await hamletsGroup('messages');
    const path = `/user_groups/${groupId}/members`;
    const hamlet = world.as('hamlet');
    expectError(
      await hamlet.post(path, {}),
      400,
      'BAD_REQUEST',
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
    expectError(
      await hamlet.post(path, { add: [], delete: [] }),
      400,
      'BAD_REQUEST',
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
    expectError(
      await hamlet.post(path, { add: [id('othello'), id('hamlet')] }),
      400,
      'BAD_REQUEST',
      `User ${id('hamlet')} is already a member of this group`,
    );
    expectError(
      await hamlet.post(path, { delete: [id('othello')] }),
      400,
      'BAD_REQUEST',
      `There is no member '${id('othello')}' in this user group`,
    );
    expectError(await hamlet.post(path, { add: [999999] }), 400, 'BAD_REQUEST', 'Invalid user ID: 999999');
    expectError(await hamlet.post(path, { delete: [4294967296] }), 400, 'BAD_REQUEST', 'Invalid user ID: 4294967296');
    expectError(
      await world.as('hamlet').post('/user_groups/999999/members', { add: [id('othello')] }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
    // None of the refused requests changed anything (the first add was refused as a whole).
    expect((await getGroup(world, groupId)).members).toEqual([id('hamlet')]);
  });

  it('is all or nothing: a refused step undoes the earlier ones', async () => {
    const groupId = await hamletsGroup('atomic');
    const path = `/user_groups/${groupId}/members`;
    expectError(
      await world.as('hamlet').post(path, { add: [id('othello')], delete: [id('cordelia')] }),
      400,
      'BAD_REQUEST',
      `There is no member '${id('cordelia')}' in this user group`,
    );
    expect((await getGroup(world, groupId)).members).toEqual([id('hamlet')]);
  });

  it('lets users join with can_join_group and leave with can_leave_group', async () => {
    const groupId = await hamletsGroup('open door');
    const path = `/user_groups/${groupId}/members`;
    expectError(
      await world.as('othello').post(path, { add: [id('othello')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    await world.as('hamlet').patch(`/user_groups/${groupId}`, { can_join_group: { new: sys['role:members'] } });
    expectSuccess(await world.as('othello').post(path, { add: [id('othello')] }), 'POST', path);
    // Joining is for oneself: adding someone else still needs can_add_members_group.
    expectError(
      await world.as('othello').post(path, { add: [id('cordelia')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    // can_leave_group defaults to role:everyone.
    expectSuccess(await world.as('othello').post(path, { delete: [id('othello')] }), 'POST', path);
    await world.as('hamlet').post(path, { add: [id('othello')] });
    await world.as('hamlet').patch(`/user_groups/${groupId}`, { can_leave_group: { new: sys['role:nobody'] } });
    expectError(
      await world.as('othello').post(path, { delete: [id('othello')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expect((await getGroup(world, groupId)).members).toEqual(sorted([id('hamlet'), id('othello')]));
  });

  it('lets can_add_members_group add others and can_remove_members_group remove them', async () => {
    const groupId = await hamletsGroup('delegated');
    const path = `/user_groups/${groupId}/members`;
    expectError(
      await world.as('cordelia').post(path, { add: [id('aaron')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    await world.as('hamlet').patch(`/user_groups/${groupId}`, {
      can_add_members_group: { new: { direct_members: [id('cordelia')], direct_subgroups: [] } },
    });
    expectSuccess(await world.as('cordelia').post(path, { add: [id('aaron')] }), 'POST', path);
    // Adding subgroups is adding members; removing them needs can_manage_group.
    expectSuccess(await world.as('cordelia').post(path, { add_subgroups: [sys['role:owners']] }), 'POST', path);
    expectError(
      await world.as('cordelia').post(path, { delete_subgroups: [sys['role:owners']] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await world.as('cordelia').post(path, { delete: [id('aaron')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    await world.as('hamlet').patch(`/user_groups/${groupId}`, {
      can_remove_members_group: { new: { direct_members: [id('cordelia')], direct_subgroups: [] } },
    });
    expectSuccess(await world.as('cordelia').post(path, { delete: [id('aaron')] }), 'POST', path);
    expect((await getGroup(world, groupId)).members).toEqual([id('hamlet')]);
  });

  it('refuses guests, even where can_join_group would include them', async () => {
    const groupId = await hamletsGroup('no guests', { can_join_group: sys['role:members'] });
    const path = `/user_groups/${groupId}/members`;
    expectError(
      await world.as('polonius').post(path, { add: [id('polonius')] }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
  });

  it("never changes system groups' membership", async () => {
    const path = `/user_groups/${sys['role:members']}/members`;
    expectError(
      await world.as('desdemona').post(path, { add: [id('polonius')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await world.as('desdemona').post(path, { delete: [id('desdemona')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });

  it('edits the membership of deactivated groups', async () => {
    const groupId = await hamletsGroup('asleep');
    await world.as('hamlet').post(`/user_groups/${groupId}/deactivate`);
    const path = `/user_groups/${groupId}/members`;
    expectSuccess(await world.as('hamlet').post(path, { add: [id('othello')] }), 'POST', path);
    expect((await getGroup(world, groupId)).members).toEqual(sorted([id('hamlet'), id('othello')]));
  });

  it('lets bots change membership when they hold the permission', async () => {
    const groupId = await hamletsGroup('bot crew', {
      can_add_members_group: { direct_members: [id('default-bot')], direct_subgroups: [] },
    });
    const path = `/user_groups/${groupId}/members`;
    expectSuccess(await world.as('default-bot').post(path, { add: [id('aaron')] }), 'POST', path);
    expectError(
      await world.as('default-bot').post(path, { delete: [id('aaron')] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });

  it('is visible to other services at once through the internal membership answer', async () => {
    const groupId = await hamletsGroup('internal view');
    const outer = await hamletsGroup('outer view', { subgroups: [groupId] });
    const before = await groupsInternal('GET', `/groups/${outer}/members/${id('prospero')}`);
    expect(before).toEqual({ status: 200, body: { result: 'success', msg: '', is_member: false } });
    await world.as('hamlet').post(`/user_groups/${groupId}/members`, { add: [id('prospero')] });
    expect((await groupsInternal('GET', `/groups/${outer}/members/${id('prospero')}`)).body.is_member).toBe(true);
    expect(
      (await groupsInternal('GET', `/groups/${outer}/members/${id('prospero')}?direct_member_only=true`)).body
        .is_member,
    ).toBe(false);
    const evaluated = await groupsInternal('POST', '/groups/evaluate', {
      realm_id: world.realm.realm_id,
      user_id: id('prospero'),
      value: { direct_members: [id('aaron')], direct_subgroups: [outer] },
    });
    expect(evaluated.body.is_member).toBe(true);
    const byName = await groupsInternal('POST', '/groups/evaluate', {
      realm_id: world.realm.realm_id,
      user_id: id('prospero'),
      value: 'role:administrators',
    });
    expect(byName.body.is_member).toBe(false);
    expect((await groupsInternal('GET', `/groups/999999/members/${id('prospero')}`)).status).toBe(404);
    // Other services fill their read models from the same data, page by page (all organizations': other files'
    // groups made meanwhile may come between these two).
    const page = await groupsInternal('GET', `/groups?after_id=${groupId - 1}`);
    const listed = (
      page.body.groups as { group: { group_id: number }; direct_members: number[]; members: number[] }[]
    ).filter((g) => g.group.group_id === groupId || g.group.group_id === outer);
    expect(listed.map((g) => [g.group.group_id, g.direct_members, g.members])).toEqual([
      [groupId, sorted([id('hamlet'), id('prospero')]), sorted([id('hamlet'), id('prospero')])],
      [outer, [id('hamlet')], sorted([id('hamlet'), id('prospero')])],
    ]);
  });
});

describe('POST /user_groups/{user_group_id}/subgroups', () => {
  it('adds and removes subgroups, and membership follows recursively', async () => {
    const inner = await hamletsGroup('inner', { members: [id('cordelia')] });
    const outer = await hamletsGroup('outer');
    const path = `/user_groups/${outer}/subgroups`;
    expectSuccess(await world.as('hamlet').post(path, { add: [inner] }), 'POST', path);
    expect(await membersOf(world, outer)).toEqual(sorted([id('hamlet'), id('cordelia')]));
    const subgroups = await world.as('hamlet').get(path);
    expectSuccess(subgroups, 'GET', path);
    expect(subgroups.body.subgroups).toEqual([inner]);
    expect(
      (await world.as('hamlet').get(`/user_groups/${outer}/members/${id('cordelia')}`)).body.is_user_group_member,
    ).toBe(true);
    expectSuccess(await world.as('hamlet').post(path, { delete: [inner] }), 'POST', path);
    expect(await membersOf(world, outer)).toEqual([id('hamlet')]);
  });

  it("answers Zulip's messages", async () => {
    const inner = await hamletsGroup('sub messages inner');
    const outer = await hamletsGroup('sub messages outer', { subgroups: [inner] });
    const path = `/user_groups/${outer}/subgroups`;
    const hamlet = world.as('hamlet');
    expectError(
      await hamlet.post(path, {}),
      400,
      'BAD_REQUEST',
      'Nothing to do. Specify at least one of "add" or "delete".',
    );
    expectError(
      await hamlet.post(path, { add: [inner] }),
      400,
      'BAD_REQUEST',
      `User group ${inner} is already a subgroup of this group.`,
    );
    expectError(
      await hamlet.post(path, { delete: [sys['role:members']] }),
      400,
      'BAD_REQUEST',
      `User group ${sys['role:members']} is not a subgroup of this group.`,
    );
    expectError(await hamlet.post(path, { add: [777777] }), 400, 'BAD_REQUEST', 'Invalid user group ID: 777777');
    expectError(
      await hamlet.post('/user_groups/777777/subgroups', { add: [inner] }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
    const asleep = await hamletsGroup('sleeping subgroup');
    await hamlet.post(`/user_groups/${asleep}/deactivate`);
    expectError(await hamlet.post(path, { add: [asleep] }), 400, 'BAD_REQUEST', 'User group is deactivated.');
    expectError(
      await world.as('othello').post(path, { add: [sys['role:members']] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });

  it('refuses a cycle anywhere in the graph', async () => {
    const a = await hamletsGroup('cycle a');
    const b = await hamletsGroup('cycle b', { subgroups: [a] });
    const c = await hamletsGroup('cycle c', { subgroups: [b] });
    // c ⊃ b ⊃ a: putting c (or b) under a would close a loop.
    for (const [parent, child] of [
      [a, c],
      [a, b],
      [b, c],
    ] as const) {
      expectError(
        await world.as('hamlet').post(`/user_groups/${parent}/subgroups`, { add: [child] }),
        400,
        'BAD_REQUEST',
        `User group ${parent} is already a subgroup of one of the passed subgroups.`,
      );
    }
    expectError(
      await world.as('hamlet').post(`/user_groups/${a}/subgroups`, { add: [a] }),
      400,
      'BAD_REQUEST',
      `User group ${a} is already a subgroup of one of the passed subgroups.`,
    );
    expectError(
      await world.as('hamlet').post(`/user_groups/${a}/members`, { add_subgroups: [c] }),
      400,
      'BAD_REQUEST',
      `User group ${a} is already a subgroup of one of the passed subgroups.`,
    );
    expect((await getGroup(world, a)).direct_subgroup_ids).toEqual([]);
  });

  it('lets only one of two concurrent opposite nestings through', async () => {
    for (let round = 0; round < 5; round++) {
      const x = await hamletsGroup(`race x ${round}`);
      const y = await hamletsGroup(`race y ${round}`);
      const [first, second] = await Promise.all([
        world.as('hamlet').post(`/user_groups/${x}/subgroups`, { add: [y] }),
        world.as('iago').post(`/user_groups/${y}/subgroups`, { add: [x] }),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 400]);
      const refused = first.status === 400 ? first : second;
      expect(refused.body.msg).toMatch(/^User group \d+ is already a subgroup of one of the passed subgroups\.$/);
      const nested =
        (await getGroup(world, x)).direct_subgroup_ids.length + (await getGroup(world, y)).direct_subgroup_ids.length;
      expect(nested).toBe(1);
    }
  });
});
