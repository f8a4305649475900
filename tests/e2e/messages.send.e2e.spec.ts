import type { ApiClient, World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { EventCapture } from './support/event-capture';
import { newWorld } from './support/system';
import { updateRealm } from './support/world-facts';

async function send(client: ApiClient, params: Record<string, unknown>) {
  return client.post('/messages', params);
}

async function readBack(client: ApiClient, id: number, params: Record<string, unknown> = {}) {
  const response = await client.get(`/messages/${id}`, params);
  expectSuccess(response, 'GET', `/messages/${id}`);
  return response.body as { raw_content: string; message: Record<string, any> };
}

describe('POST /messages', () => {
  let world: World;
  let hamlet: ApiClient;
  beforeAll(async () => {
    world = await newWorld();
    hamlet = world.as('hamlet');
  });

  it('sends to a channel by name and by ID, readable by subscribers', async () => {
    const byName = await send(hamlet, {
      type: 'stream',
      to: 'Verona',
      topic: 'greetings',
      content: 'hello **Verona**',
    });
    expectSuccess(byName, 'POST', '/messages');
    expect(byName.body.id).toEqual(expect.any(Number));
    const verona = (await hamlet.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
    const byId = await send(hamlet, { type: 'channel', to: verona, topic: 'greetings', content: 'again' });
    expectSuccess(byId, 'POST', '/messages');
    const { message, raw_content } = await readBack(world.as('polonius'), byName.body.id);
    expect(raw_content).toBe('hello **Verona**');
    expect(message).toMatchObject({
      id: byName.body.id,
      type: 'stream',
      stream_id: verona,
      display_recipient: 'Verona',
      subject: 'greetings',
      sender_id: world.user('hamlet').id,
      sender_email: 'hamlet@zulip.com',
      sender_full_name: 'King Hamlet',
      content_type: 'text/html',
    });
  });

  it('accepts a JSON-encoded channel name and a one-element list', async () => {
    expectSuccess(
      await send(hamlet, { type: 'stream', to: '"Denmark"', topic: 't', content: 'x' }),
      'POST',
      '/messages',
    );
    expectSuccess(
      await send(hamlet, { type: 'stream', to: '["Denmark"]', topic: 't', content: 'x' }),
      'POST',
      '/messages',
    );
    expectError(
      await send(hamlet, { type: 'stream', to: '["Denmark", "Rome"]', topic: 't', content: 'x' }),
      400,
      'BAD_REQUEST',
      'Expected exactly one channel',
    );
  });

  it('reports an unknown channel by name and by ID', async () => {
    const byName = await send(hamlet, { type: 'stream', to: 'nonexistent', topic: 't', content: 'x' });
    expectError(byName, 400, 'STREAM_DOES_NOT_EXIST', "Channel 'nonexistent' does not exist", {
      stream: 'nonexistent',
    });
    const byId = await send(hamlet, { type: 'stream', to: 99999999, topic: 't', content: 'x' });
    expectError(byId, 400, 'STREAM_DOES_NOT_EXIST', "Channel with ID '99999999' does not exist", {
      stream_id: 99999999,
    });
  });

  it('sends direct messages by user IDs and by emails, the sender included or not', async () => {
    const othello = world.user('othello');
    const byIds = await send(hamlet, { type: 'direct', to: [othello.id], content: 'hi' });
    expectSuccess(byIds, 'POST', '/messages');
    const byEmails = await send(hamlet, {
      type: 'private',
      to: JSON.stringify(['othello@zulip.com', 'hamlet@zulip.com']),
      content: 'hi again',
    });
    expectSuccess(byEmails, 'POST', '/messages');
    for (const id of [byIds.body.id, byEmails.body.id]) {
      const { message } = await readBack(world.as('othello'), id);
      expect(message.type).toBe('private');
      expect(message.display_recipient.map((u: { id: number }) => u.id)).toEqual(
        [world.user('hamlet').id, othello.id].sort((a, b) => a - b),
      );
    }
    const both = await world.as('othello').get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: [world.user('hamlet').id] }],
    });
    expect((both.body.messages as { id: number }[]).map((m) => m.id)).toEqual([byIds.body.id, byEmails.body.id]);
  });

  it('sends a message to oneself when the sender is the only recipient', async () => {
    const response = await send(hamlet, { type: 'direct', to: [world.user('hamlet').id], content: 'note to self' });
    expectSuccess(response, 'POST', '/messages');
    const { message } = await readBack(hamlet, response.body.id);
    expect(message.display_recipient).toEqual([
      { id: world.user('hamlet').id, email: 'hamlet@zulip.com', full_name: 'King Hamlet', is_mirror_dummy: false },
    ]);
  });

  it('names unknown direct recipients', async () => {
    expectError(
      await send(hamlet, { type: 'direct', to: ['nobody@zulip.com'], content: 'x' }),
      400,
      'BAD_REQUEST',
      "Invalid email 'nobody@zulip.com'",
    );
    expectError(
      await send(hamlet, { type: 'direct', to: [123456789], content: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid user ID 123456789',
    );
    expectError(
      await send(hamlet, { type: 'direct', to: [], content: 'x' }),
      400,
      'BAD_REQUEST',
      'Message must have recipients',
    );
    expectError(
      await send(hamlet, { type: 'direct', to: '[1, "a@b.c"]', content: 'x' }),
      400,
      'BAD_REQUEST',
      'Recipient lists may contain emails or user IDs, but not both.',
    );
  });

  it('refuses topic and subject together, and a missing topic', async () => {
    const both = await send(hamlet, { type: 'stream', to: 'Verona', topic: 'a', subject: 'b', content: 'x' });
    expectError(both, 400, 'REQUEST_CONFUSING_VAR', "Can't decide between 'topic' and 'subject' arguments", {
      var_name1: 'topic',
      var_name2: 'subject',
    });
    expectError(
      await send(hamlet, { type: 'stream', to: 'Verona', content: 'x' }),
      400,
      'BAD_REQUEST',
      'Missing topic',
    );
    const subject = await send(hamlet, { type: 'stream', to: 'Verona', subject: 'via subject', content: 'x' });
    expectSuccess(subject, 'POST', '/messages');
    expect((await readBack(hamlet, subject.body.id)).message.subject).toBe('via subject');
  });

  it('validates type and content', async () => {
    expectError(
      await send(hamlet, { type: 'stream', to: 'Verona', topic: 't' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'content' argument",
      { var_name: 'content' },
    );
    expectError(
      await send(hamlet, { type: 'bogus', to: 'Verona', topic: 't', content: 'x' }),
      400,
      'BAD_REQUEST',
      'Invalid type',
    );
    expectError(
      await send(hamlet, { type: 'stream', to: 'Verona', topic: 't', content: ' \n\t ' }),
      400,
      'BAD_REQUEST',
      'Message must not be empty',
    );
    expectError(
      await send(hamlet, { type: 'stream', to: 'Verona', topic: 't', content: 'a\u0000b' }),
      400,
      'BAD_REQUEST',
      'Message must not contain null bytes',
    );
  });

  it('trims trailing whitespace and leading newlines, and truncates long content', async () => {
    const trimmed = await send(hamlet, { type: 'stream', to: 'Verona', topic: 't', content: '\n\n  indented  \n\n' });
    expect((await readBack(hamlet, trimmed.body.id)).raw_content).toBe('  indented');
    const long = await send(hamlet, { type: 'stream', to: 'Verona', topic: 't', content: 'y'.repeat(10_050) });
    expectSuccess(long, 'POST', '/messages');
    const raw = (await readBack(hamlet, long.body.id)).raw_content;
    expect(raw).toHaveLength(10_000);
    expect(raw.endsWith('\n[message truncated]')).toBe(true);
  });

  it('truncates topics longer than 60 characters', async () => {
    const response = await send(hamlet, { type: 'stream', to: 'Verona', topic: 'z'.repeat(70), content: 'x' });
    expect((await readBack(hamlet, response.body.id)).message.subject).toBe(`${'z'.repeat(57)}...`);
  });

  it('reads "(no topic)" and the empty-topic display name as the empty topic', async () => {
    for (const topic of ['(no topic)', 'general chat', '']) {
      const response = await send(hamlet, { type: 'stream', to: 'Rome', topic, content: `in ${topic}` });
      expectSuccess(response, 'POST', '/messages');
      expect((await readBack(hamlet, response.body.id, { allow_empty_topic_name: true })).message.subject).toBe('');
      expect((await readBack(hamlet, response.body.id)).message.subject).toBe('general chat');
    }
  });

  it('requires local_id and queue_id together', async () => {
    expectError(
      await send(hamlet, { type: 'stream', to: 'Verona', topic: 't', content: 'x', queue_id: 'q1' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'local_id' argument",
    );
    expectError(
      await send(hamlet, { type: 'stream', to: 'Verona', topic: 't', content: 'x', local_id: '1' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'queue_id' argument",
    );
    expectSuccess(
      await send(hamlet, { type: 'stream', to: 'Verona', topic: 't', content: 'x', queue_id: 'q1', local_id: '1.01' }),
      'POST',
      '/messages',
    );
  });

  it('posts a retried send once: the same sender, queue_id and local_id answer the first message again', async () => {
    const queueId = `retry-${Date.now()}`;
    const topic = `retried ${queueId}`;
    const params = { type: 'stream', to: 'Verona', topic, content: 'once', queue_id: queueId, local_id: '7.01' };
    const first = await send(hamlet, params);
    expectSuccess(first, 'POST', '/messages');
    // A retry after an answer the client lost; then several at once (a race on the key).
    const again = await send(hamlet, params);
    const together = await Promise.all(Array.from({ length: 4 }, () => send(hamlet, { ...params, local_id: '8.01' })));
    expect({ status: again.status, id: again.body.id }).toEqual({ status: 200, id: first.body.id });
    expect(together.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(together.map((r) => r.body.id)).size).toBe(1);
    // Another local id, or another sender with the same ids, is another message.
    const other = await send(hamlet, { ...params, local_id: '9.01' });
    const othello = await send(world.as('othello'), params);
    const history = await hamlet.get('/messages', {
      anchor: 'newest',
      num_before: 20,
      num_after: 0,
      narrow: JSON.stringify([
        { operator: 'channel', operand: 'Verona' },
        { operator: 'topic', operand: topic },
      ]),
    });
    expect(history.status).toBe(200);
    const ids = (history.body.messages as { id: number }[]).map((m) => m.id);
    expect(ids).toEqual(
      [first.body.id, together[0]!.body.id, other.body.id, othello.body.id].sort((a: number, b: number) => a - b),
    );
  });

  it('marks the message read for the sender as asked, or by the client-name heuristic', async () => {
    const flagsOf = async (id: number) => (await readBack(hamlet, id)).message.flags as string[];
    const explicit = await send(hamlet, {
      type: 'stream',
      to: 'Verona',
      topic: 'r',
      content: 'x',
      read_by_sender: true,
    });
    expect(await flagsOf(explicit.body.id)).toContain('read');
    const unread = await send(hamlet, {
      type: 'stream',
      to: 'Verona',
      topic: 'r',
      content: 'x',
      read_by_sender: false,
    });
    expect(await flagsOf(unread.body.id)).not.toContain('read');
    const api = await hamlet.post(
      '/messages',
      { type: 'stream', to: 'Verona', topic: 'r', content: 'x' },
      { headers: { 'user-agent': 'my-integration/1.0' } },
    );
    expect(await flagsOf(api.body.id)).not.toContain('read');
    const mobile = await hamlet.post(
      '/messages',
      { type: 'stream', to: 'Verona', topic: 'r', content: 'x' },
      { headers: { 'user-agent': 'ZulipMobile/27.1 (Android 14)' } },
    );
    expect(await flagsOf(mobile.body.id)).toContain('read');
    expect((await readBack(hamlet, mobile.body.id)).message.client).toBe('ZulipMobile');
  });

  it('follows a topic the sender starts and says so', async () => {
    const first = await send(hamlet, { type: 'stream', to: 'Scotland', topic: 'brand new topic', content: 'first' });
    expectSuccess(first, 'POST', '/messages');
    expect(first.body.automatic_new_visibility_policy).toBe(3);
    const second = await send(hamlet, { type: 'stream', to: 'Scotland', topic: 'brand new topic', content: 'second' });
    expect(second.body).not.toHaveProperty('automatic_new_visibility_policy');
    const other = await send(world.as('othello'), {
      type: 'stream',
      to: 'Scotland',
      topic: 'Brand New Topic',
      content: 'reply',
    });
    expect(other.body).not.toHaveProperty('automatic_new_visibility_policy');
  });

  it('enforces who may post in a channel', async () => {
    const iago = world.as('iago');
    const created = await iago.post('/channels/create', {
      name: 'announcements',
      subscribers: [world.user('iago').id, world.user('hamlet').id],
      can_send_message_group: { direct_members: [world.user('iago').id], direct_subgroups: [] },
    });
    expectSuccess(created, 'POST', '/channels/create', { undocumented: false });
    expectError(
      await send(hamlet, { type: 'stream', to: 'announcements', topic: 't', content: 'x' }),
      400,
      'BAD_REQUEST',
      'You do not have permission to post in this channel.',
    );
    expectSuccess(
      await send(iago, { type: 'stream', to: 'announcements', topic: 't', content: 'x' }),
      'POST',
      '/messages',
    );
  });

  it('refuses private channels the sender is not subscribed to, and guests outside their channels', async () => {
    await world
      .as('iago')
      .post('/users/me/subscriptions', { subscriptions: [{ name: 'iago-private' }], invite_only: true });
    expectError(
      await send(hamlet, { type: 'stream', to: 'iago-private', topic: 't', content: 'x' }),
      400,
      'BAD_REQUEST',
      "Not authorized to send to channel 'iago-private'",
    );
    expectError(
      await send(world.as('polonius'), { type: 'stream', to: 'Denmark', topic: 't', content: 'x' }),
      400,
      'BAD_REQUEST',
      "Not authorized to send to channel 'Denmark'",
    );
    expectSuccess(
      await send(world.as('polonius'), { type: 'stream', to: 'Verona', topic: 't', content: 'x' }),
      'POST',
      '/messages',
    );
  });

  it('applies a channel that requires topics', async () => {
    const created = await world.as('iago').post('/channels/create', {
      name: 'topics-required',
      subscribers: [world.user('hamlet').id],
      topics_policy: JSON.stringify('disable_empty_topic'),
    });
    expectSuccess(created, 'POST', '/channels/create');
    expectError(
      await send(hamlet, { type: 'stream', to: 'topics-required', topic: '(no topic)', content: 'x' }),
      400,
      'BAD_REQUEST',
      'Topics are required in this organization.',
    );
    expectSuccess(
      await send(hamlet, { type: 'stream', to: 'topics-required', topic: 'named', content: 'x' }),
      'POST',
      '/messages',
    );
  });
});

describe('POST /messages in an organization that requires topics', () => {
  it('refuses the empty topic, "(no topic)" and the display name', async () => {
    const world = await newWorld();
    await updateRealm(world, { mandatory_topics: true });
    for (const topic of ['', '(no topic)', 'general chat']) {
      expectError(
        await send(world.as('hamlet'), { type: 'stream', to: 'Verona', topic, content: 'x' }),
        400,
        'BAD_REQUEST',
        'Topics are required in this organization.',
      );
    }
    expectSuccess(
      await send(world.as('hamlet'), { type: 'stream', to: 'Verona', topic: 'real topic', content: 'x' }),
      'POST',
      '/messages',
    );
  });
});

describe('POST /messages events', () => {
  it('announces the message with what the events service needs for each recipient', async () => {
    const world = await newWorld();
    const events = await EventCapture.start(['message.sent', 'user_topic.changed'], world.realm.realm_id);
    const sent = await world.as('hamlet').post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'announced',
      content: 'hello @**Othello, the Moor of Venice**',
      queue_id: 'queue-1',
      local_id: '42.01',
      read_by_sender: true,
    });
    expectSuccess(sent, 'POST', '/messages');
    const event = await events.next('message.sent', (p) => p.message.id === sent.body.id);
    const hamlet = world.user('hamlet').id;
    const othello = world.user('othello').id;
    expect(event).toMatchObject({
      local_id: '42.01',
      sender_queue_id: 'queue-1',
      stream: { name: 'Verona', invite_only: false, is_web_public: false },
      message: {
        id: sent.body.id,
        type: 'stream',
        sender_id: hamlet,
        sender_email: 'hamlet@zulip.com',
        display_recipient: 'Verona',
        subject: 'announced',
        content: 'hello @**Othello, the Moor of Venice**',
        rendered_content: expect.stringContaining('user-mention'),
      },
    });
    // The sender first, then every other subscriber.
    expect(event.user_ids[0]).toBe(hamlet);
    expect([...event.user_ids].sort()).toEqual(
      Object.values(world.users)
        .map((u) => u.id)
        .sort(),
    );
    expect(event.flags).toEqual({ [String(hamlet)]: ['read'], [String(othello)]: ['mentioned'] });
    expect(await events.next('user_topic.changed', (p) => p.user_id === hamlet)).toMatchObject({
      topic_name: 'announced',
      visibility_policy: 3,
    });

    const dm = await world.as('hamlet').post('/messages', { type: 'direct', to: [othello], content: 'private' });
    const dmEvent = await events.next('message.sent', (p) => p.message.id === dm.body.id);
    expect(dmEvent).toMatchObject({
      stream: null,
      local_id: null,
      sender_queue_id: null,
      message: { type: 'private' },
    });
    expect([...dmEvent.user_ids].sort()).toEqual([hamlet, othello].sort());
    expect(dmEvent.flags).toEqual({});
    await events.stop();
  });
});
