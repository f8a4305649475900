import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

/** POST /messages/flags/narrow: Zulip's batched flag update over a narrow, as the apps mark what was read. */
describe('updating flags by narrow', () => {
  let world: World;
  const ids: number[] = [];
  let topicName: string;

  beforeAll(async () => {
    world = await newWorld();
    topicName = `narrow-${Date.now()}`;
    const othello = world.as('othello');
    for (let i = 0; i < 6; i++) {
      const sent = await othello.post('/messages', {
        type: 'stream',
        to: 'Verona',
        topic: topicName,
        content: `m${i}`,
      });
      ids.push(sent.body.id as number);
    }
  });

  const narrow = () => [
    { operator: 'channel', operand: 'Verona' },
    { operator: 'topic', operand: topicName },
  ];
  const unreadInTopic = async () => {
    const response = await world.as('hamlet').get('/messages', {
      anchor: 'newest',
      num_before: 50,
      num_after: 0,
      narrow: [...narrow(), { operator: 'is', operand: 'unread' }],
    });
    return (response.body.messages as { id: number }[]).map((m) => m.id);
  };

  it('marks a range read in pages, with Zulip’s counts and found_* answers, and tells the user’s queues', async () => {
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['update_message_flags'] });
    const first = await world.as('hamlet').post('/messages/flags/narrow', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 4,
      narrow: narrow(),
      op: 'add',
      flag: 'read',
    });
    expectSuccess(first, 'POST', '/messages/flags/narrow');
    expect(first.body).toMatchObject({
      processed_count: 4,
      updated_count: 4,
      first_processed_id: ids[0],
      last_processed_id: ids[3],
      found_oldest: true,
      found_newest: false,
    });
    expect(await unreadInTopic()).toEqual(ids.slice(4));
    const event = await queue.next((e) => e.type === 'update_message_flags');
    expect(event).toMatchObject({ op: 'add', flag: 'read', all: false });
    expect([...(event.messages as number[])].sort((a, b) => a - b)).toEqual(ids.slice(0, 4));

    // The next page starts after the last processed id; already-read messages count as processed, not updated.
    const next = await world.as('hamlet').post('/messages/flags/narrow', {
      anchor: String(ids[2]),
      include_anchor: false,
      num_before: 0,
      num_after: 1000,
      narrow: narrow(),
      op: 'add',
      flag: 'read',
    });
    expectSuccess(next, 'POST', '/messages/flags/narrow');
    expect(next.body).toMatchObject({
      processed_count: 3,
      updated_count: 2,
      first_processed_id: ids[3],
      last_processed_id: ids[5],
      found_oldest: false,
      found_newest: true,
    });
    expect(await unreadInTopic()).toEqual([]);
  });

  it('removes a flag around the newest message, and answers nulls for an empty range', async () => {
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['update_message_flags'] });
    const unmarked = await world.as('hamlet').post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 1,
      num_after: 0,
      narrow: narrow(),
      op: 'remove',
      flag: 'read',
    });
    expectSuccess(unmarked, 'POST', '/messages/flags/narrow');
    expect(unmarked.body).toMatchObject({ processed_count: 1, updated_count: 1, first_processed_id: ids[5] });
    expect(await unreadInTopic()).toEqual([ids[5]]);
    // Marked unread: the event says where the message belongs, so clients can count it again.
    const verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    // The previous test's last update may still be on its way to queues when this one registers (events reach the
    // events service asynchronously, and messaging's own changes are not waited for by /register): its 'add' is
    // not this test's concern.
    const event = await queue.next((e) => e.type === 'update_message_flags' && e.op === 'remove');
    expect(event).toMatchObject({ op: 'remove', flag: 'read', messages: [ids[5]] });
    expect(event.message_details).toEqual({ [ids[5]!]: { type: 'stream', stream_id: verona, topic: topicName } });

    const empty = await world.as('hamlet').post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'topic', operand: `${topicName}-nothing` }],
      op: 'add',
      flag: 'starred',
    });
    expectSuccess(empty, 'POST', '/messages/flags/narrow');
    expect(empty.body).toMatchObject({
      processed_count: 0,
      updated_count: 0,
      first_processed_id: null,
      last_processed_id: null,
      found_oldest: true,
      found_newest: true,
    });
  });

  it('refuses what Zulip refuses', async () => {
    const hamlet = world.as('hamlet');
    const base = { anchor: 'newest', num_before: 5, num_after: 0, narrow: narrow(), op: 'add', flag: 'read' };
    expectError(
      await hamlet.post('/messages/flags/narrow', {
        ...base,
        num_after: 5,
        include_anchor: false,
        anchor: String(ids[2]),
      }),
      400,
      'BAD_REQUEST',
      'The anchor can only be excluded at an end of the range',
    );
    expectError(
      await hamlet.post('/messages/flags/narrow', { ...base, flag: 'mentioned' }),
      400,
      'BAD_REQUEST',
      "Flag not editable: 'mentioned'",
    );
    expectError(
      await hamlet.post('/messages/flags/narrow', { ...base, op: 'toggle' }),
      400,
      'BAD_REQUEST',
      "Invalid message flag operation: 'toggle'",
    );
    expectError(
      await hamlet.post('/messages/flags/narrow', { ...base, anchor: 'soon' }),
      400,
      'BAD_REQUEST',
      'Invalid anchor',
    );
    const missing = await hamlet.post('/messages/flags/narrow', {
      anchor: 'newest',
      num_before: 1,
      op: 'add',
      flag: 'read',
    });
    expectError(missing, 400, 'REQUEST_VARIABLE_MISSING', "Missing 'num_after' argument");
  });

  it('describes direct messages marked unread, with the other participants and mentions', async () => {
    const hamlet = world.as('hamlet');
    const othelloId = world.user('othello').id;
    const sent = await world.as('othello').post('/messages', {
      type: 'direct',
      to: [world.user('hamlet').id],
      content: `hi @**${world.user('hamlet').fullName}**`,
    });
    const id = sent.body.id as number;
    expectSuccess(
      await hamlet.post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }),
      'POST',
      '/messages/flags',
    );
    const queue = await EventQueue.register(hamlet, { event_types: ['update_message_flags'] });
    expectSuccess(
      await hamlet.post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' }),
      'POST',
      '/messages/flags',
    );
    // The event of the earlier "add" may still reach a queue registered just after it (it is harmless: adding a
    // flag twice changes nothing); the one of this "remove" is the one that describes the message.
    const event = await queue.next((e) => e.type === 'update_message_flags' && e.op === 'remove');
    expect(event.message_details).toEqual({ [id]: { type: 'private', user_ids: [othelloId], mentioned: true } });
  });
});
