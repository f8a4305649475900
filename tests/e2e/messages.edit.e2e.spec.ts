import type { ApiClient, World } from '@confab/devkit';
import { EventQueue, type ClientEvent } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';
import { updateRealm } from './support/world-facts';

const sendTo = async (client: ApiClient, to: string, topic: string, content: string) => {
  const response = await client.post('/messages', { type: 'stream', to, topic, content });
  expectSuccess(response, 'POST', '/messages');
  return response.body.id as number;
};

const patch = (client: ApiClient, id: number, params: Record<string, unknown>) =>
  client.patch(`/messages/${id}`, params);

const expectEdited = async (client: ApiClient, id: number, params: Record<string, unknown>) => {
  const response = await patch(client, id, params);
  expectSuccess(response, 'PATCH', `/messages/${id}`);
  expect(response.body.detached_uploads).toEqual([]);
};

const fetchOne = async (client: ApiClient, id: number) => {
  const response = await client.get(`/messages/${id}`);
  expectSuccess(response, 'GET', `/messages/${id}`);
  return response.body.message as Record<string, any>;
};

const topicIds = async (client: ApiClient, channel: string, topic: string) => {
  const response = await client.get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    narrow: [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: topic },
    ],
  });
  expectSuccess(response, 'GET', '/messages');
  return (response.body.messages as { id: number }[]).map((m) => m.id);
};

/** A topic's messages as raw Markdown, with their senders and the reader's flags. */
const topicMessages = async (client: ApiClient, channel: string, topic: string) => {
  const response = await client.get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    apply_markdown: false,
    narrow: [
      { operator: 'channel', operand: channel },
      { operator: 'topic', operand: topic },
    ],
  });
  expectSuccess(response, 'GET', '/messages');
  return response.body.messages as {
    id: number;
    content: string;
    sender_email: string;
    sender_full_name: string;
    flags: string[];
  }[];
};

const NOTIFICATION_BOT = 'notification-bot@zulip.com';

const updateFor = (queue: EventQueue, id: number, where: (e: ClientEvent) => boolean = () => true) =>
  queue.next((e) => e.type === 'update_message' && (e.message_ids as number[]).includes(id) && where(e));

describe('PATCH /messages/{message_id}: editing content', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it("changes the sender's message, re-renders it, and tells the other readers with their flags", async () => {
    const othello = await EventQueue.register(world.as('othello'), { event_types: ['update_message'] });
    const id = await sendTo(world.as('hamlet'), 'Verona', 'edits', 'first draft');
    await expectEdited(world.as('hamlet'), id, { content: 'second **draft** for @**Othello, the Moor of Venice**' });

    const event = await updateFor(othello, id);
    expect(event).toMatchObject({
      user_id: world.user('hamlet').id,
      message_id: id,
      message_ids: [id],
      rendering_only: false,
      orig_content: 'first draft',
      orig_rendered_content: '<p>first draft</p>',
      content: 'second **draft** for @**Othello, the Moor of Venice**',
      is_me_message: false,
      stream_id: expect.any(Number),
      stream_name: 'Verona',
      edit_timestamp: expect.any(Number),
    });
    expect(event.rendered_content).toContain('<strong>draft</strong>');
    expect(event.flags).toContain('mentioned');
    expect(event).not.toHaveProperty('subject');

    // Read back: new content, an edit time, and Othello now counts as mentioned.
    const message = await fetchOne(world.as('othello'), id);
    expect(message.content).toContain('<strong>draft</strong>');
    expect(message.last_edit_timestamp).toBe(event.edit_timestamp);
    expect(message.flags).toContain('mentioned');
    const mentions = await world.as('othello').get('/messages', {
      anchor: 'newest',
      num_before: 20,
      num_after: 0,
      narrow: [{ operator: 'is', operand: 'mentioned' }],
    });
    expect((mentions.body.messages as { id: number }[]).map((m) => m.id)).toContain(id);

    // Removing the mention clears the flag.
    await expectEdited(world.as('hamlet'), id, { content: 'third draft' });
    const cleared = await updateFor(othello, id, (e) => e.content === 'third draft');
    expect(cleared.flags).not.toContain('mentioned');
    expect((await fetchOne(world.as('othello'), id)).flags).not.toContain('mentioned');
  });

  it('keeps the history of every version, oldest first', async () => {
    const id = await sendTo(world.as('hamlet'), 'Verona', 'history', 'version one');
    await expectEdited(world.as('hamlet'), id, { content: 'version two' });
    await expectEdited(world.as('hamlet'), id, { topic: 'history moved' });
    const response = await world.as('othello').get(`/messages/${id}/history`);
    expectSuccess(response, 'GET', `/messages/${id}/history`);
    const history = response.body.message_history as Record<string, any>[];
    expect(history).toHaveLength(3);
    expect(history[0]).toMatchObject({
      content: 'version one',
      rendered_content: '<p>version one</p>',
      topic: 'history',
      user_id: world.user('hamlet').id,
    });
    expect(history[1]).toMatchObject({
      prev_content: 'version one',
      content: 'version two',
      prev_rendered_content: '<p>version one</p>',
      rendered_content: '<p>version two</p>',
      topic: 'history',
    });
    // The edit's changes, word by word, in the newer rendering.
    expect(history[1]!.content_html_diff).toBe(
      '<p>version <span class="highlight_text_deleted">one</span><span class="highlight_text_inserted">two</span></p>',
    );
    expect(history[2]).toMatchObject({ prev_topic: 'history', topic: 'history moved', content: 'version two' });
    expect(history[2]).not.toHaveProperty('prev_content');

    const never = await sendTo(world.as('hamlet'), 'Verona', 'history', 'untouched');
    const single = await world.as('hamlet').get(`/messages/${never}/history`);
    expect(single.body.message_history).toEqual([
      expect.objectContaining({ content: 'untouched', topic: 'history', user_id: world.user('hamlet').id }),
    ]);
    expectError(await world.as('hamlet').get('/messages/999999999/history'), 400, 'BAD_REQUEST', 'Invalid message(s)');
  });

  it('edits direct messages for their participants only', async () => {
    const sent = await world.as('hamlet').post('/messages', {
      type: 'direct',
      to: [world.user('othello').id],
      content: 'between us',
    });
    const id = sent.body.id as number;
    const othello = await EventQueue.register(world.as('othello'), { event_types: ['update_message'] });
    await expectEdited(world.as('hamlet'), id, { content: 'between us, edited' });
    const event = await updateFor(othello, id);
    expect(event).toMatchObject({ content: 'between us, edited', orig_content: 'between us' });
    expect(event).not.toHaveProperty('stream_id');
    expectError(await patch(world.as('cordelia'), id, { content: 'x' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    expectError(
      await patch(world.as('hamlet'), id, { topic: 'a topic' }),
      400,
      'BAD_REQUEST',
      'Direct messages cannot have topics.',
    );
    expectError(
      await patch(world.as('hamlet'), id, { stream_id: 1 }),
      400,
      'BAD_REQUEST',
      'Direct messages cannot be moved to channels.',
    );
  });

  it('claims the uploads an edit links, and reports those it no longer links as detached', async () => {
    const hamlet = world.as('hamlet');
    const upload = async (name: string) => {
      const response = await hamlet.post(
        '/api/v1/user_uploads',
        {},
        { files: [{ field: 'file', filename: name, contentType: 'text/plain', data: Buffer.from(name) }] },
      );
      expectSuccess(response, 'POST', '/user_uploads');
      return response.body.url as string;
    };
    const first = await upload('first.txt');
    const second = await upload('second.txt');
    const id = await sendTo(hamlet, 'Verona', 'files', `[first](${first})`);
    const attachments = async () =>
      Object.fromEntries(
        ((await hamlet.get('/attachments')).body.attachments as { name: string; messages: { id: number }[] }[]).map(
          (a) => [a.name, a.messages.map((m) => m.id)],
        ),
      );
    /** The topic's messages a reader finds with has:attachment. */
    const withAttachments = async () => {
      const found = await world.as('othello').get('/messages', {
        anchor: 'newest',
        num_before: 5,
        num_after: 0,
        narrow: [
          { operator: 'has', operand: 'attachment' },
          { operator: 'topic', operand: 'files' },
        ],
      });
      return (found.body.messages as { id: number }[]).map((m) => m.id);
    };
    expect(await attachments()).toMatchObject({ 'first.txt': [id], 'second.txt': [] });

    // The edit links the second file instead of the first: the second is the message's now (it no longer counts
    // as an unclaimed upload), the first is detached, and the reader can open the second.
    const edited = await patch(hamlet, id, { content: `[second](${second})` });
    expectSuccess(edited, 'PATCH', `/messages/${id}`);
    expect(edited.body.detached_uploads).toEqual([
      {
        id: expect.any(Number),
        name: 'first.txt',
        path_id: first.replace('/user_uploads/', ''),
        size: 9,
        create_time: expect.any(Number),
        messages: [],
      },
    ]);
    expect(await attachments()).toMatchObject({ 'first.txt': [], 'second.txt': [id] });
    const read = await world.as('othello').get(second);
    expect([read.status, read.text]).toEqual([200, 'second.txt']);
    expect(await withAttachments()).toContain(id);

    // Removing every link: the message no longer has an attachment.
    const cleared = await patch(hamlet, id, { content: 'no files here' });
    expect((cleared.body.detached_uploads as { name: string }[]).map((a) => a.name)).toEqual(['second.txt']);
    expect(await withAttachments()).not.toContain(id);
  });

  it("refuses what Zulip refuses, with Zulip's messages", async () => {
    const id = await sendTo(world.as('hamlet'), 'Verona', 'refusals', 'original');
    const cases: [ApiClient, Record<string, unknown>, string][] = [
      [world.as('othello'), { content: 'not mine' }, "You don't have permission to edit this message"],
      [world.as('iago'), { content: 'admins cannot either' }, "You don't have permission to edit this message"],
      [world.as('hamlet'), {}, 'Nothing to change'],
      [world.as('hamlet'), { topic: 'refusals' }, 'Nothing to change'],
      [world.as('hamlet'), { content: 'x', propagate_mode: 'change_all' }, 'Invalid propagate_mode without topic edit'],
      [world.as('hamlet'), { content: 'x', stream_id: 1 }, 'Cannot change message content while changing channel'],
      [world.as('hamlet'), { topic: '✔' }, 'General chat cannot be marked as resolved'],
      [world.as('hamlet'), { topic: 'bad\u0001topic' }, 'Invalid character in topic, at position 4!'],
    ];
    for (const [client, params, msg] of cases) expectError(await patch(client, id, params), 400, 'BAD_REQUEST', msg);
    expectError(
      await patch(world.as('hamlet'), id, { content: 'x', prev_content_sha256: 'f'.repeat(64) }),
      400,
      'EXPECTATION_MISMATCH',
      "'prev_content_sha256' value does not match the expected value.",
    );
    expectError(await patch(world.as('hamlet'), 999999999, { content: 'x' }), 400, 'BAD_REQUEST', 'Invalid message(s)');
    const invalidMode = await patch(world.as('hamlet'), id, { topic: 'y', propagate_mode: 'change_some' });
    expect(invalidMode.status).toBe(400);
    // Nothing was changed by any of them.
    expect(await fetchOne(world.as('hamlet'), id)).toMatchObject({ content: '<p>original</p>', subject: 'refusals' });
    expect((await fetchOne(world.as('hamlet'), id)).last_edit_timestamp).toBeUndefined();

    // A matching hash is accepted; blank content becomes "(deleted)", as in Zulip.
    const { createHash } = await import('node:crypto');
    await expectEdited(world.as('hamlet'), id, {
      content: '   ',
      prev_content_sha256: createHash('sha256').update('original').digest('hex'),
    });
    expect((await fetchOne(world.as('hamlet'), id)).content).toBe('<p>(deleted)</p>');
  });
});

describe('PATCH /messages/{message_id}: moving messages', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('renames a whole topic for everyone (change_all) and tells subscribers', async () => {
    const hamlet = world.as('hamlet');
    const first = await sendTo(hamlet, 'Verona', 'old name', 'one');
    const second = await sendTo(world.as('othello'), 'Verona', 'old name', 'two');
    const third = await sendTo(hamlet, 'Verona', 'old name', 'three');
    const cordelia = await EventQueue.register(world.as('cordelia'), { event_types: ['update_message'] });
    const verona = (await hamlet.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
    // Hamlet follows the topic; the follow moves with it.
    expectSuccess(
      await hamlet.post('/user_topics', { stream_id: verona, topic: 'old name', visibility_policy: 3 }),
      'POST',
      '/user_topics',
    );
    const hamletQueue = await EventQueue.register(hamlet, { event_types: ['user_topic'] });

    await expectEdited(world.as('othello'), second, { topic: 'new name', propagate_mode: 'change_all' });
    const event = await updateFor(cordelia, second);
    expect(event).toMatchObject({
      user_id: world.user('othello').id,
      message_id: second,
      message_ids: [first, second, third],
      propagate_mode: 'change_all',
      orig_subject: 'old name',
      subject: 'new name',
      topic_links: [],
      stream_name: 'Verona',
      rendering_only: false,
    });
    expect(event).not.toHaveProperty('content');
    expect(event).not.toHaveProperty('new_stream_id');
    // The Notification Bot says where the topic came from (send_notification_to_new_thread is on by default).
    expect(await topicIds(hamlet, 'Verona', 'new name')).toEqual([first, second, third, expect.any(Number)]);
    expect(await topicIds(hamlet, 'Verona', 'old name')).toEqual([]);
    const topics = (await hamlet.get(`/users/me/${verona}/topics`)).body.topics as { name: string }[];
    expect(topics.map((t) => t.name)).toContain('new name');
    expect(topics.map((t) => t.name)).not.toContain('old name');
    const followed = await hamletQueue.next((e) => e.type === 'user_topic' && e.topic_name === 'new name');
    expect(followed).toMatchObject({ stream_id: verona, visibility_policy: 3 });
    // The event of the follow itself may still reach the queue registered just after it (as in Zulip, a queue can
    // receive events its initial state already holds): the clearing one has policy 0.
    const cleared = await hamletQueue.next(
      (e) => e.type === 'user_topic' && e.topic_name === 'old name' && e.visibility_policy === 0,
    );
    expect(cleared).toMatchObject({ stream_id: verona, visibility_policy: 0 });
    const state = await EventQueue.register(hamlet, { fetch_event_types: ['user_topic'] });
    const policies = state.registration.user_topics as { topic_name: string; visibility_policy: number }[];
    expect(policies).toContainEqual(expect.objectContaining({ topic_name: 'new name', visibility_policy: 3 }));
    expect(policies.map((p) => p.topic_name)).not.toContain('old name');
  });

  it('moves one message or the later ones only', async () => {
    const hamlet = world.as('hamlet');
    const ids = [];
    for (const content of ['a', 'b', 'c', 'd']) ids.push(await sendTo(hamlet, 'Verona', 'split me', content));
    const quiet = { send_notification_to_new_thread: false };
    await expectEdited(hamlet, ids[0]!, { topic: 'just one', ...quiet });
    expect(await topicIds(hamlet, 'Verona', 'just one')).toEqual([ids[0]]);
    await expectEdited(hamlet, ids[2]!, { topic: 'the rest', propagate_mode: 'change_later', ...quiet });
    expect(await topicIds(hamlet, 'Verona', 'the rest')).toEqual([ids[2], ids[3]]);
    expect(await topicIds(hamlet, 'Verona', 'split me')).toEqual([ids[1]]);
  });

  it("posts the Notification Bot's notices of a move in the old and the new topic, as the mover asks", async () => {
    const [hamlet, othello] = [world.as('hamlet'), world.as('othello')];
    const othelloMention = `@_**${world.user('othello').fullName}|${world.user('othello').id}**`;
    const ids = [];
    for (const content of ['one', 'two', 'three']) ids.push(await sendTo(hamlet, 'Verona', 'crumbs', content));

    // One message of three: the new topic gets a link to it; the old one, asked too, the count.
    await expectEdited(othello, ids[0]!, { topic: 'crumbs 2', send_notification_to_old_thread: true });
    const moved = await topicMessages(hamlet, 'Verona', 'crumbs 2');
    expect(moved.map((m) => m.id).slice(0, 1)).toEqual([ids[0]]);
    const here = moved[1]!;
    expect(here).toMatchObject({ sender_email: NOTIFICATION_BOT, sender_full_name: 'Notification Bot' });
    expect(here.content).toMatch(
      new RegExp(
        `^\\[A message\\]\\(http[^)]+/#narrow/channel/\\d+-Verona/topic/crumbs\\.202/near/${ids[0]}\\) was moved here ` +
          `from #\\*\\*Verona>crumbs\\*\\* by ${othelloMention.replace(/[*|]/g, '\\$&')}\\.$`,
      ),
    );
    const left = await topicMessages(hamlet, 'Verona', 'crumbs');
    expect(left.map((m) => m.content)).toEqual([
      'two',
      'three',
      `A message was moved from this topic to #**Verona>crumbs 2** by ${othelloMention}.`,
    ]);
    // Read for the mover, unread for the others.
    expect(here.flags).not.toContain('read');
    const forOthello = await topicMessages(othello, 'Verona', 'crumbs');
    expect(forOthello[2]!.flags).toContain('read');

    // The rest, with change_all: the whole topic moved, said so in both places.
    await expectEdited(othello, ids[1]!, {
      topic: 'crumbs 3',
      propagate_mode: 'change_all',
      send_notification_to_old_thread: true,
    });
    const all = await topicMessages(hamlet, 'Verona', 'crumbs 3');
    expect(all.map((m) => m.content)).toEqual([
      'two',
      'three',
      `A message was moved from this topic to #**Verona>crumbs 2** by ${othelloMention}.`,
      `This topic was moved here from #**Verona>crumbs** by ${othelloMention}.`,
    ]);
    expect((await topicMessages(hamlet, 'Verona', 'crumbs')).map((m) => m.content)).toEqual([
      `This topic was moved to #**Verona>crumbs 3** by ${othelloMention}.`,
    ]);

    // Neither notice when neither is asked for.
    await expectEdited(othello, ids[0]!, { topic: 'crumbs 4', send_notification_to_new_thread: false });
    expect(await topicIds(hamlet, 'Verona', 'crumbs 4')).toEqual([ids[0]]);
    expect(await topicIds(hamlet, 'Verona', 'crumbs 2')).toEqual([here.id]);
  });

  it('lists the Notification Bot as a cross-realm bot, not as a member of the organization', async () => {
    const state = await EventQueue.register(world.as('hamlet'), { fetch_event_types: ['realm_user'] });
    const { cross_realm_bots: bots, realm_users: users } = state.registration as Record<
      'cross_realm_bots' | 'realm_users',
      Record<string, unknown>[]
    >;
    expect(bots).toEqual([
      expect.objectContaining({
        email: NOTIFICATION_BOT,
        full_name: 'Notification Bot',
        is_bot: true,
        is_system_bot: true,
        bot_owner_id: null,
      }),
    ]);
    expect(users.map((u) => u.email)).not.toContain(NOTIFICATION_BOT);
    const members = (await world.as('hamlet').get('/users')).body.members as { email: string }[];
    expect(members.map((u) => u.email)).not.toContain(NOTIFICATION_BOT);
  });

  it('resolves and unresolves topics, under the resolve permission', async () => {
    const hamlet = world.as('hamlet');
    const id = await sendTo(hamlet, 'Verona', 'bug 17', 'it crashes');
    await expectEdited(world.as('othello'), id, { topic: '✔ bug 17', propagate_mode: 'change_all' });
    // The Notification Bot says who resolved it; unread only for those who follow the topic (Hamlet started it).
    const othelloMention = `@_**${world.user('othello').fullName}|${world.user('othello').id}**`;
    const resolved = await topicMessages(hamlet, 'Verona', '✔ bug 17');
    expect(resolved.map((m) => m.id)[0]).toBe(id);
    expect(resolved[1]).toMatchObject({
      sender_email: NOTIFICATION_BOT,
      content: `${othelloMention} has marked this topic as resolved.`,
    });
    expect(resolved[1]!.flags).not.toContain('read');
    expect((await topicMessages(world.as('cordelia'), 'Verona', '✔ bug 17'))[1]!.flags).toContain('read');
    // Undone within a minute: the notice goes instead of a second one coming.
    await expectEdited(world.as('othello'), id, { topic: 'bug 17', propagate_mode: 'change_all' });
    expect(await topicIds(hamlet, 'Verona', 'bug 17')).toEqual([id]);

    await updateRealm(world, {
      permissions: {
        can_resolve_topics_group: 'role:administrators',
        can_move_messages_between_topics_group: 'role:nobody',
      },
    });
    expectError(
      await patch(world.as('othello'), id, { topic: '✔ bug 17', propagate_mode: 'change_all' }),
      400,
      'BAD_REQUEST',
      "You don't have permission to resolve topics in this channel.",
    );
    expectError(
      await patch(world.as('othello'), id, { topic: 'renamed', propagate_mode: 'change_all' }),
      400,
      'BAD_REQUEST',
      "You don't have permission to edit this message",
    );
    // Administrators may still rename (they can move messages within any channel) and resolve.
    await expectEdited(world.as('iago'), id, { topic: '✔ bug 17', propagate_mode: 'change_all' });
    await updateRealm(world, {
      permissions: {
        can_resolve_topics_group: 'role:everyone',
        can_move_messages_between_topics_group: 'role:everyone',
      },
    });
  });

  it('moves messages to another channel: new subscribers see them, those who lose access see them deleted', async () => {
    const iago = world.as('iago');
    const created = await iago.post('/channels/create', {
      name: 'secret plans',
      subscribers: [world.user('iago').id, world.user('hamlet').id],
      invite_only: true,
    });
    expectSuccess(created, 'POST', '/channels/create');
    const secretId = (await iago.get('/get_stream_id', { stream: 'secret plans' })).body.stream_id as number;
    const hamletQueue = await EventQueue.register(world.as('hamlet'), {
      event_types: ['update_message', 'delete_message'],
    });
    const othelloQueue = await EventQueue.register(world.as('othello'), {
      event_types: ['update_message', 'delete_message'],
      client_capabilities: { bulk_message_deletion: true },
    });
    const id = await sendTo(world.as('hamlet'), 'Verona', 'plans', 'the plan');

    // A member may not move into a private channel they cannot see.
    expectError(
      await patch(world.as('othello'), id, { stream_id: secretId }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    await expectEdited(iago, id, { stream_id: secretId, topic: 'moved plans' });

    const update = await updateFor(hamletQueue, id);
    expect(update).toMatchObject({
      stream_id: expect.any(Number),
      new_stream_id: secretId,
      orig_subject: 'plans',
      subject: 'moved plans',
      propagate_mode: 'change_one',
    });
    const deleted = await othelloQueue.next((e) => e.type === 'delete_message');
    expect(deleted).toMatchObject({ message_ids: [id], message_type: 'stream', topic: 'plans' });
    expect(othelloQueue.seen.filter((e) => e.type === 'update_message')).toEqual([]);

    expect(await fetchOne(world.as('hamlet'), id)).toMatchObject({
      stream_id: secretId,
      display_recipient: 'secret plans',
      subject: 'moved plans',
    });
    expectError(await world.as('othello').get(`/messages/${id}`), 400, 'BAD_REQUEST', 'Invalid message(s)');
    const history = (await world.as('hamlet').get(`/messages/${id}/history`)).body.message_history;
    expect(history[1]).toMatchObject({ prev_stream: expect.any(Number), stream: secretId, prev_topic: 'plans' });
  });

  it('refuses moves to members without the permission, and editing when the organization turned it off', async () => {
    const id = await sendTo(world.as('hamlet'), 'Verona', 'stay', 'stay here');
    await updateRealm(world, { permissions: { can_move_messages_between_channels_group: 'role:nobody' } });
    const denmark = (await world.as('hamlet').get('/get_stream_id', { stream: 'Denmark' })).body.stream_id as number;
    expectError(
      await patch(world.as('hamlet'), id, { stream_id: denmark }),
      400,
      'BAD_REQUEST',
      "You don't have permission to move this message",
    );
    await updateRealm(world, {
      allow_message_editing: false,
      permissions: { can_move_messages_between_channels_group: 'role:members' },
    });
    expectError(
      await patch(world.as('hamlet'), id, { content: 'changed' }),
      400,
      'BAD_REQUEST',
      'Your organization has turned off message editing',
    );
    // Moving is governed by its own permissions.
    await expectEdited(world.as('hamlet'), id, { stream_id: denmark });
    await updateRealm(world, { allow_message_editing: true });
  });
});
