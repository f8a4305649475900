import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { createGroup, getGroup, systemGroups } from './support/groups';
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

const inUse = 'Cannot deactivate user group in use.';

describe('POST /user_groups/{user_group_id}/deactivate', () => {
  it('deactivates a group its manager may manage; it then reads as deactivated', async () => {
    const groupId = await hamletsGroup('retiring');
    const path = `/user_groups/${groupId}/deactivate`;
    expectError(await world.as('othello').post(path), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectSuccess(await world.as('hamlet').post(path), 'POST', path);
    expect(await getGroup(world, groupId)).toMatchObject({ deactivated: true, members: [id('hamlet')] });
    expectError(await world.as('hamlet').post(path), 400, 'BAD_REQUEST', 'User group is deactivated.');
    expectError(
      await world.as('hamlet').get(`/user_groups/${groupId}/members`),
      400,
      'BAD_REQUEST',
      'User group is deactivated.',
    );
  });

  it('refuses system groups and unknown groups', async () => {
    expectError(
      await world.as('desdemona').post(`/user_groups/${sys['role:moderators']}/deactivate`),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await world.as('desdemona').post('/user_groups/999999/deactivate'),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
  });

  it('is refused while the group is a subgroup of an active group', async () => {
    const inner = await hamletsGroup('needed inner');
    const outer = await hamletsGroup('needing outer', { subgroups: [inner] });
    expectError(
      await world.as('hamlet').post(`/user_groups/${inner}/deactivate`),
      400,
      'CANNOT_DEACTIVATE_GROUP_IN_USE',
      inUse,
      {
        objections: [{ type: 'subgroup', supergroup_ids: [outer] }],
      },
    );
    // Once the supergroup is deactivated itself, it no longer holds the subgroup in use.
    await world.as('hamlet').post(`/user_groups/${outer}/deactivate`);
    expectSuccess(
      await world.as('hamlet').post(`/user_groups/${inner}/deactivate`),
      'POST',
      `/user_groups/${inner}/deactivate`,
    );
  });

  it("is refused while any group's permission setting uses the group, directly or inside an anonymous group", async () => {
    const needed = await hamletsGroup('needed for settings');
    const direct = await hamletsGroup('direct user', { can_mention_group: needed, can_join_group: needed });
    const anonymousUser = await hamletsGroup('anonymous user', {
      can_manage_group: { direct_members: [id('hamlet')], direct_subgroups: [needed] },
    });
    const response = await world.as('hamlet').post(`/user_groups/${needed}/deactivate`);
    expectError(response, 400, 'CANNOT_DEACTIVATE_GROUP_IN_USE', inUse, {
      objections: [
        { type: 'user_group', group_id: direct, settings: ['can_join_group', 'can_mention_group'] },
        { type: 'user_group', group_id: anonymousUser, settings: ['can_manage_group'] },
      ],
    });
    expect((await getGroup(world, needed)).deactivated).toBe(false);
    await world.as('hamlet').patch(`/user_groups/${direct}`, {
      can_mention_group: { new: sys['role:everyone'] },
      can_join_group: { new: sys['role:nobody'] },
    });
    await world.as('hamlet').patch(`/user_groups/${anonymousUser}`, {
      can_manage_group: { new: { direct_members: [id('hamlet')], direct_subgroups: [] } },
    });
    expectSuccess(
      await world.as('hamlet').post(`/user_groups/${needed}/deactivate`),
      'POST',
      `/user_groups/${needed}/deactivate`,
    );
  });
});
