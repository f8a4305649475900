import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { createGroup, eventually, systemGroups } from './support/groups';
import { newWorld } from './support/system';

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
});
