import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

jest.setTimeout(60_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});

async function sendToChannel(sender: Parameters<World['as']>[0], channel: string, content: string, extra = {}) {
  const response = await world
    .as(sender)
    .post('/messages', { type: 'stream', to: channel, topic: 'events', content, ...extra });
  expectSuccess(response, 'POST', '/messages');
  return response.body.id as number;
}

describe('POST /register', () => {
  it('answers the queue, the server limits and the owners’ initial state', async () => {
    const queue = await EventQueue.register(world.as('hamlet'));
    const body = queue.registration;
    expect(body.queue_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body).toMatchObject({
      last_event_id: -1,
      zulip_feature_level: expect.any(Number),
      zulip_version: expect.any(String),
      max_message_length: 10000,
      max_topic_length: 60,
      realm_empty_topic_display_name: 'general chat',
      event_queue_longpoll_timeout_seconds: 90,
      server_typing_started_expiry_period_milliseconds: 15000,
      server_typing_stopped_wait_period_milliseconds: 5000,
      server_typing_started_wait_period_milliseconds: 10000,
    });
    // Fragments from the settings service (GET /internal/users/{id}/initial-state).
    expect(body.user_settings).toMatchObject({ receives_typing_notifications: true });
    expect(body.navigation_views).toEqual([]);
    // From the groups service: the organization's groups, system groups included.
    expect((body.realm_user_groups as { name: string }[]).map((g) => g.name)).toContain('role:members');
    // From the push service.
    expect(body.push_devices).toEqual({});
    expect(body).not.toHaveProperty('ignored_parameters_unsupported');
  });

  it('asks the owners only for what fetch_event_types names', async () => {
    const queue = await EventQueue.register(world.as('hamlet'), { fetch_event_types: ['message'] });
    expect(queue.registration).not.toHaveProperty('realm_user_groups');
    expect(queue.registration).not.toHaveProperty('push_devices');
    expect(queue.registration).not.toHaveProperty('user_settings');
    const settingsOnly = await EventQueue.register(world.as('hamlet'), { fetch_event_types: ['user_settings'] });
    expect(settingsOnly.registration).toHaveProperty('user_settings');
    expect(settingsOnly.registration).not.toHaveProperty('navigation_views');
    expect(queue.registration).toMatchObject({ last_event_id: -1, max_message_length: 10000 });
  });

  it('refuses all_public_streams to guests', async () => {
    const response = await world.as('polonius').post('/register', { all_public_streams: true });
    expectError(response, 400, 'BAD_REQUEST', 'User not authorized for this query');
  });

  it('refuses narrow operators an event queue cannot filter on', async () => {
    const response = await world.as('hamlet').post('/register', { narrow: [['search', 'x']] });
    expectError(response, 400, 'BAD_REQUEST', 'Operator search not supported.');
    const bad = await world.as('hamlet').post('/register', { event_types: 'message' });
    expectError(bad, 400, 'BAD_REQUEST', 'event_types is not valid JSON');
  });

  it('needs credentials', async () => {
    const response = await world.anonymous().post('/register', {});
    expectError(response, 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });
});

describe('GET /events', () => {
  it('answers at once with dont_block and nothing queued', async () => {
    const queue = await EventQueue.register(world.as('hamlet'));
    const response = await queue.get({ dont_block: true });
    expectSuccess(response, 'GET', '/events');
    expect(response.body.events).toEqual([]);
    expect(response.body).not.toHaveProperty('queue_id');
    const extra = await queue.get({ dont_block: true, colour: 'blue' });
    expect(extra.body.ignored_parameters_unsupported).toEqual(['colour']);
  });

  it('says BAD_EVENT_QUEUE_ID for an unknown queue and for another user’s queue', async () => {
    const unknown = await world.as('hamlet').get('/events', { queue_id: 'no-such-queue', last_event_id: -1 });
    expectError(unknown, 400, 'BAD_EVENT_QUEUE_ID', 'Bad event queue ID: no-such-queue', { queue_id: 'no-such-queue' });
    const theirs = await EventQueue.register(world.as('othello'));
    const response = await world.as('hamlet').get('/events', { queue_id: theirs.queueId, last_event_id: -1 });
    expectError(response, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${theirs.queueId}`, {
      queue_id: theirs.queueId,
    });
  });

  it('needs queue_id and last_event_id', async () => {
    const queue = await EventQueue.register(world.as('hamlet'));
    const noQueue = await world.as('hamlet').get('/events', { last_event_id: -1 });
    expectError(noQueue, 400, 'BAD_REQUEST', "Missing 'queue_id' argument");
    const noLast = await world.as('hamlet').get('/events', { queue_id: queue.queueId });
    expectError(noLast, 400, 'BAD_REQUEST', "Missing 'last_event_id' argument");
  });

  it('wakes a waiting long poll when an event arrives', async () => {
    const queue = await EventQueue.register(world.as('othello'), { event_types: ['message'] });
    const started = Date.now();
    const poll = queue.poll();
    await queue.untilWaiting();
    const id = await sendToChannel('hamlet', 'Verona', 'wake up');
    const events = await poll;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'message', id: 0, message: { id } });
  });

  it('acknowledges with last_event_id and checks it like Zulip', async () => {
    const queue = await EventQueue.register(world.as('othello'), { event_types: ['message'] });
    await sendToChannel('hamlet', 'Verona', 'one');
    await queue.next();
    await sendToChannel('hamlet', 'Verona', 'two');
    await queue.next((e) => e.message?.content === 'two');
    // Acknowledging event 0 leaves event 1.
    const partial = await world
      .as('othello')
      .get('/events', { queue_id: queue.queueId, last_event_id: 0, dont_block: true });
    expect((partial.body.events as { id: number }[]).map((e) => e.id)).toEqual([1]);
    const future = await world
      .as('othello')
      .get('/events', { queue_id: queue.queueId, last_event_id: 7, dont_block: true });
    expectError(future, 400, 'BAD_REQUEST', 'Event 7 was not in this queue');
    const old = await world
      .as('othello')
      .get('/events', { queue_id: queue.queueId, last_event_id: -1, dont_block: true });
    expectError(old, 400, 'BAD_REQUEST', 'An event newer than -1 has already been pruned!');
  });

  it('answers an older waiting poll of the same queue when a newer one arrives', async () => {
    const queue = await EventQueue.register(world.as('othello'), { event_types: ['message'] });
    const first = queue.get({});
    const firstWaiting = await queue.untilWaiting();
    const second = queue.get({});
    await queue.untilWaiting(firstWaiting);
    const firstResponse = await first;
    expectSuccess(firstResponse, 'GET', '/events');
    expect(firstResponse.body.events).toEqual([]);
    await sendToChannel('hamlet', 'Verona', 'for the newer poll');
    const secondResponse = await second;
    expect(secondResponse.body.events).toHaveLength(1);
  });
});

describe('DELETE /events', () => {
  it('deletes the queue', async () => {
    const queue = await EventQueue.register(world.as('hamlet'));
    await queue.delete();
    const after = await queue.get({ dont_block: true });
    expectError(after, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue.queueId}`, { queue_id: queue.queueId });
    const again = await world.as('hamlet').delete('/events', { queue_id: queue.queueId });
    expectError(again, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue.queueId}`);
  });

  it('answers a poll waiting on the deleted queue', async () => {
    const queue = await EventQueue.register(world.as('hamlet'));
    const waiting = queue.get({});
    await queue.untilWaiting();
    await queue.delete();
    const response = await waiting;
    expectSuccess(response, 'GET', '/events');
    expect(response.body.events).toEqual([]);
  });

  it('cannot delete another user’s queue', async () => {
    const queue = await EventQueue.register(world.as('othello'));
    const response = await world.as('hamlet').delete('/events', { queue_id: queue.queueId });
    expectError(response, 400, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queue.queueId}`);
    expectSuccess(await queue.get({ dont_block: true }), 'GET', '/events');
  });
});

describe('message events', () => {
  it('reach the channel’s subscribers with their flags, and no one else', async () => {
    const hamlet = await EventQueue.register(world.as('hamlet'), { event_types: ['message'] });
    const othello = await EventQueue.register(world.as('othello'), { event_types: ['message'] });
    const polonius = await EventQueue.register(world.as('polonius'), { event_types: ['message'] });
    const id = await sendToChannel('hamlet', 'Denmark', 'hello @**Othello, the Moor of Venice**');
    const seen = await othello.next();
    expect(seen.flags).not.toContain('read');
    expect(seen).toMatchObject({
      type: 'message',
      message: {
        id,
        type: 'stream',
        display_recipient: 'Denmark',
        subject: 'events',
        sender_id: world.user('hamlet').id,
        content: 'hello @**Othello, the Moor of Venice**',
        content_type: 'text/x-markdown',
        avatar_url: null,
      },
    });
    expect(seen).not.toHaveProperty('local_message_id');
    // Zulip marks an API client's own message unread unless it says read_by_sender.
    expect((await hamlet.next()).flags).toEqual([]);
    const readId = await sendToChannel('hamlet', 'Denmark', 'mine, read', { read_by_sender: true });
    expect(await hamlet.next((e) => e.message?.id === readId)).toMatchObject({ flags: ['read'] });
    expect((await othello.next((e) => e.message?.id === readId)).flags).toEqual([]);
    // Polonius (a guest) is not in Denmark: nothing reached his queue.
    expect(await polonius.drain()).toEqual([]);
  });

  it('carry local_message_id only to the queue named when sending', async () => {
    const named = await EventQueue.register(world.as('iago'), { event_types: ['message'] });
    const other = await EventQueue.register(world.as('iago'), { event_types: ['message'] });
    const receiver = await EventQueue.register(world.as('hamlet'), { event_types: ['message'] });
    const id = await sendToChannel('iago', 'Verona', 'echo', { queue_id: named.queueId, local_id: '12.01' });
    expect(await named.next()).toMatchObject({ message: { id }, local_message_id: '12.01' });
    expect(await other.next()).not.toHaveProperty('local_message_id');
    expect(await receiver.next()).not.toHaveProperty('local_message_id');
  });

  it('go to the participants of a direct message only', async () => {
    const othello = await EventQueue.register(world.as('othello'), { event_types: ['message'] });
    const iago = await EventQueue.register(world.as('iago'), { event_types: ['message'] });
    const response = await world.as('hamlet').post('/messages', {
      type: 'direct',
      to: [world.user('othello').id],
      content: 'private',
    });
    expectSuccess(response, 'POST', '/messages');
    const event = await othello.next();
    expect(event).toMatchObject({ message: { id: response.body.id, type: 'private' } });
    expect(event.flags).not.toContain('read');
    expect(await iago.drain()).toEqual([]);
  });

  it('are shaped per queue: apply_markdown, client_gravatar, event_types and narrow', async () => {
    const html = await EventQueue.register(world.as('cordelia'), {
      event_types: ['message'],
      apply_markdown: true,
      client_gravatar: false,
    });
    const dmOnly = await EventQueue.register(world.as('cordelia'), {
      event_types: ['message'],
      narrow: [['is', 'dm']],
    });
    const noMessages = await EventQueue.register(world.as('cordelia'), { event_types: ['user_settings'] });
    const all = await EventQueue.register(world.as('cordelia'));
    await sendToChannel('hamlet', 'Scotland', '**bold**');
    const rendered = await world.as('hamlet').post('/messages/render', { content: '**bold**' });
    const event = await html.next();
    expect(event.message).toMatchObject({
      content: rendered.body.rendered,
      content_type: 'text/html',
      avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}/),
    });
    expect(await all.next()).toMatchObject({ type: 'message' });
    expect(await dmOnly.drain()).toEqual([]);
    expect(await noMessages.drain()).toEqual([]);
  });

  it('reach queues following all public channels, with no flags', async () => {
    const bot = await EventQueue.register(world.as('iago'), { event_types: ['message'], all_public_streams: true });
    const created = await world
      .as('hamlet')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'hamlet-only' }] });
    expectSuccess(created, 'POST', '/users/me/subscriptions');
    const id = await sendToChannel('hamlet', 'hamlet-only', 'anyone listening?');
    expect(await bot.next()).toMatchObject({ message: { id }, flags: [] });
  });
});
