import type { ApiClient, World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { systemGroups } from './support/groups';
import { newWorld } from './support/system';

const idOf = async (client: ApiClient, name: string) =>
  (await client.get('/get_stream_id', { stream: name })).body.stream_id as number;

const subscriptionOf = async (client: ApiClient, streamId: number) => {
  const response = await client.get('/users/me/subscriptions');
  expectSuccess(response, 'GET', '/users/me/subscriptions');
  return (response.body.subscriptions as Record<string, any>[]).find((s) => s.stream_id === streamId)!;
};

describe('POST /users/me/subscriptions/properties', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it("changes the user's own channel settings and tells their clients", async () => {
    const hamlet = world.as('hamlet');
    const verona = await idOf(hamlet, 'Verona');
    const queue = await EventQueue.register(hamlet, { event_types: ['subscription'] });
    const response = await hamlet.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([
        { stream_id: verona, property: 'color', value: '#f00ba4' },
        { stream_id: verona, property: 'is_muted', value: true },
        { stream_id: verona, property: 'pin_to_top', value: true },
        { stream_id: verona, property: 'desktop_notifications', value: false },
      ]),
    });
    expectSuccess(response, 'POST', '/users/me/subscriptions/properties');
    const update = (property: string) =>
      queue.next((e) => e.type === 'subscription' && e.op === 'update' && e.property === property);
    expect(await update('color')).toMatchObject({ stream_id: verona, value: '#f00ba4' });
    expect(await update('is_muted')).toMatchObject({ stream_id: verona, value: true });
    expect(await update('in_home_view')).toMatchObject({ stream_id: verona, value: false });
    expect(await update('pin_to_top')).toMatchObject({ value: true });
    expect(await update('desktop_notifications')).toMatchObject({ value: false });
    expect(await subscriptionOf(hamlet, verona)).toMatchObject({
      color: '#f00ba4',
      is_muted: true,
      in_home_view: false,
      pin_to_top: true,
      desktop_notifications: false,
    });
    // Personal: Othello's subscription is untouched.
    expect(await subscriptionOf(world.as('othello'), verona)).toMatchObject({ is_muted: false, pin_to_top: false });
    // The deprecated in_home_view is the inverse of is_muted.
    expectSuccess(
      await hamlet.post('/users/me/subscriptions/properties', {
        subscription_data: JSON.stringify([{ stream_id: verona, property: 'in_home_view', value: true }]),
      }),
      'POST',
      '/users/me/subscriptions/properties',
    );
    expect((await subscriptionOf(hamlet, verona)).is_muted).toBe(false);
    await queue.delete();
  });

  it('refuses what Zulip refuses, changing nothing', async () => {
    const hamlet = world.as('hamlet');
    const verona = await idOf(hamlet, 'Verona');
    const created = await world.as('iago').post('/channels/create', {
      name: 'iago only',
      subscribers: JSON.stringify([world.user('iago').id]),
    });
    expectSuccess(created, 'POST', '/channels/create');
    const elsewhere = await idOf(world.as('iago'), 'iago only');
    const refuse = async (data: unknown[], msg: string) =>
      expectError(
        await hamlet.post('/users/me/subscriptions/properties', { subscription_data: JSON.stringify(data) }),
        400,
        'BAD_REQUEST',
        msg,
      );
    await refuse([{ stream_id: verona, property: 'volume', value: 11 }], 'Unknown subscription property: volume');
    await refuse([{ stream_id: verona, property: 'color', value: 'red' }], 'color is not a valid hex color code');
    await refuse([{ stream_id: verona, property: 'is_muted', value: 'yes' }], 'is_muted is not a boolean');
    await refuse(
      [{ stream_id: elsewhere, property: 'pin_to_top', value: true }],
      `Not subscribed to channel ID ${elsewhere}`,
    );
    await refuse([{ stream_id: 999999, property: 'pin_to_top', value: true }], 'Invalid channel ID');
    // One bad change refuses the whole request.
    const before = (await subscriptionOf(hamlet, verona)).audible_notifications as unknown;
    await refuse(
      [
        { stream_id: verona, property: 'audible_notifications', value: true },
        { stream_id: verona, property: 'color', value: '#zzzzzz' },
      ],
      'color is not a valid hex color code',
    );
    expect((await subscriptionOf(hamlet, verona)).audible_notifications).toEqual(before);
  });
});

describe('PATCH, DELETE /streams/{stream_id} and GET /streams/{stream_id}/members', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('renames and describes a channel for everyone who sees it', async () => {
    const iago = world.as('iago');
    const denmark = await idOf(iago, 'Denmark');
    const othello = await EventQueue.register(world.as('othello'), { event_types: ['stream'] });
    expectSuccess(
      await iago.patch(`/streams/${denmark}`, { new_name: 'Danmark', description: 'Hygge and **herring**' }),
      'PATCH',
      `/streams/${denmark}`,
    );
    const renamed = await othello.next((e) => e.type === 'stream' && e.property === 'name');
    expect(renamed).toMatchObject({ op: 'update', stream_id: denmark, name: 'Danmark', value: 'Danmark' });
    const described = await othello.next((e) => e.type === 'stream' && e.property === 'description');
    expect(described).toMatchObject({
      stream_id: denmark,
      value: 'Hygge and **herring**',
      rendered_description: '<p>Hygge and <strong>herring</strong></p>',
    });
    const read = await world.as('othello').get(`/streams/${denmark}`);
    expect(read.body.stream).toMatchObject({
      name: 'Danmark',
      description: 'Hygge and **herring**',
      rendered_description: '<p>Hygge and <strong>herring</strong></p>',
    });
    expect(await idOf(world.as('othello'), 'danmark')).toBe(denmark);
    expectError(
      await iago.patch(`/streams/${denmark}`, { new_name: 'verona' }),
      400,
      'BAD_REQUEST',
      'Channel name already in use.',
    );
    expectError(
      await world.as('hamlet').patch(`/streams/${denmark}`, { description: 'mine now' }),
      400,
      'BAD_REQUEST',
      'You do not have permission to administer this channel.',
    );
    expectError(await iago.patch('/streams/999999', { description: 'x' }), 400, 'BAD_REQUEST', 'Invalid channel ID');
    await othello.delete();
  });

  it("changes privacy and permissions, which take effect at once, and lists the channel's members", async () => {
    const iago = world.as('iago');
    expectSuccess(
      await iago.post('/channels/create', {
        name: 'side room',
        subscribers: JSON.stringify([world.user('iago').id, world.user('hamlet').id]),
      }),
      'POST',
      '/channels/create',
    );
    const side = await idOf(iago, 'side room');
    const members = await world.as('hamlet').get(`/streams/${side}/members`);
    expectSuccess(members, 'GET', `/streams/${side}/members`);
    expect(members.body.subscribers).toEqual([world.user('iago').id, world.user('hamlet').id].sort((a, b) => a - b));

    const hamletQueue = await EventQueue.register(world.as('hamlet'), { event_types: ['stream'] });
    const othelloQueue = await EventQueue.register(world.as('othello'), { event_types: ['stream'] });
    expectSuccess(await iago.patch(`/streams/${side}`, { is_private: true }), 'PATCH', `/streams/${side}`);
    const privacy = await hamletQueue.next((e) => e.type === 'stream' && e.property === 'invite_only');
    expect(privacy).toMatchObject({
      value: true,
      history_public_to_subscribers: expect.any(Boolean),
      is_web_public: false,
    });
    // Othello is not subscribed: the private channel is no longer his to see, and his clients are told it is gone.
    const gone = await othelloQueue.next((e) => e.type === 'stream' && e.op === 'delete');
    expect(gone).toMatchObject({ stream_ids: [side] });
    expect(othelloQueue.seen.filter((e) => e.type === 'stream' && e.op === 'update')).toEqual([]);
    expectError(await world.as('othello').get(`/streams/${side}/members`), 400, 'BAD_REQUEST', 'Invalid channel ID');

    const onlyIago = { direct_members: [world.user('iago').id], direct_subgroups: [] };
    expectError(
      await iago.patch(`/streams/${side}`, {
        can_send_message_group: JSON.stringify({ new: onlyIago, old: { direct_members: [1], direct_subgroups: [] } }),
      }),
      400,
      'EXPECTATION_MISMATCH',
      "'old' value does not match the expected value.",
    );
    expectSuccess(
      await iago.patch(`/streams/${side}`, { can_send_message_group: JSON.stringify({ new: onlyIago }) }),
      'PATCH',
      `/streams/${side}`,
    );
    const permission = await hamletQueue.next((e) => e.type === 'stream' && e.property === 'can_send_message_group');
    expect(permission.value).toEqual(onlyIago);
    expectError(
      await world.as('hamlet').post('/messages', { type: 'stream', to: 'side room', topic: 't', content: 'hi' }),
      400,
      'BAD_REQUEST',
      'You do not have permission to post in this channel.',
    );
    await hamletQueue.delete();
    await othelloQueue.delete();
  });

  it('archives a channel: it stays readable, takes no messages, and clients learn of it as they can', async () => {
    const iago = world.as('iago');
    expectSuccess(
      await iago.post('/channels/create', {
        name: 'old project',
        subscribers: JSON.stringify([world.user('iago').id, world.user('hamlet').id, world.user('othello').id]),
      }),
      'POST',
      '/channels/create',
    );
    const old = await idOf(iago, 'old project');
    const sent = await world
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'old project', topic: 't', content: 'last words' });
    const modern = await EventQueue.register(world.as('hamlet'), {
      event_types: ['stream'],
      client_capabilities: JSON.stringify({ archived_channels: true }),
    });
    const legacy = await EventQueue.register(world.as('othello'), { event_types: ['stream'] });

    expectError(
      await world.as('hamlet').delete(`/streams/${old}`),
      400,
      'BAD_REQUEST',
      'You do not have permission to administer this channel.',
    );
    expectSuccess(await iago.delete(`/streams/${old}`), 'DELETE', `/streams/${old}`);
    expect(await modern.next((e) => e.type === 'stream' && e.property === 'is_archived')).toMatchObject({
      op: 'update',
      stream_id: old,
      value: true,
    });
    expect(await legacy.next((e) => e.type === 'stream' && e.op === 'delete')).toMatchObject({ stream_ids: [old] });

    expectError(
      await world.as('hamlet').post('/messages', { type: 'stream', to: 'old project', topic: 't', content: 'more' }),
      400,
      'BAD_REQUEST',
      "Not authorized to send to channel 'old project'",
    );
    expect((await world.as('hamlet').get(`/messages/${sent.body.id as number}`)).body.message.content).toBe(
      '<p>last words</p>',
    );
    expectError(await iago.delete(`/streams/${old}`), 400, 'BAD_REQUEST', 'Channel is already deactivated');
    // Unarchiving brings it back.
    expectSuccess(await iago.patch(`/streams/${old}`, { is_archived: false }), 'PATCH', `/streams/${old}`);
    expectSuccess(
      await world.as('hamlet').post('/messages', { type: 'stream', to: 'old project', topic: 't', content: 'back' }),
      'POST',
      '/messages',
    );
    await modern.delete();
    await legacy.delete();
  });
});

describe("who may post, in Zulip's legacy form (stream_post_policy, is_announcement_only)", () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  const legacy = (channel: Record<string, any>) => ({
    stream_post_policy: channel.stream_post_policy,
    is_announcement_only: channel.is_announcement_only,
  });

  it('agrees between GET /streams, /register and the stream and subscription events', async () => {
    const iago = world.as('iago');
    const hamlet = world.as('hamlet');
    const sys = await systemGroups(world);
    expectSuccess(
      await iago.post('/channels/create', {
        name: 'announcements',
        subscribers: JSON.stringify([world.user('iago').id]),
      }),
      'POST',
      '/channels/create',
    );
    const id = await idOf(iago, 'announcements');
    const path = `/streams/${id}`;
    expect(legacy((await hamlet.get(path)).body.stream)).toEqual({
      stream_post_policy: 1,
      is_announcement_only: false,
    });
    const queue = await EventQueue.register(hamlet, { event_types: ['stream', 'subscription'] });

    const restrict = (value: unknown) => iago.patch(path, { can_send_message_group: JSON.stringify({ new: value }) });
    expectSuccess(await restrict(sys['role:administrators']), 'PATCH', path);
    const policy = await queue.next((e) => e.type === 'stream' && e.property === 'stream_post_policy');
    expect(policy).toMatchObject({ op: 'update', stream_id: id, name: 'announcements', value: 2 });
    const announcement = await queue.next((e) => e.type === 'stream' && e.property === 'is_announcement_only');
    expect(announcement).toMatchObject({ stream_id: id, value: true });
    const listed = (await hamlet.get(path)).body.stream;
    expect(legacy(listed)).toEqual({ stream_post_policy: 2, is_announcement_only: true });

    // The channel as the subscription event and /register give it says the same as GET /streams.
    expectSuccess(
      await iago.post('/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name: 'announcements' }]),
        principals: JSON.stringify([world.user('hamlet').id]),
      }),
      'POST',
      '/users/me/subscriptions',
    );
    const added = await queue.next((e) => e.type === 'subscription' && e.op === 'add');
    expect(legacy(added.subscriptions.find((s: { stream_id: number }) => s.stream_id === id))).toEqual(legacy(listed));
    const registered = await hamlet.post('/register', { fetch_event_types: JSON.stringify(['subscription']) });
    expectSuccess(registered, 'POST', '/register');
    const subscription = (registered.body.subscriptions as { stream_id: number }[]).find((s) => s.stream_id === id)!;
    expect(legacy(subscription)).toEqual(legacy(listed));

    // Moderators are policy 4; a group of named people is no system group: "everyone", as Zulip reads it.
    expectSuccess(await restrict(sys['role:moderators']), 'PATCH', path);
    // (Each change's events are told apart by their value: the queue keeps every event it has seen.)
    const change = (property: string, value: unknown) =>
      queue.next((e) => e.type === 'stream' && e.property === property && e.value === value);
    expect(await change('stream_post_policy', 4)).toMatchObject({ stream_id: id });
    expect(await change('is_announcement_only', false)).toMatchObject({ stream_id: id });
    expectSuccess(await restrict({ direct_members: [world.user('iago').id], direct_subgroups: [] }), 'PATCH', path);
    expect(await change('stream_post_policy', 1)).toMatchObject({ stream_id: id });
    expect(legacy((await hamlet.get(path)).body.stream)).toEqual({
      stream_post_policy: 1,
      is_announcement_only: false,
    });
    await queue.delete();
  });
});
