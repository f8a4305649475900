import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

describe('GET /streams', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
    await world
      .as('iago')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'staff only' }], invite_only: true });
  });

  it('lists the public channels and the private ones the caller is subscribed to', async () => {
    const hamlet = await world.as('hamlet').get('/streams');
    expectSuccess(hamlet, 'GET', '/streams');
    expect((hamlet.body.streams as { name: string }[]).map((s) => s.name).sort()).toEqual([
      'Denmark',
      'Rome',
      'Scotland',
      'Venice',
      'Verona',
    ]);
    const iago = await world.as('iago').get('/streams');
    expect((iago.body.streams as { name: string }[]).map((s) => s.name)).toContain('staff only');
    const denmark = (hamlet.body.streams as Record<string, unknown>[]).find((s) => s.name === 'Denmark')!;
    expect(denmark).toMatchObject({
      invite_only: false,
      is_web_public: false,
      history_public_to_subscribers: true,
      description: 'The Denmark channel.',
      subscriber_count: 9,
      creator_id: world.user('desdemona').id,
    });
  });

  it('shows guests only their own channels', async () => {
    const response = await world.as('polonius').get('/streams');
    expect((response.body.streams as { name: string }[]).map((s) => s.name)).toEqual(['Verona']);
  });

  it('lets administrators list every channel', async () => {
    expectError(
      await world.as('hamlet').get('/streams', { include_all: true }),
      400,
      'BAD_REQUEST',
      'User not authorized for this query',
    );
    const all = await world.as('desdemona').get('/streams', { include_all: true });
    expect((all.body.streams as { name: string }[]).map((s) => s.name)).toContain('staff only');
  });
});

describe('GET /streams/{stream_id} and GET /get_stream_id', () => {
  it('finds channels the caller may see', async () => {
    const world = await newWorld();
    const id = await world.as('hamlet').get('/get_stream_id', { stream: 'verona' });
    expectSuccess(id, 'GET', '/get_stream_id');
    const stream = await world.as('hamlet').get(`/streams/${id.body.stream_id}`);
    expectSuccess(stream, 'GET', `/streams/${id.body.stream_id}`);
    expect(stream.body.stream).toMatchObject({ stream_id: id.body.stream_id, name: 'Verona', subscriber_count: 10 });
    expectError(
      await world.as('hamlet').get('/get_stream_id', { stream: 'nope' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'nope'",
    );
    expectError(await world.as('hamlet').get('/streams/99999999'), 400, 'BAD_REQUEST', 'Invalid channel ID');
    const denmark = (await world.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id;
    expectError(await world.as('polonius').get(`/streams/${denmark}`), 400, 'BAD_REQUEST', 'Invalid channel ID');
    expectError(
      await world.as('polonius').get('/get_stream_id', { stream: 'Denmark' }),
      400,
      'BAD_REQUEST',
      "Invalid channel name 'Denmark'",
    );
  });
});

describe('POST /channels/create', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('creates a channel with its subscribers and settings', async () => {
    const response = await world.as('hamlet').post('/channels/create', {
      name: 'book club',
      description: 'We read *books*',
      subscribers: [world.user('hamlet').id, world.user('othello').id],
      invite_only: true,
    });
    expectSuccess(response, 'POST', '/channels/create');
    const stream = await world.as('othello').get(`/streams/${response.body.id}`);
    expect(stream.body.stream).toMatchObject({
      name: 'book club',
      description: 'We read *books*',
      rendered_description: '<p>We read <em>books</em></p>',
      invite_only: true,
      history_public_to_subscribers: false,
      creator_id: world.user('hamlet').id,
      subscriber_count: 2,
      can_administer_channel_group: { direct_members: [world.user('hamlet').id], direct_subgroups: [] },
    });
    expectError(
      await world.as('cordelia').get(`/streams/${response.body.id}`),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
  });

  it('creates a channel once when requests create it at the same moment: one wins, the others find it taken', async () => {
    const name = `race ${Date.now()}`;
    const answers = await Promise.all(
      (['hamlet', 'iago', 'othello', 'cordelia'] as const).map((who) =>
        world.as(who).post('/channels/create', { name, subscribers: [] }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409]);
    for (const lost of answers.filter((a) => a.status === 409)) {
      expectError(lost, 409, 'CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`);
    }
    // POST /users/me/subscriptions creating one name at once: every caller ends up subscribed to the one channel.
    const shared = `race sub ${Date.now()}`;
    const subscribed = await Promise.all(
      (['hamlet', 'iago', 'othello'] as const).map((who) =>
        world.as(who).post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: shared }]) }),
      ),
    );
    for (const answer of subscribed) expectSuccess(answer, 'POST', '/users/me/subscriptions');
    const found = await world.as('hamlet').get('/get_stream_id', { stream: shared });
    expectSuccess(found, 'GET', '/get_stream_id');
    const members = await world.as('hamlet').get(`/streams/${found.body.stream_id}/members`);
    expect([...(members.body.subscribers as number[])].sort((a, b) => a - b)).toEqual(
      [world.user('hamlet').id, world.user('iago').id, world.user('othello').id].sort((a, b) => a - b),
    );
  });

  it('refuses a name in use, guests and web-public channels', async () => {
    const taken = await world.as('hamlet').post('/channels/create', { name: 'VERONA', subscribers: [] });
    expectError(taken, 409, 'CHANNEL_ALREADY_EXISTS', "Channel 'VERONA' already exists");
    expectError(
      await world.as('polonius').post('/channels/create', { name: 'mine', subscribers: [] }),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    expectError(
      await world.as('iago').post('/channels/create', { name: 'open web', subscribers: [], is_web_public: true }),
      400,
      'BAD_REQUEST',
      'Web-public channels are not enabled.',
    );
  });
});

describe('DELETE /users/me/subscriptions', () => {
  it('unsubscribes the caller, and others when allowed', async () => {
    const world = await newWorld();
    const removed = await world.as('hamlet').delete('/users/me/subscriptions', { subscriptions: ['Rome', 'Venice'] });
    expectSuccess(removed, 'DELETE', '/users/me/subscriptions');
    expect(removed.body).toMatchObject({ removed: ['Rome', 'Venice'], not_removed: [] });
    const again = await world.as('hamlet').delete('/users/me/subscriptions', { subscriptions: ['Rome'] });
    expect(again.body).toMatchObject({ removed: [], not_removed: ['Rome'] });
    const names = ((await world.as('hamlet').get('/users/me/subscriptions')).body.subscriptions as { name: string }[])
      .map((s) => s.name)
      .sort();
    expect(names).toEqual(['Denmark', 'Scotland', 'Verona']);
    const others = await world
      .as('othello')
      .delete('/users/me/subscriptions', { subscriptions: ['Rome'], principals: [world.user('cordelia').id] });
    expectError(others, 400, 'BAD_REQUEST', 'Insufficient permission');
    const byAdmin = await world
      .as('iago')
      .delete('/users/me/subscriptions', { subscriptions: ['Rome'], principals: [world.user('cordelia').id] });
    expect(byAdmin.body).toMatchObject({ removed: ['Rome'] });
    expectError(
      await world.as('hamlet').delete('/users/me/subscriptions', { subscriptions: ['Atlantis'] }),
      400,
      'BAD_REQUEST',
      'Channel(s) (Atlantis) do not exist',
    );
  });
});
