import type { DevUserName, World } from '@confab/devkit';
import { EventQueue, type ClientEvent } from './support/event-queues';
import { expectSuccess } from './support/expect';
import { newWorld } from './support/system';

/**
 * Each kind of change made through the API reaches, as Zulip's event, the queues of the users who should see it —
 * produced by the owning service, carried by the outbox and RabbitMQ, shaped by the events service — and not others.
 */

let world: World;
const queues = {} as Record<'hamlet' | 'othello' | 'polonius' | 'iago', EventQueue>;

beforeAll(async () => {
  world = await newWorld();
  for (const name of ['hamlet', 'othello', 'polonius', 'iago'] as const)
    queues[name] = await EventQueue.register(world.as(name));
});

/** Waits for an event on `who`'s queue. */
function arrives(who: keyof typeof queues, match: (e: ClientEvent) => boolean): Promise<ClientEvent> {
  return queues[who].next(match);
}

/** Checks that `who` has not received a matching event (after the others did, everything has been fanned out). */
async function absent(who: keyof typeof queues, match: (e: ClientEvent) => boolean): Promise<void> {
  await queues[who].drain();
  expect(queues[who].seen.filter(match)).toEqual([]);
}

async function send(sender: DevUserName, params: Record<string, unknown>): Promise<number> {
  const response = await world.as(sender).post('/messages', params);
  expectSuccess(response, 'POST', '/messages');
  return response.body.id as number;
}

describe('events from the services that own the changes', () => {
  it('message: to the channel subscribers, with flags, and local_message_id only to the named queue', async () => {
    const id = await send('othello', {
      type: 'stream',
      to: 'Denmark',
      topic: 'live',
      content: 'Hello @**King Hamlet**',
      queue_id: queues.othello.queueId,
      local_id: 'abc.1',
    });
    const atHamlet = await arrives('hamlet', (e) => e.type === 'message' && e.message.id === id);
    expect(atHamlet.flags).toEqual(expect.arrayContaining(['mentioned']));
    expect(atHamlet).not.toHaveProperty('local_message_id');
    expect(atHamlet.message.display_recipient).toBe('Denmark');
    const atOthello = await arrives('othello', (e) => e.type === 'message' && e.message.id === id);
    expect(atOthello.local_message_id).toBe('abc.1');
    // Polonius (a guest) is not subscribed to Denmark.
    await absent('polonius', (e) => e.type === 'message' && e.message.id === id);
  });

  it('delete_message: to those who could see it', async () => {
    const id = await send('hamlet', { type: 'direct', to: [world.user('othello').id], content: 'to be deleted' });
    await arrives('othello', (e) => e.type === 'message' && e.message.id === id);
    expectSuccess(await world.as('hamlet').delete(`/messages/${id}`), 'DELETE', `/messages/${id}`);
    for (const who of ['hamlet', 'othello'] as const) {
      const event = await arrives(
        who,
        (e) => e.type === 'delete_message' && (e.message_id === id || e.message_ids?.includes(id)),
      );
      expect(event.message_type).toBe('private');
    }
    await absent('iago', (e) => e.type === 'delete_message' && (e.message_id === id || e.message_ids?.includes(id)));
  });

  it('reaction add and remove, update_message_flags for the user alone', async () => {
    const id = await send('othello', { type: 'stream', to: 'Verona', topic: 'live', content: 'react to me' });
    const reaction = { emoji_name: 'octopus' };
    expectSuccess(
      await world.as('polonius').post(`/messages/${id}/reactions`, reaction),
      'POST',
      `/messages/${id}/reactions`,
    );
    const added = await arrives('hamlet', (e) => e.type === 'reaction' && e.op === 'add' && e.message_id === id);
    expect(added).toMatchObject({
      emoji_name: 'octopus',
      user_id: world.user('polonius').id,
      reaction_type: 'unicode_emoji',
    });
    expectSuccess(
      await world.as('polonius').delete(`/messages/${id}/reactions`, reaction),
      'DELETE',
      `/messages/${id}/reactions`,
    );
    await arrives('polonius', (e) => e.type === 'reaction' && e.op === 'remove' && e.message_id === id);

    const flags = { messages: [id], op: 'add', flag: 'starred' };
    expectSuccess(await world.as('hamlet').post('/messages/flags', flags), 'POST', '/messages/flags');
    const starred = await arrives('hamlet', (e) => e.type === 'update_message_flags' && e.messages.includes(id));
    expect(starred).toMatchObject({ op: 'add', flag: 'starred' });
    await absent('othello', (e) => e.type === 'update_message_flags' && e.messages.includes(id));
  });

  it('typing: to the other participants of a direct conversation', async () => {
    const response = await world.as('othello').post('/typing', { op: 'start', to: [world.user('hamlet').id] });
    expectSuccess(response, 'POST', '/typing');
    const typing = await arrives('hamlet', (e) => e.type === 'typing' && e.op === 'start');
    expect(typing.sender).toMatchObject({ user_id: world.user('othello').id });
    await absent('iago', (e) => e.type === 'typing');
  });

  it('user_topic: to the user who changed it', async () => {
    const verona = await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' });
    const params = { stream_id: verona.body.stream_id, topic: 'quiet please', visibility_policy: 1 };
    expectSuccess(await world.as('hamlet').post('/user_topics', params), 'POST', '/user_topics');
    const event = await arrives('hamlet', (e) => e.type === 'user_topic' && e.topic_name === 'quiet please');
    expect(event).toMatchObject({ stream_id: verona.body.stream_id, visibility_policy: 1 });
    await absent('othello', (e) => e.type === 'user_topic' && e.topic_name === 'quiet please');
  });

  it('subscription: to the subscriber, and peer_add to the other subscribers of a public channel', async () => {
    const response = await world
      .as('hamlet')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'Live events' }] });
    expectSuccess(response, 'POST', '/users/me/subscriptions');
    // The world's own channels may still be arriving (a queue can see what happened while it registered).
    const added = await arrives(
      'hamlet',
      (e) =>
        e.type === 'subscription' &&
        e.op === 'add' &&
        e.subscriptions.some((s: { name: string }) => s.name === 'Live events'),
    );
    expect(added.subscriptions.map((s: { name: string }) => s.name)).toEqual(['Live events']);
    const join = await world
      .as('othello')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'Live events' }] });
    expectSuccess(join, 'POST', '/users/me/subscriptions');
    const streamId = added.subscriptions[0].stream_id as number;
    const peer = await arrives(
      'hamlet',
      (e) => e.type === 'subscription' && e.op === 'peer_add' && e.stream_ids.includes(streamId),
    );
    expect(peer.user_ids).toEqual([world.user('othello').id]);
  });

  it('user_settings: to the user whose setting changed', async () => {
    expectSuccess(await world.as('hamlet').patch('/settings', { color_scheme: 2 }), 'PATCH', '/settings');
    const event = await arrives('hamlet', (e) => e.type === 'user_settings' && e.property === 'color_scheme');
    expect(event).toMatchObject({ op: 'update', value: 2 });
    await absent('othello', (e) => e.type === 'user_settings' && e.property === 'color_scheme');
  });

  it('navigation_view: to its owner', async () => {
    const response = await world
      .as('hamlet')
      .post('/navigation_views', { fragment: 'narrow/channel/9-live', is_pinned: true, name: 'Live' });
    expectSuccess(response, 'POST', '/navigation_views');
    const event = await arrives('hamlet', (e) => e.type === 'navigation_view' && e.op === 'add');
    expect(event.navigation_view).toMatchObject({ fragment: 'narrow/channel/9-live', is_pinned: true, name: 'Live' });
    await absent('othello', (e) => e.type === 'navigation_view');
  });

  it('user_group: to everyone in the organization', async () => {
    const members = [world.user('hamlet').id];
    const response = await world
      .as('iago')
      .post('/user_groups/create', { name: 'live watchers', description: 'd', members });
    expectSuccess(response, 'POST', '/user_groups/create');
    for (const who of ['hamlet', 'othello'] as const) {
      const event = await arrives(
        who,
        (e) => e.type === 'user_group' && e.op === 'add' && e.group.name === 'live watchers',
      );
      expect(event.group.members).toEqual(members);
    }
    const add = await world
      .as('iago')
      .post(`/user_groups/${response.body.group_id}/members`, { add: [world.user('othello').id] });
    expectSuccess(add, 'POST', `/user_groups/${response.body.group_id}/members`);
    const event = await arrives('hamlet', (e) => e.type === 'user_group' && e.op === 'add_members');
    expect(event).toMatchObject({ group_id: response.body.group_id, user_ids: [world.user('othello').id] });
  });

  it('attachment: to the uploader', async () => {
    const upload = await world.as('hamlet').post(
      '/api/v1/user_uploads',
      {},
      {
        files: [{ field: 'file', filename: 'notes.txt', contentType: 'text/plain', data: Buffer.from('hello') }],
      },
    );
    expect(upload.status).toBe(200);
    const event = await arrives('hamlet', (e) => e.type === 'attachment' && e.op === 'add');
    expect(event.attachment.name).toBe('notes.txt');
    await absent('othello', (e) => e.type === 'attachment');
  });
});
