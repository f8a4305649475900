import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { createGroup, eventually, systemGroups } from './support/groups';
import { newWorld } from './support/system';
import { extraMembers, updateRealm } from './support/world-facts';

/** Channel and mention permissions held by user groups (the groups service owns them; messaging follows its events). */
describe('group-valued permissions in messaging', () => {
  let world: World;
  let sys: Record<string, number>;
  beforeAll(async () => {
    world = await newWorld();
    sys = await systemGroups(world);
  });

  it('shows system groups by their ids in channel permissions', async () => {
    const verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    const stream = await world.as('hamlet').get(`/streams/${verona}`);
    expectSuccess(stream, 'GET', `/streams/${verona}`);
    expect(stream.body.stream).toMatchObject({
      can_send_message_group: sys['role:everyone'],
      can_remove_subscribers_group: sys['role:administrators'],
      can_subscribe_group: sys['role:nobody'],
    });
  });

  it('lets the members of a group post where the group may, following membership changes', async () => {
    const writers = await createGroup(world.as('iago'), 'writers', { members: [world.user('hamlet').id] });
    // The new group reaches the messaging service by event, a moment after the groups service answered.
    await eventually(async () => {
      const created = await world.as('iago').post('/channels/create', {
        name: 'gazette',
        subscribers: [world.user('hamlet').id, world.user('othello').id],
        can_send_message_group: writers,
      });
      expectSuccess(created, 'POST', '/channels/create');
    });
    const post = (name: 'hamlet' | 'othello') =>
      world.as(name).post('/messages', { type: 'stream', to: 'gazette', topic: 'news', content: 'extra!' });
    await eventually(async () => expectSuccess(await post('hamlet'), 'POST', '/messages'));
    expectError(await post('othello'), 400, 'BAD_REQUEST', 'You do not have permission to post in this channel.');
    const added = await world.as('iago').post(`/user_groups/${writers}/members`, { add: [world.user('othello').id] });
    expect(added.status).toBe(200);
    await eventually(async () => expectSuccess(await post('othello'), 'POST', '/messages'));
  });

  it('lets a nested group hold a permission through its parent', async () => {
    const editors = await createGroup(world.as('iago'), 'editors', { members: [world.user('cordelia').id] });
    const staff = await createGroup(world.as('iago'), 'staff', { members: [], subgroups: [editors] });
    await eventually(async () => {
      const created = await world.as('iago').post('/channels/create', {
        name: 'staff room',
        subscribers: [world.user('cordelia').id, world.user('aaron').id],
        can_send_message_group: { direct_members: [], direct_subgroups: [staff] },
      });
      expectSuccess(created, 'POST', '/channels/create');
    });
    const post = (name: 'cordelia' | 'aaron') =>
      world.as(name).post('/messages', { type: 'stream', to: 'staff room', topic: 't', content: 'x' });
    await eventually(async () => expectSuccess(await post('cordelia'), 'POST', '/messages'));
    expectError(await post('aaron'), 400, 'BAD_REQUEST', 'You do not have permission to post in this channel.');
  });

  it('follows membership that changes below a group: a member added to its subgroup, then the subgroup taken out', async () => {
    const iago = world.as('iago');
    const scribes = await createGroup(iago, 'scribes', { members: [] });
    const guild = await createGroup(iago, 'guild', { members: [], subgroups: [scribes] });
    await eventually(async () => {
      const created = await iago.post('/channels/create', {
        name: 'scriptorium',
        subscribers: [world.user('prospero').id],
        can_send_message_group: { direct_members: [], direct_subgroups: [guild] },
      });
      expectSuccess(created, 'POST', '/channels/create');
    });
    const post = () =>
      world.as('prospero').post('/messages', { type: 'stream', to: 'scriptorium', topic: 't', content: 'ink' });
    const refused = (res: Awaited<ReturnType<typeof post>>) =>
      expectError(res, 400, 'BAD_REQUEST', 'You do not have permission to post in this channel.');
    refused(await post());

    // Joining the subgroup makes Prospero a member of the group above it.
    expectSuccess(
      await iago.post(`/user_groups/${scribes}/members`, { add: JSON.stringify([world.user('prospero').id]) }),
      'POST',
      `/user_groups/${scribes}/members`,
    );
    await eventually(async () => expectSuccess(await post(), 'POST', '/messages'));

    // Taking the subgroup out of the group takes its members out with it.
    expectSuccess(
      await iago.post(`/user_groups/${guild}/subgroups`, { delete: JSON.stringify([scribes]) }),
      'POST',
      `/user_groups/${guild}/subgroups`,
    );
    await eventually(async () => refused(await post()));
  });

  it('checks who may mention a group and flags its members', async () => {
    const owls = await createGroup(world.as('iago'), 'owls', {
      members: [world.user('prospero').id, world.user('aaron').id],
      can_mention_group: { direct_members: [world.user('iago').id], direct_subgroups: [] },
    });
    await eventually(async () => {
      const refused = await world
        .as('hamlet')
        .post('/messages', { type: 'stream', to: 'Verona', topic: 'owls', content: 'hey @*owls*' });
      expectError(refused, 400, 'BAD_REQUEST', "You are not allowed to mention user group 'owls'.");
    });
    const allowed = await world
      .as('iago')
      .post('/messages', { type: 'stream', to: 'Verona', topic: 'owls', content: 'hey @*owls*' });
    expectSuccess(allowed, 'POST', '/messages');
    const seen = await world.as('aaron').get(`/messages/${allowed.body.id}`);
    expect(seen.body.message.content).toContain(`data-user-group-id="${owls}"`);
    expect(seen.body.message.flags).toEqual(['mentioned']);
    expect((await world.as('othello').get(`/messages/${allowed.body.id}`)).body.message.flags).toEqual([]);
    // Silent group mentions are allowed to anyone and notify nobody.
    expectSuccess(
      await world
        .as('hamlet')
        .post('/messages', { type: 'stream', to: 'Verona', topic: 'owls', content: 'fyi @_*owls*' }),
      'POST',
      '/messages',
    );
  });

  it('follows a membership change made through the groups service within a second: wildcards and deletion', async () => {
    const iago = world.as('iago');
    const heralds = await createGroup(iago, 'heralds');
    const extras = await extraMembers(world, 16);
    expectSuccess(
      await iago.post('/channels/create', {
        name: 'agora',
        subscribers: [world.user('hamlet').id, world.user('othello').id, world.user('iago').id, ...extras],
        can_delete_any_message_group: heralds,
      }),
      'POST',
      '/channels/create',
    );
    await updateRealm(world, { permissions: { can_mention_many_users_group: heralds } });
    const hamlet = world.as('hamlet');
    const wildcard = () =>
      hamlet.post('/messages', { type: 'stream', to: 'agora', topic: 'news', content: '@**all** hear' });
    const othellos = (
      await world.as('othello').post('/messages', { type: 'stream', to: 'agora', topic: 'news', content: 'mine' })
    ).body.id as number;
    expectError(
      await wildcard(),
      400,
      'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      'You do not have permission to use channel wildcard mentions in this channel.',
    );
    expectError(
      await hamlet.delete(`/messages/${othellos}`),
      400,
      'BAD_REQUEST',
      "You don't have permission to delete this message",
    );

    // Hamlet joins the group through the groups service; messaging learns it from the event within a second.
    expectSuccess(
      await iago.post(`/user_groups/${heralds}/members`, { add: JSON.stringify([world.user('hamlet').id]) }),
      'POST',
      `/user_groups/${heralds}/members`,
    );
    await eventually(async () => expectSuccess(await wildcard(), 'POST', '/messages'), 1000);
    await eventually(
      async () => expectSuccess(await hamlet.delete(`/messages/${othellos}`), 'DELETE', `/messages/${othellos}`),
      1000,
    );

    // And leaves it: both permissions go again.
    expectSuccess(
      await iago.post(`/user_groups/${heralds}/members`, { delete: JSON.stringify([world.user('hamlet').id]) }),
      'POST',
      `/user_groups/${heralds}/members`,
    );
    await eventually(
      async () =>
        expectError(
          await wildcard(),
          400,
          'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
          'You do not have permission to use channel wildcard mentions in this channel.',
        ),
      1000,
    );
  });
});
