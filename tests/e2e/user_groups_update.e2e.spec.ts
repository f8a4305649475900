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

/** A group created by hamlet: he manages it, nobody else does (except administrators and owners). */
async function hamletsGroup(name: string, params: Record<string, unknown> = {}): Promise<number> {
  return createGroup(world.as('hamlet'), name, { members: [id('hamlet')], ...params });
}

describe('PATCH /user_groups/{user_group_id}', () => {
  it('updates name, description and settings, read back through GET /user_groups', async () => {
    const groupId = await hamletsGroup('renamed soon');
    const path = `/user_groups/${groupId}`;
    const response = await world.as('hamlet').patch(path, {
      name: 'renamed',
      description: 'New description',
      can_mention_group: { new: sys['role:members'] },
      can_join_group: {
        new: { direct_members: [id('othello')], direct_subgroups: [sys['role:moderators']] },
        old: sys['role:nobody'],
      },
    });
    expectSuccess(response, 'PATCH', path);
    expect(await getGroup(world, groupId)).toMatchObject({
      name: 'renamed',
      description: 'New description',
      can_mention_group: sys['role:members'],
      can_join_group: { direct_members: [id('othello')], direct_subgroups: [sys['role:moderators']] },
    });
  });

  it('says No new data supplied when nothing is given', async () => {
    const groupId = await hamletsGroup('no data');
    expectError(
      await world.as('hamlet').patch(`/user_groups/${groupId}`, {}),
      400,
      'BAD_REQUEST',
      'No new data supplied',
    );
  });

  it('says Invalid user group for unknown groups and groups of other organizations', async () => {
    expectError(
      await world.as('iago').patch('/user_groups/999999', { name: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
    expectError(
      await world.as('iago').patch('/user_groups/99999999999', { name: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
    const other = await newWorld();
    const theirs = await createGroup(other.as('iago'), 'theirs');
    expectError(
      await world.as('iago').patch(`/user_groups/${theirs}`, { name: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
  });

  it('never edits system groups, not even for owners', async () => {
    for (const name of ['role:members', 'role:nobody']) {
      expectError(
        await world.as('desdemona').patch(`/user_groups/${sys[name]}`, { description: 'mine now' }),
        400,
        'BAD_REQUEST',
        'Insufficient permission',
      );
    }
  });

  it('lets whoever can_manage_group names, administrators and can_manage_all_groups (owners) edit, nobody else', async () => {
    const groupId = await hamletsGroup('managed');
    const path = `/user_groups/${groupId}`;
    expectError(
      await world.as('othello').patch(path, { description: 'by othello' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await world.as('shiva').patch(path, { description: 'by shiva' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectSuccess(await world.as('iago').patch(path, { description: 'by iago' }), 'PATCH', path);
    expectSuccess(await world.as('desdemona').patch(path, { description: 'by desdemona' }), 'PATCH', path);
    expectSuccess(
      await world.as('hamlet').patch(path, {
        can_manage_group: { new: { direct_members: [id('hamlet'), id('othello')], direct_subgroups: [] } },
      }),
      'PATCH',
      path,
    );
    expectSuccess(await world.as('othello').patch(path, { description: 'by othello' }), 'PATCH', path);
    expect((await getGroup(world, groupId)).description).toBe('by othello');
  });

  it('lets bots edit groups they may manage (feature level 496) and refuses guests', async () => {
    const groupId = await hamletsGroup('bot managed');
    const path = `/user_groups/${groupId}`;
    expectError(
      await world.as('default-bot').patch(path, { description: 'by bot' }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    await world.as('hamlet').patch(path, {
      can_manage_group: { new: { direct_members: [id('hamlet'), id('default-bot')], direct_subgroups: [] } },
    });
    expectSuccess(await world.as('default-bot').patch(path, { description: 'by bot' }), 'PATCH', path);
    expect((await getGroup(world, groupId)).description).toBe('by bot');
    expectError(
      await world.as('polonius').patch(path, { description: 'by guest' }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
  });

  it('refuses a name that is taken or invalid', async () => {
    const groupId = await hamletsGroup('first name');
    await hamletsGroup('second name');
    const path = `/user_groups/${groupId}`;
    expectError(
      await world.as('hamlet').patch(path, { name: 'second name' }),
      400,
      'BAD_REQUEST',
      "User group 'second name' already exists.",
    );
    expectError(
      await world.as('hamlet').patch(path, { name: 'role:mine' }),
      400,
      'BAD_REQUEST',
      "User group name cannot start with 'role:'.",
    );
    expectError(
      await world.as('hamlet').patch(path, { name: '' }),
      400,
      'BAD_REQUEST',
      "User group name can't be empty!",
    );
    // Renaming to the current name is no change at all.
    expectSuccess(await world.as('hamlet').patch(path, { name: 'first name' }), 'PATCH', path);
  });

  describe('compare-and-set with {new, old}', () => {
    it("refuses the change when old is not the current value, with Zulip's EXPECTATION_MISMATCH", async () => {
      const groupId = await hamletsGroup('cas');
      const path = `/user_groups/${groupId}`;
      const response = await world.as('hamlet').patch(path, {
        description: 'not applied',
        can_mention_group: { new: sys['role:members'], old: sys['role:moderators'] },
      });
      expectError(response, 400, 'EXPECTATION_MISMATCH', "'old' value does not match the expected value.", {
        field_name: 'old',
      });
      // All or nothing: the description stayed too.
      expect(await getGroup(world, groupId)).toMatchObject({
        can_mention_group: sys['role:everyone'],
        description: 'The cas group.',
      });
    });

    it('compares anonymous groups as sets, a lone subgroup being that group', async () => {
      const groupId = await hamletsGroup('cas sets', {
        can_join_group: { direct_members: [id('othello'), id('cordelia')], direct_subgroups: [sys['role:moderators']] },
      });
      const path = `/user_groups/${groupId}`;
      expectSuccess(
        await world.as('hamlet').patch(path, {
          can_join_group: {
            new: sys['role:members'],
            old: { direct_members: [id('cordelia'), id('othello')], direct_subgroups: [sys['role:moderators']] },
          },
          can_mention_group: {
            new: sys['role:nobody'],
            old: { direct_members: [], direct_subgroups: [sys['role:everyone']] },
          },
        }),
        'PATCH',
        path,
      );
      expect(await getGroup(world, groupId)).toMatchObject({
        can_join_group: sys['role:members'],
        can_mention_group: sys['role:nobody'],
      });
    });

    it('lets exactly one of many concurrent updates with the same old value win', async () => {
      const groupId = await hamletsGroup('contended');
      const path = `/user_groups/${groupId}`;
      const candidates = [
        'role:members',
        'role:moderators',
        'role:administrators',
        'role:fullmembers',
        'role:nobody',
        'role:owners',
      ];
      const attempts = candidates.map((name, i) =>
        world
          .as(i % 2 === 0 ? 'hamlet' : 'iago')
          .patch(path, { can_join_group: { new: sys[name], old: sys['role:nobody'] } }),
      );
      const responses = await Promise.all(attempts);
      // role:nobody is the current value: that request changes nothing and always succeeds, so leave it out.
      const contenders = responses.filter((_, i) => candidates[i] !== 'role:nobody');
      const winners = contenders.filter((r) => r.status === 200);
      const losers = contenders.filter((r) => r.status !== 200);
      expect(winners).toHaveLength(1);
      for (const loser of losers)
        expectError(loser, 400, 'EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
      const winner = candidates.filter((n) => n !== 'role:nobody')[contenders.indexOf(winners[0]!)]!;
      expect((await getGroup(world, groupId)).can_join_group).toBe(sys[winner]);
    });
  });

  describe('system groups allowed in settings', () => {
    it('refuses role:internet and role:everyone for can_manage_group', async () => {
      const path = `/user_groups/${await hamletsGroup('manage rules')}`;
      for (const name of ['role:internet', 'role:everyone']) {
        expectError(
          await world.as('hamlet').patch(path, { can_manage_group: { new: sys[name] } }),
          400,
          'BAD_REQUEST',
          `'can_manage_group' setting cannot be set to '${name}' group.`,
        );
      }
      expectSuccess(
        await world.as('hamlet').patch(path, { can_manage_group: { new: sys['role:members'] } }),
        'PATCH',
        path,
      );
    });

    it('refuses role:internet and role:owners for can_mention_group', async () => {
      const path = `/user_groups/${await hamletsGroup('mention rules')}`;
      for (const name of ['role:internet', 'role:owners']) {
        expectError(
          await world.as('hamlet').patch(path, { can_mention_group: { new: sys[name] } }),
          400,
          'BAD_REQUEST',
          `'can_mention_group' setting cannot be set to '${name}' group.`,
        );
      }
      expectSuccess(
        await world.as('hamlet').patch(path, { can_mention_group: { new: sys['role:nobody'] } }),
        'PATCH',
        path,
      );
      expectSuccess(
        await world.as('hamlet').patch(path, { can_mention_group: { new: sys['role:administrators'] } }),
        'PATCH',
        path,
      );
    });
  });

  it('refuses unknown users and groups inside anonymous values', async () => {
    const path = `/user_groups/${await hamletsGroup('anonymous checks')}`;
    expectError(
      await world
        .as('hamlet')
        .patch(path, { can_join_group: { new: { direct_members: [id('othello'), 999999], direct_subgroups: [] } } }),
      400,
      'BAD_REQUEST',
      'Invalid user ID: 999999',
    );
    expectError(
      await world
        .as('hamlet')
        .patch(path, { can_join_group: { new: { direct_members: [id('othello')], direct_subgroups: [888888] } } }),
      400,
      'BAD_REQUEST',
      'Invalid user group ID: 888888',
    );
    expectError(
      await world.as('hamlet').patch(path, { can_join_group: { new: 888888 } }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
    expectError(
      await world.as('hamlet').patch(path, { can_join_group: { old: 1 } }),
      400,
      'BAD_REQUEST',
      'Missing \'can_join_group["new"]\' argument',
    );
    expectError(
      await world.as('hamlet').patch(path, { can_join_group: { new: 1, extra: 2 } }),
      400,
      'BAD_REQUEST',
      'Argument "extra" at can_join_group["extra"] is unexpected',
    );
  });

  describe('deactivated groups', () => {
    it('deactivated=true does nothing; deactivated=false reactivates', async () => {
      const groupId = await hamletsGroup('comes back');
      const path = `/user_groups/${groupId}`;
      expectSuccess(await world.as('hamlet').patch(path, { deactivated: true }), 'PATCH', path);
      expect((await getGroup(world, groupId)).deactivated).toBe(false);
      expectSuccess(await world.as('hamlet').post(`${path}/deactivate`), 'POST', `${path}/deactivate`);
      expect((await getGroup(world, groupId)).deactivated).toBe(true);
      expectSuccess(await world.as('hamlet').patch(path, { deactivated: true }), 'PATCH', path);
      expect((await getGroup(world, groupId)).deactivated).toBe(true);
      expectSuccess(await world.as('hamlet').patch(path, { deactivated: false }), 'PATCH', path);
      expect((await getGroup(world, groupId)).deactivated).toBe(false);
    });

    it('stay editable but cannot be used in a permission value until reactivated', async () => {
      const groupId = await hamletsGroup('dormant');
      const path = `/user_groups/${groupId}`;
      await world.as('hamlet').post(`${path}/deactivate`);
      expectSuccess(
        await world.as('hamlet').patch(path, {
          name: 'dormant renamed',
          description: 'still editable',
          can_mention_group: { new: sys['role:members'] },
        }),
        'PATCH',
        path,
      );
      expect(await getGroup(world, groupId)).toMatchObject({
        name: 'dormant renamed',
        description: 'still editable',
        deactivated: true,
      });
      const user = `/user_groups/${await hamletsGroup('user of dormant')}`;
      expectError(
        await world.as('hamlet').patch(user, { can_mention_group: { new: groupId } }),
        400,
        'BAD_REQUEST',
        'User group is deactivated.',
      );
      expectError(
        await world
          .as('hamlet')
          .patch(user, { can_mention_group: { new: { direct_members: [id('hamlet')], direct_subgroups: [groupId] } } }),
        400,
        'BAD_REQUEST',
        'User group is deactivated.',
      );
      expectError(
        await world
          .as('hamlet')
          .post('/user_groups/create', { name: 'n2', description: '', members: [], can_join_group: groupId }),
        400,
        'BAD_REQUEST',
        'User group is deactivated.',
      );
      await world.as('hamlet').patch(path, { deactivated: false });
      expectSuccess(await world.as('hamlet').patch(user, { can_mention_group: { new: groupId } }), 'PATCH', user);
    });
  });
});
