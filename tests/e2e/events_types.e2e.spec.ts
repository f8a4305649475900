import { connect } from 'amqplib';
import type { World } from '@confab/devkit';
import { contracts, type EventContract } from '@confab/events';
import { EventQueue, handledByEvents, type ClientEvent } from './support/event-queues';
import { publishEvent as publish } from './support/events';

import { expectSuccess } from './support/expect';
import { newWorld, system } from './support/system';

/** Publishes as the owning service would, without waiting for a particular consumer. */
const publishEvent = <T>(contract: EventContract<T>, payload: T, realmId: number) =>
  publish(contract, payload, realmId, null);

jest.setTimeout(60_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});

const id = (name: Parameters<World['user']>[0]) => world.user(name).id;

describe('subscription and stream events', () => {
  it('tell new subscribers (add), other non-guests (peer_add) and nobody else', async () => {
    const hamlet = await EventQueue.register(world.as('hamlet'), { event_types: ['subscription', 'stream'] });
    const othello = await EventQueue.register(world.as('othello'), { event_types: ['subscription'] });
    const iago = await EventQueue.register(world.as('iago'), { event_types: ['subscription'] });
    const polonius = await EventQueue.register(world.as('polonius'), { event_types: ['subscription'] });
    const response = await world.as('hamlet').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'events-new', description: 'New' }],
      principals: [id('hamlet'), id('othello')],
    });
    expectSuccess(response, 'POST', '/users/me/subscriptions');
    const added = await othello.next((e) => e.op === 'add');
    expect(added.subscriptions).toHaveLength(1);
    expect(added.subscriptions[0]).toMatchObject({ name: 'events-new', description: 'New', in_home_view: true });
    // The organization's own channels were created just before (newWorld), and their events may still be arriving
    // at a queue registered meanwhile: the one to look at is the creation of this channel.
    const created = await hamlet.next(
      (e) => e.type === 'stream' && (e.streams as { name: string }[]).some((s) => s.name === 'events-new'),
    );
    expect(created).toMatchObject({ op: 'create', streams: [{ name: 'events-new' }] });
    await hamlet.next((e) => e.op === 'add');
    // Likewise for subscriptions: only the events about this channel count.
    const streamId = added.subscriptions[0].stream_id as number;
    const aboutIt = (e: ClientEvent) =>
      ((e.stream_ids as number[] | undefined) ?? []).includes(streamId) ||
      ((e.subscriptions as { stream_id?: number }[] | undefined) ?? []).some((sub) => sub.stream_id === streamId) ||
      ((e.streams as { stream_id?: number }[] | undefined) ?? []).some((st) => st.stream_id === streamId);
    const peer = await iago.next((e) => e.op === 'peer_add' && aboutIt(e));
    expect(peer).toMatchObject({ op: 'peer_add', user_ids: expect.arrayContaining([id('hamlet'), id('othello')]) });
    expect((await polonius.drain()).filter(aboutIt)).toEqual([]);
    expect(othello.seen.filter((e) => e.op === 'peer_add' && aboutIt(e))).toEqual([]);

    const removal = await world.as('othello').delete('/users/me/subscriptions', { subscriptions: ['events-new'] });
    expectSuccess(removal, 'DELETE', '/users/me/subscriptions');
    expect(await othello.next((e) => e.op === 'remove')).toMatchObject({
      subscriptions: [{ name: 'events-new', stream_id: added.subscriptions[0].stream_id }],
    });
    expect(await iago.next((e) => e.op === 'peer_remove')).toMatchObject({ user_ids: [id('othello')] });
  });
});

describe('user_settings events', () => {
  it('reach only the user’s own queues, one per changed setting', async () => {
    const mine = await EventQueue.register(world.as('cordelia'), { event_types: ['user_settings'] });
    const theirs = await EventQueue.register(world.as('hamlet'), { event_types: ['user_settings'] });
    const response = await world.as('cordelia').patch('/settings', { enter_sends: true, twenty_four_hour_time: true });
    expectSuccess(response, 'PATCH', '/settings');
    await mine.next((e) => e.property === 'twenty_four_hour_time');
    const changes = mine.seen.filter((e) => e.type === 'user_settings');
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ op: 'update', property: 'enter_sends', value: true }),
        expect.objectContaining({ op: 'update', property: 'twenty_four_hour_time', value: true }),
      ]),
    );
    expect(await theirs.drain()).toEqual([]);
  });
});

describe('navigation_view events', () => {
  it('follow add, update and remove for the owner only', async () => {
    const mine = await EventQueue.register(world.as('cordelia'), { event_types: ['navigation_view'] });
    const theirs = await EventQueue.register(world.as('hamlet'), { event_types: ['navigation_view'] });
    const fragment = 'narrow/is/alerted';
    expectSuccess(
      await world.as('cordelia').post('/navigation_views', { fragment, is_pinned: true, name: 'Alerts' }),
      'POST',
      '/navigation_views',
    );
    expect(await mine.next()).toMatchObject({
      type: 'navigation_view',
      op: 'add',
      navigation_view: { fragment, is_pinned: true, name: 'Alerts' },
    });
    await world.as('cordelia').patch(`/navigation_views/${fragment}`, { is_pinned: false });
    expect(await mine.next((e) => e.op === 'update')).toMatchObject({ fragment, data: { is_pinned: false } });
    await world.as('cordelia').delete(`/navigation_views/${fragment}`);
    expect(await mine.next((e) => e.op === 'remove')).toMatchObject({ fragment });
    expect(await theirs.drain()).toEqual([]);
  });
});

describe('user_group events', () => {
  it('reach everyone in the organization: add, add_members, update', async () => {
    const hamlet = await EventQueue.register(world.as('hamlet'), { event_types: ['user_group'] });
    const polonius = await EventQueue.register(world.as('polonius'), { event_types: ['user_group'] });
    const other = await newWorld();
    const outsider = await EventQueue.register(other.as('hamlet'), { event_types: ['user_group'] });
    const created = await world.as('iago').post('/user_groups/create', {
      name: 'event-watchers',
      description: 'Watching',
      members: [id('hamlet')],
    });
    expectSuccess(created, 'POST', '/user_groups/create');
    const groupId = created.body.group_id as number;
    expect(await hamlet.next()).toMatchObject({
      op: 'add',
      group: { id: groupId, name: 'event-watchers', members: [id('hamlet')], direct_subgroup_ids: [] },
    });
    await polonius.next((e) => e.op === 'add');
    await world.as('iago').post(`/user_groups/${groupId}/members`, { add: [id('othello')] });
    expect(await hamlet.next((e) => e.op === 'add_members')).toMatchObject({
      group_id: groupId,
      user_ids: [id('othello')],
    });
    await world.as('iago').patch(`/user_groups/${groupId}`, { description: 'Still watching' });
    expect(await hamlet.next((e) => e.op === 'update')).toMatchObject({
      group_id: groupId,
      data: { description: 'Still watching' },
    });
    expect(await outsider.drain()).toEqual([]);
  });
});

describe('events whose producers are not in this build (published as their owner would)', () => {
  const realm = () => world.realm.realm_id;

  it('reaction add goes to the users who can see the message', async () => {
    const hamlet = await EventQueue.register(world.as('hamlet'), { event_types: ['reaction'] });
    const iago = await EventQueue.register(world.as('iago'), { event_types: ['reaction'] });
    const eventId = await publishEvent(
      contracts.reactionAdded,
      {
        message_id: 99,
        user_id: id('othello'),
        emoji_name: 'tada',
        emoji_code: '1f389',
        reaction_type: 'unicode_emoji',
        user_ids: [id('hamlet'), id('othello')],
      },
      realm(),
    );
    expect(await hamlet.next()).toMatchObject({
      type: 'reaction',
      op: 'add',
      message_id: 99,
      user_id: id('othello'),
      emoji_name: 'tada',
      emoji_code: '1f389',
      reaction_type: 'unicode_emoji',
    });
    await handledByEvents(eventId);
    expect(await iago.drain()).toEqual([]);
  });

  it('typing reaches the listed users; channel typing only clients that support it', async () => {
    const modern = await EventQueue.register(world.as('hamlet'), {
      event_types: ['typing'],
      client_capabilities: { stream_typing_notifications: true },
    });
    const legacy = await EventQueue.register(world.as('hamlet'), { event_types: ['typing'] });
    const iago = await EventQueue.register(world.as('iago'), { event_types: ['typing'] });
    const sender = { user_id: id('othello'), email: world.user('othello').email };
    const direct = await publishEvent(
      contracts.typingStarted,
      {
        sender,
        message_type: 'direct',
        recipients: [sender, { user_id: id('hamlet'), email: world.user('hamlet').email }],
        user_ids: [id('hamlet')],
      },
      realm(),
    );
    await handledByEvents(direct);
    const channel = await publishEvent(
      contracts.typingStopped,
      { sender, message_type: 'stream', stream_id: 5, topic: '', user_ids: [id('hamlet')] },
      realm(),
    );
    await handledByEvents(channel);
    expect(await modern.drain()).toEqual([
      expect.objectContaining({ op: 'start', message_type: 'direct', sender }),
      expect.objectContaining({ op: 'stop', message_type: 'stream', stream_id: 5, topic: 'general chat' }),
    ]);
    expect((await legacy.drain()).map((e) => e.op)).toEqual(['start']);
    expect(await iago.drain()).toEqual([]);
  });

  it('typing_edit_message, user_topic, update_message_flags, attachment and has_meetingprovider_token', async () => {
    const queue = await EventQueue.register(world.as('hamlet'), {
      client_capabilities: { empty_topic_name: true },
      event_types: [
        'typing_edit_message',
        'user_topic',
        'update_message_flags',
        'attachment',
        'has_meetingprovider_token',
      ],
    });
    const other = await EventQueue.register(world.as('othello'));
    const me = id('hamlet');
    const published = [
      await publishEvent(
        contracts.typingEditMessageStarted,
        {
          sender_id: id('othello'),
          message_id: 7,
          recipient: { type: 'direct', user_ids: [me, id('othello')] },
          user_ids: [me],
        },
        realm(),
      ),
      await publishEvent(
        contracts.userTopicChanged,
        { user_id: me, stream_id: 3, topic_name: '', last_updated: 1700000000, visibility_policy: 1 },
        realm(),
      ),
      await publishEvent(
        contracts.messageFlagsChanged,
        { user_id: me, op: 'add', flag: 'starred', messages: [7] },
        realm(),
      ),
      await publishEvent(contracts.attachmentRemoved, { user_id: me, attachment_id: 4, upload_space_used: 0 }, realm()),
      await publishEvent(
        contracts.meetingProviderTokenChanged,
        { user_id: me, realm_id: realm(), has_token: true },
        realm(),
      ),
    ];
    for (const eventId of published) await handledByEvents(eventId);
    const events = await queue.drain();
    expect(events.map((e) => e.type).sort()).toEqual(
      ['attachment', 'has_meetingprovider_token', 'typing_edit_message', 'update_message_flags', 'user_topic'].sort(),
    );
    expect(events.find((e) => e.type === 'user_topic')).toMatchObject({ topic_name: '', visibility_policy: 1 });
    expect(events.find((e) => e.type === 'update_message_flags')).toMatchObject({
      op: 'add',
      operation: 'add',
      flag: 'starred',
      messages: [7],
      all: false,
    });
    expect(events.find((e) => e.type === 'attachment')).toMatchObject({ op: 'remove', attachment: { id: 4 } });
    expect(events.find((e) => e.type === 'has_meetingprovider_token')).toMatchObject({ value: true });
    expect(await other.drain()).toEqual([]);
  });

  it('drafts, scheduled_messages and saved_snippets reach the owner only', async () => {
    const mine = await EventQueue.register(world.as('cordelia'), {
      event_types: ['drafts', 'scheduled_messages', 'saved_snippets'],
    });
    const theirs = await EventQueue.register(world.as('hamlet'), {
      event_types: ['drafts', 'scheduled_messages', 'saved_snippets'],
    });
    const me = id('cordelia');
    const draft = {
      id: 17,
      type: 'private' as const,
      to: [id('hamlet')],
      topic: '',
      content: 'Hello there!',
      timestamp: 1595479020,
    };
    const scheduled = {
      scheduled_message_id: 17,
      type: 'private' as const,
      to: [id('hamlet')],
      content: 'Hello there!',
      rendered_content: '<p>Hello there!</p>',
      scheduled_delivery_timestamp: 1900000000,
      failed: false,
    };
    const snippet = { id: 1, title: 'Example', content: 'Welcome to the organization.', date_created: 1681662420 };
    const published = [
      await publishEvent(contracts.draftsAdded, { user_id: me, drafts: [draft] }, realm()),
      await publishEvent(contracts.draftUpdated, { user_id: me, draft: { ...draft, content: 'Edited' } }, realm()),
      await publishEvent(contracts.draftRemoved, { user_id: me, draft_id: 17 }, realm()),
      await publishEvent(contracts.scheduledMessagesAdded, { user_id: me, scheduled_messages: [scheduled] }, realm()),
      await publishEvent(contracts.scheduledMessageUpdated, { user_id: me, scheduled_message: scheduled }, realm()),
      await publishEvent(contracts.scheduledMessageRemoved, { user_id: me, scheduled_message_id: 17 }, realm()),
      await publishEvent(
        contracts.scheduledMessagesDelivered,
        { user_id: me, scheduled_message_ids: [18, 19] },
        realm(),
      ),
      await publishEvent(contracts.savedSnippetAdded, { user_id: me, saved_snippet: snippet }, realm()),
      await publishEvent(contracts.savedSnippetUpdated, { user_id: me, saved_snippet: snippet }, realm()),
      await publishEvent(contracts.savedSnippetRemoved, { user_id: me, saved_snippet_id: 1 }, realm()),
    ];
    for (const eventId of published) await handledByEvents(eventId);
    const events = await mine.drain();
    expect(events.map((e) => `${e.type}/${e.op}`)).toEqual([
      'drafts/add',
      'drafts/update',
      'drafts/remove',
      'scheduled_messages/add',
      'scheduled_messages/update',
      'scheduled_messages/remove',
      'scheduled_messages/remove',
      'scheduled_messages/remove',
      'saved_snippets/add',
      'saved_snippets/update',
      'saved_snippets/remove',
    ]);
    expect(events[1]).toMatchObject({ draft: { id: 17, content: 'Edited' } });
    expect(events[5]).toMatchObject({ scheduled_message_id: 17 });
    expect([events[6], events[7]]).toMatchObject([{ scheduled_message_id: 18 }, { scheduled_message_id: 19 }]);
    expect(await theirs.drain()).toEqual([]);
  });

  it('push_device reaches the device owner, push_account_id as a string', async () => {
    const mine = await EventQueue.register(world.as('prospero'), { event_types: ['push_device'] });
    const theirs = await EventQueue.register(world.as('hamlet'), { event_types: ['push_device'] });
    const eventId = await publishEvent(
      contracts.pushDeviceUpdated,
      {
        user_id: id('prospero'),
        realm_id: realm(),
        device_id: 3,
        push_account_id: 1234,
        status: 'failed',
        error_code: 'INVALID_BOUNCER_PUBLIC_KEY',
      },
      realm(),
    );
    await handledByEvents(eventId);
    expect(await mine.drain()).toEqual([
      expect.objectContaining({
        type: 'push_device',
        push_account_id: '1234',
        status: 'failed',
        error_code: 'INVALID_BOUNCER_PUBLIC_KEY',
      }),
    ]);
    expect(await theirs.drain()).toEqual([]);
  });

  it('delete_message: bulk for clients that support it, one per message otherwise', async () => {
    const bulk = await EventQueue.register(world.as('hamlet'), {
      event_types: ['delete_message'],
      client_capabilities: { bulk_message_deletion: true },
    });
    const single = await EventQueue.register(world.as('hamlet'), { event_types: ['delete_message'] });
    const eventId = await publishEvent(
      contracts.messageDeleted,
      { message_ids: [11, 12], message_type: 'stream', stream_id: 2, topic: 'lunch', user_ids: [id('hamlet')] },
      realm(),
    );
    await handledByEvents(eventId);
    expect(await bulk.drain()).toEqual([
      expect.objectContaining({ message_ids: [11, 12], message_type: 'stream', stream_id: 2, topic: 'lunch' }),
    ]);
    expect((await single.drain()).map((e) => e.message_id)).toEqual([11, 12]);
  });

  it('a redelivered event is delivered once', async () => {
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['update_message_flags'] });
    const payload = { user_id: id('hamlet'), op: 'add' as const, flag: 'starred', messages: [1] };
    const eventId = await publishEvent(contracts.messageFlagsChanged, payload, realm());
    await handledByEvents(eventId);
    // The same envelope again, as the broker would redeliver it after a crash.
    const connection = await connect(system().amqpUrl);
    const channel = await connection.createConfirmChannel();
    const envelope = {
      event_id: eventId,
      type: contracts.messageFlagsChanged.type,
      occurred_at: new Date().toISOString(),
      realm_id: realm(),
      request_id: null,
      payload,
    };
    await new Promise<void>((resolve, reject) =>
      channel.publish(system().exchange, envelope.type, Buffer.from(JSON.stringify(envelope)), {}, (err) =>
        err ? reject(err as Error) : resolve(),
      ),
    );
    await connection.close();
    const marker = await publishEvent(contracts.messageFlagsChanged, { ...payload, messages: [2] }, realm());
    await handledByEvents(marker);
    expect((await queue.drain()).map((e) => e.messages)).toEqual([[1], [2]]);
  });
});
