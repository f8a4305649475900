import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { createGroup, eventually, getGroup, membersOf, sorted, systemGroups, type UserGroup } from './support/groups';
import { openApiErrors } from './support/openapi';
import { newWorld } from './support/system';

let world: World;
let sys: Record<string, number>;
const id = (name: Parameters<World['user']>[0]) => world.user(name).id;

beforeAll(async () => {
  world = await newWorld();
  sys = await systemGroups(world);
});

describe('GET /user_groups', () => {
  it("lists Zulip's system groups, nested and filled by role", async () => {
    const response = await world.as('hamlet').get('/user_groups');
    expectSuccess(response, 'GET', '/user_groups');
    const groups = response.body.user_groups as UserGroup[];
    const byName = Object.fromEntries(groups.map((g) => [g.name, g]));
    const members = ['hamlet', 'othello', 'cordelia', 'prospero', 'aaron', 'default-bot'] as const;
    const expected: Record<string, [string, number[], string[]]> = {
      'role:nobody': ['Nobody', [], []],
      'role:owners': ['Owners of this organization', [id('desdemona')], []],
      'role:administrators': ['Administrators of this organization, including owners', [id('iago')], ['role:owners']],
      'role:moderators': [
        'Moderators of this organization, including administrators',
        [id('shiva')],
        ['role:administrators'],
      ],
      'role:fullmembers': [
        'Members of this organization, not including new accounts and guests',
        members.map(id),
        ['role:moderators'],
      ],
      'role:members': ['Members of this organization, not including guests', members.map(id), ['role:fullmembers']],
      'role:everyone': ['Everyone in this organization, including guests', [id('polonius')], ['role:members']],
      'role:internet': ['Everyone on the Internet', [], ['role:everyone']],
    };
    expect(Object.keys(byName).sort()).toEqual(Object.keys(expected).sort());
    for (const [name, [description, direct, subgroups]] of Object.entries(expected)) {
      const group = byName[name]!;
      expect({
        name,
        description: group.description,
        members: group.members,
        subgroups: group.direct_subgroup_ids,
      }).toEqual({
        name,
        description,
        members: sorted(direct),
        subgroups: subgroups.map((s) => byName[s]!.id),
      });
      expect(group).toMatchObject({ is_system_group: true, deactivated: false, creator_id: null });
      for (const setting of [
        'can_add_members_group',
        'can_join_group',
        'can_leave_group',
        'can_manage_group',
        'can_mention_group',
        'can_remove_members_group',
      ] as const) {
        expect(group[setting]).toBe(sys['role:nobody']);
      }
    }
  });

  it('is checked against the OpenAPI description, which accepts both forms of a setting value and nothing else', async () => {
    const response = await world.as('hamlet').get('/user_groups');
    const group = { ...(response.body.user_groups as object[])[0] };
    const withValue = (value: unknown) => ({ ...response.body, user_groups: [{ ...group, can_manage_group: value }] });
    expect(openApiErrors('GET', '/user_groups', 200, withValue(3))).toEqual([]);
    expect(openApiErrors('GET', '/user_groups', 200, withValue({ direct_members: [1], direct_subgroups: [] }))).toEqual(
      [],
    );
    expect(openApiErrors('GET', '/user_groups', 200, withValue('role:members'))).not.toEqual([]);
    expect(openApiErrors('GET', '/user_groups', 200, withValue({ direct_members: [1], extra: 1 }))).not.toEqual([]);
  });

  it('leaves deactivated groups out unless include_deactivated_groups is true', async () => {
    const groupId = await createGroup(world.as('iago'), 'soon gone');
    expectSuccess(
      await world.as('iago').post(`/user_groups/${groupId}/deactivate`),
      'POST',
      `/user_groups/${groupId}/deactivate`,
    );
    const active = await world.as('hamlet').get('/user_groups');
    expect((active.body.user_groups as { id: number }[]).map((g) => g.id)).not.toContain(groupId);
    const all = await world.as('hamlet').get('/user_groups', { include_deactivated_groups: true });
    expectSuccess(all, 'GET', '/user_groups');
    expect(
      (all.body.user_groups as { id: number; deactivated: boolean }[]).find((g) => g.id === groupId),
    ).toMatchObject({ deactivated: true });
  });

  it('refuses guests and bots', async () => {
    expectError(await world.as('polonius').get('/user_groups'), 400, 'BAD_REQUEST', 'Not allowed for guest users');
    expectError(
      await world.as('default-bot').get('/user_groups'),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });

  it('requires authentication', async () => {
    expectError(
      await world.anonymous().get('/user_groups'),
      401,
      'UNAUTHORIZED',
      'Not logged in: API authentication or user session required',
    );
  });
});

describe('POST /user_groups/create', () => {
  it("creates a group with Zulip's defaults: the creator manages it and adds members, everyone may leave and mention", async () => {
    const response = await world.as('hamlet').post('/user_groups/create', {
      name: 'Hamlet characters',
      description: 'Characters of Hamlet',
      members: [id('hamlet'), id('othello')],
      subgroups: [sys['role:moderators']],
    });
    expectSuccess(response, 'POST', '/user_groups/create');
    const groupId = response.body.group_id as number;
    const group = await getGroup(world, groupId);
    const creator = { direct_members: [id('hamlet')], direct_subgroups: [] };
    expect(group).toEqual({
      id: groupId,
      name: 'Hamlet characters',
      description: 'Characters of Hamlet',
      members: sorted([id('hamlet'), id('othello')]),
      direct_subgroup_ids: [sys['role:moderators']],
      creator_id: id('hamlet'),
      date_created: expect.any(Number),
      is_system_group: false,
      can_add_members_group: creator,
      can_join_group: sys['role:nobody'],
      can_leave_group: sys['role:everyone'],
      can_manage_group: creator,
      can_mention_group: sys['role:everyone'],
      can_remove_members_group: sys['role:nobody'],
      deactivated: false,
    });
    expect(Math.abs(group.date_created - Date.now() / 1000)).toBeLessThan(120);
    // Members of subgroups are members too: moderators include administrators and owners.
    expect(await membersOf(world, groupId)).toEqual(
      sorted([id('hamlet'), id('othello'), id('shiva'), id('iago'), id('desdemona')]),
    );
  });

  it('takes permission settings as group-setting values, a lone subgroup standing for that group', async () => {
    const groupId = await createGroup(world.as('iago'), 'with settings', {
      can_manage_group: { direct_members: [id('cordelia')], direct_subgroups: [sys['role:moderators']] },
      can_join_group: { direct_members: [], direct_subgroups: [sys['role:members']] },
      can_mention_group: { direct_members: [], direct_subgroups: [] },
      can_leave_group: sys['role:nobody'],
    });
    const group = await getGroup(world, groupId);
    expect(group).toMatchObject({
      can_manage_group: { direct_members: [id('cordelia')], direct_subgroups: [sys['role:moderators']] },
      can_join_group: sys['role:members'],
      can_mention_group: sys['role:nobody'],
      can_leave_group: sys['role:nobody'],
    });
  });

  it('refuses invalid members, names and values with Zulip messages', async () => {
    const iago = world.as('iago');
    const create = (params: Record<string, unknown>) =>
      iago.post('/user_groups/create', { name: 'valid name', description: '', members: [], ...params });
    expectError(await create({ members: [id('hamlet'), 987654] }), 400, 'BAD_REQUEST', 'Invalid user ID: 987654');
    expectError(await create({ members: [4294967296] }), 400, 'BAD_REQUEST', 'Invalid user ID: 4294967296');
    expectError(await create({ name: '   ' }), 400, 'BAD_REQUEST', "User group name can't be empty!");
    expectError(
      await create({ name: 'x'.repeat(101) }),
      400,
      'BAD_REQUEST',
      'User group name cannot exceed 100 characters.',
    );
    expectError(
      await create({ name: 'role:admins' }),
      400,
      'BAD_REQUEST',
      "User group name cannot start with 'role:'.",
    );
    expectError(await create({ name: '@all' }), 400, 'BAD_REQUEST', "User group name cannot start with '@'.");
    await createGroup(iago, 'taken');
    expectError(await create({ name: 'taken' }), 400, 'BAD_REQUEST', "User group 'taken' already exists.");
    expectError(
      await create({ subgroups: [sys['role:members'], 876543] }),
      400,
      'BAD_REQUEST',
      'Invalid user group ID: 876543',
    );
    expectError(
      await create({ can_manage_group: sys['role:everyone'] }),
      400,
      'BAD_REQUEST',
      "'can_manage_group' setting cannot be set to 'role:everyone' group.",
    );
    expectError(await create({ can_mention_group: 765432 }), 400, 'BAD_REQUEST', 'Invalid user group');
    expectError(
      await iago.post('/user_groups/create', { name: 'n', description: '' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'members' argument",
    );
    expectError(await create({ members: '[1,' }), 400, 'BAD_REQUEST', 'members is not valid JSON');
    // Nothing of the refused requests was created.
    const names = ((await iago.get('/user_groups')).body.user_groups as { name: string }[]).map((g) => g.name);
    expect(names.filter((n) => n === 'valid name')).toEqual([]);
  });

  it('refuses guests and bots', async () => {
    const params = { name: 'not mine', description: '', members: [] };
    expectError(
      await world.as('polonius').post('/user_groups/create', params),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    expectError(
      await world.as('default-bot').post('/user_groups/create', params),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });
});

describe('GET /user_groups/{user_group_id}/members', () => {
  it('lists recursive members by default and direct members with direct_member_only', async () => {
    const path = `/user_groups/${sys['role:moderators']}/members`;
    const recursive = await world.as('hamlet').get(path);
    expectSuccess(recursive, 'GET', path);
    expect(sorted(recursive.body.members)).toEqual(sorted([id('shiva'), id('iago'), id('desdemona')]));
    const direct = await world.as('hamlet').get(path, { direct_member_only: true });
    expectSuccess(direct, 'GET', path);
    expect(direct.body.members).toEqual([id('shiva')]);
  });

  it('answers Invalid user group for unknown ids, also beyond the database range', async () => {
    expectError(await world.as('hamlet').get('/user_groups/999999/members'), 400, 'BAD_REQUEST', 'Invalid user group');
    expectError(
      await world.as('hamlet').get('/user_groups/99999999999/members'),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
  });

  it("does not show another organization's groups", async () => {
    const other = await newWorld();
    const theirs = await createGroup(other.as('iago'), 'elsewhere');
    expectError(
      await world.as('hamlet').get(`/user_groups/${theirs}/members`),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
  });
});

describe('GET /user_groups/{user_group_id}/members/{user_id}', () => {
  it('answers recursively unless direct_member_only', async () => {
    const path = `/user_groups/${sys['role:members']}/members/${id('iago')}`;
    const recursive = await world.as('hamlet').get(path);
    expectSuccess(recursive, 'GET', path);
    expect(recursive.body.is_user_group_member).toBe(true);
    expect((await world.as('hamlet').get(path, { direct_member_only: true })).body.is_user_group_member).toBe(false);
    expect(
      (await world.as('hamlet').get(`/user_groups/${sys['role:members']}/members/${id('polonius')}`)).body
        .is_user_group_member,
    ).toBe(false);
  });

  it('refuses unknown users and bots like Zulip', async () => {
    const base = `/user_groups/${sys['role:members']}/members`;
    expectError(await world.as('hamlet').get(`${base}/999999`), 400, 'BAD_REQUEST', 'No such user');
    expectError(await world.as('hamlet').get(`${base}/${id('default-bot')}`), 400, 'BAD_REQUEST', 'No such user');
    expectError(
      await world.as('hamlet').get(`/user_groups/999999/members/${id('iago')}`),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
  });
});

describe('GET /user_groups/{user_group_id}/subgroups', () => {
  it('lists every subgroup below, or only direct ones', async () => {
    const path = `/user_groups/${sys['role:everyone']}/subgroups`;
    const recursive = await world.as('hamlet').get(path);
    expectSuccess(recursive, 'GET', path);
    expect(sorted(recursive.body.subgroups)).toEqual(
      sorted(
        ['role:members', 'role:fullmembers', 'role:moderators', 'role:administrators', 'role:owners'].map(
          (n) => sys[n]!,
        ),
      ),
    );
    const direct = await world.as('hamlet').get(path, { direct_subgroup_only: true });
    expectSuccess(direct, 'GET', path);
    expect(direct.body.subgroups).toEqual([sys['role:members']]);
  });
});

describe('system group membership follows the users', () => {
  it("drops a deactivated user from every group's members and brings them back on reactivation", async () => {
    const other = await newWorld();
    const otherSys = await systemGroups(other);
    const groupId = await createGroup(other.as('iago'), 'with aaron', {
      members: [other.user('aaron').id, other.user('cordelia').id],
      can_mention_group: { direct_members: [other.user('aaron').id, other.user('hamlet').id], direct_subgroups: [] },
    });
    const aaron = other.user('aaron').id;
    expectSuccess(await other.as('iago').delete(`/users/${aaron}`), 'DELETE', `/users/${aaron}`);
    await eventually(async () => expect(await membersOf(other, otherSys['role:members']!)).not.toContain(aaron));
    expect(await membersOf(other, groupId)).toEqual([other.user('cordelia').id]);
    expect((await getGroup(other, groupId)).can_mention_group).toEqual({
      direct_members: [other.user('hamlet').id],
      direct_subgroups: [],
    });
    expectError(
      await other.as('hamlet').get(`/user_groups/${groupId}/members/${aaron}`),
      400,
      'BAD_REQUEST',
      'User is deactivated',
    );
    expectError(
      await other.as('iago').post(`/user_groups/${groupId}/members`, { add: [aaron] }),
      400,
      'BAD_REQUEST',
      `Invalid user ID: ${aaron}`,
    );
    expectSuccess(await other.as('iago').post(`/users/${aaron}/reactivate`), 'POST', `/users/${aaron}/reactivate`);
    await eventually(async () => expect(await membersOf(other, otherSys['role:members']!)).toContain(aaron));
    expect(await membersOf(other, groupId)).toEqual(sorted([aaron, other.user('cordelia').id]));
    expect((await getGroup(other, groupId)).can_mention_group).toEqual({
      direct_members: sorted([aaron, other.user('hamlet').id]),
      direct_subgroups: [],
    });
  });
});
