import type { contracts } from '@confab/events';
import { messageDeleted, messageSent, typingChanged } from '../src/events/messages';
import type { ClientEvent } from '@confab/zulip';
import { ctx, queue } from './queue-fixtures';

/** The message of a message event. */
function messageOf(event: ClientEvent | undefined) {
  if (event?.type !== 'message') throw new Error(`not a message event: ${JSON.stringify(event)}`);
  return event.message;
}

const message: contracts.MessageRecord = {
  id: 10,
  type: 'stream',
  sender_id: 1,
  sender_email: 'hamlet@zulip.com',
  sender_full_name: 'King Hamlet',
  sender_realm_str: 'zulip',
  recipient_id: 3,
  stream_id: 4,
  display_recipient: 'Denmark',
  subject: '',
  topic_links: [],
  content: '**hi**',
  rendered_content: '<p><strong>hi</strong></p>',
  timestamp: 1700000000,
  client: 'test',
  is_me_message: false,
  reactions: [],
  submessages: [],
};

const sent = {
  message,
  user_ids: [1, 2],
  flags: { '1': ['read'] },
  stream: { name: 'Denmark', invite_only: false, is_web_public: false },
  local_id: '7.01',
  sender_queue_id: 'sender-queue',
};

describe('message events per queue', () => {
  it('shapes content, avatar and the empty topic per client, with the user’s flags', () => {
    const [recipients] = messageSent(sent, 1).slice(-1);
    const [plain] = recipients!.build(ctx(queue()));
    expect(plain).toMatchObject({
      type: 'message',
      flags: [],
      message: { content: '**hi**', content_type: 'text/x-markdown', avatar_url: null, subject: 'general chat' },
    });
    expect(messageOf(plain)).not.toHaveProperty('rendered_content');
    const [html] = recipients!.build(
      ctx(queue({ applyMarkdown: true, clientGravatar: false }, { empty_topic_name: true })),
    );
    expect(messageOf(html)).toMatchObject({
      content: '<p><strong>hi</strong></p>',
      content_type: 'text/html',
      subject: '',
      avatar_url: expect.stringContaining('https://secure.gravatar.com/avatar/'),
    });
    expect(recipients!.build(ctx(queue({ userId: 1 })))[0]).toMatchObject({ flags: ['read'] });
  });

  it('adds local_message_id only for the queue named when sending', () => {
    const recipients = messageSent(sent, 1).slice(-1)[0]!;
    expect(recipients.build(ctx(queue({ userId: 1 }), 'sender-queue'))[0]).toMatchObject({ local_message_id: '7.01' });
    expect(recipients.build(ctx(queue({ userId: 1 }), 'other-queue'))[0]).not.toHaveProperty('local_message_id');
  });

  it('filters by event_types and narrow, and sends public messages to all-public-streams queues without flags', () => {
    const deliveries = messageSent(sent, 1);
    expect(deliveries).toHaveLength(2);
    const [allPublic, recipients] = deliveries;
    expect(recipients!.build(ctx(queue({ eventTypes: ['reaction'] })))).toEqual([]);
    expect(recipients!.build(ctx(queue({ narrow: [['is', 'dm']] })))).toEqual([]);
    expect(allPublic!.publicStreamsRealm).toBe(1);
    expect(allPublic!.build(ctx(queue({ userId: 9, allPublicStreams: true })))[0]).toMatchObject({ flags: [] });
    // A recipient's queue is served by the recipients' delivery (with flags), not twice.
    expect(allPublic!.build(ctx(queue({ userId: 2, allPublicStreams: true })))).toEqual([]);
    expect(messageSent({ ...sent, stream: { ...sent.stream, invite_only: true } }, 1)).toHaveLength(1);
  });
});

describe('delete_message and typing per queue', () => {
  it('sends one bulk event or one event per message', () => {
    const [delivery] = messageDeleted({ message_ids: [1, 2], message_type: 'private', user_ids: [2] });
    expect(delivery!.build(ctx(queue({}, { bulk_message_deletion: true })))).toEqual([
      { type: 'delete_message', message_type: 'private', message_ids: [1, 2] },
    ]);
    expect(delivery!.build(ctx(queue()))).toEqual([
      { type: 'delete_message', message_type: 'private', message_id: 1 },
      { type: 'delete_message', message_type: 'private', message_id: 2 },
    ]);
  });

  it('sends channel typing only to clients with stream_typing_notifications', () => {
    const sender = { user_id: 1, email: 'hamlet@zulip.com' };
    const [delivery] = typingChanged(
      { sender, message_type: 'stream', stream_id: 4, topic: 't', user_ids: [2] },
      'start',
    );
    expect(delivery!.build(ctx(queue()))).toEqual([]);
    expect(delivery!.build(ctx(queue({}, { stream_typing_notifications: true })))).toEqual([
      { type: 'typing', op: 'start', message_type: 'stream', sender, stream_id: 4, topic: 't' },
    ]);
  });
});

describe('drafts, scheduled messages and saved snippets', () => {
  it('go to the owner in Zulip’s shapes, the empty topic named for clients without empty_topic_name', async () => {
    const personal = await import('../src/events/personal.js');
    const draft = { id: 3, type: 'stream' as const, to: [4], topic: 't', content: 'c', timestamp: 1 };
    const [added] = personal.draftsAdded({ user_id: 2, drafts: [draft] });
    expect(added!.users).toEqual([2]);
    expect(added!.build(ctx(queue()))).toEqual([{ type: 'drafts', op: 'add', drafts: [draft] }]);
    expect(added!.build(ctx(queue({ eventTypes: ['message'] })))).toEqual([]);
    const scheduled = {
      scheduled_message_id: 9,
      type: 'stream' as const,
      to: 4,
      topic: '',
      content: 'later',
      rendered_content: '<p>later</p>',
      scheduled_delivery_timestamp: 1900000000,
      failed: false,
    };
    const [updated] = personal.scheduledMessageUpdated({ user_id: 2, scheduled_message: scheduled });
    expect(updated!.build(ctx(queue()))[0]).toMatchObject({
      type: 'scheduled_messages',
      op: 'update',
      scheduled_message: { topic: 'general chat' },
    });
    const [removed] = personal.savedSnippetRemoved({ user_id: 2, saved_snippet_id: 5 });
    expect(removed!.build(ctx(queue()))).toEqual([{ type: 'saved_snippets', op: 'remove', saved_snippet_id: 5 }]);
  });
});
