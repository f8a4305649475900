import {
  DEFAULT_NOTIFICATION_SETTINGS,
  emailTrigger,
  notificationSettingsFrom,
  pushCandidates,
  pushTrigger,
  VISIBILITY_FOLLOWED,
  VISIBILITY_MUTED,
  VISIBILITY_UNMUTED,
  type NotificationSettings,
  type Receiver,
} from '../src/domain/notification-rules';
import { channelMessage, SENDER } from './fixtures';
import { messagePayload, pushContent, realmUrlOf, removePayload } from '../src/domain/notification-payloads';

const USER = 2;
const dm = { senderId: SENDER, isPrivate: true };
const channel = { senderId: SENDER, isPrivate: false };

function receiver(
  over: Omit<Partial<Receiver>, 'settings'> & { settings?: Partial<NotificationSettings> } = {},
): Receiver {
  return {
    userId: USER,
    flags: [],
    isBot: false,
    subscription: null,
    topicPolicy: 0,
    ...over,
    settings: { ...DEFAULT_NOTIFICATION_SETTINGS, ...over.settings },
  };
}

describe('pushTrigger (Zulip get_push_notification_trigger)', () => {
  it('notifies an away user of a direct message, unless offline push is off', () => {
    expect(pushTrigger(dm, receiver(), true)).toBe('private_message');
    expect(pushTrigger(dm, receiver({ settings: { enable_offline_push_notifications: false } }), true)).toBeNull();
  });

  it('never notifies the sender, a bot, or someone for whom it arrived read (a muted sender)', () => {
    expect(pushTrigger(dm, receiver({ userId: SENDER }), true)).toBeNull();
    expect(pushTrigger(dm, receiver({ isBot: true }), true)).toBeNull();
    expect(pushTrigger(dm, receiver({ flags: ['read'] }), true)).toBeNull();
  });

  it('notifies a present user only with enable_online_push_notifications', () => {
    expect(pushTrigger(dm, receiver(), false)).toBe('private_message');
    expect(pushTrigger(dm, receiver({ settings: { enable_online_push_notifications: false } }), false)).toBeNull();
    expect(pushTrigger(dm, receiver({ settings: { enable_online_push_notifications: false } }), true)).toBe(
      'private_message',
    );
  });

  it('notifies personal and group mentions and alert words, even in a muted topic or channel', () => {
    expect(pushTrigger(channel, receiver({ flags: ['mentioned'] }), true)).toBe('mentioned');
    expect(pushTrigger(channel, receiver({ flags: ['has_alert_word'] }), true)).toBe('mentioned');
    expect(pushTrigger(channel, receiver({ flags: ['mentioned'], topicPolicy: VISIBILITY_MUTED }), true)).toBe(
      'mentioned',
    );
    const muted = { push: null, email: null, wildcard: null, muted: true };
    expect(pushTrigger(channel, receiver({ flags: ['mentioned'], subscription: muted }), true)).toBe('mentioned');
    expect(
      pushTrigger(
        channel,
        receiver({ flags: ['mentioned'], settings: { enable_offline_push_notifications: false } }),
        true,
      ),
    ).toBeNull();
  });

  it('notifies wildcard mentions per the subscription, else the user setting, and not in a muted topic', () => {
    const flags = ['stream_wildcard_mentioned', 'wildcard_mentioned'];
    expect(pushTrigger(channel, receiver({ flags }), true)).toBe('stream_wildcard_mentioned');
    expect(pushTrigger(channel, receiver({ flags, settings: { wildcard_mentions_notify: false } }), true)).toBeNull();
    const on = { push: null, email: null, wildcard: true, muted: false };
    expect(
      pushTrigger(channel, receiver({ flags, subscription: on, settings: { wildcard_mentions_notify: false } }), true),
    ).toBe('stream_wildcard_mentioned');
    expect(pushTrigger(channel, receiver({ flags, topicPolicy: VISIBILITY_MUTED }), true)).toBeNull();
    expect(pushTrigger(channel, receiver({ flags: ['topic_wildcard_mentioned'] }), true)).toBe(
      'topic_wildcard_mentioned',
    );
  });

  it('notifies wildcard mentions in a followed topic by the followed-topic setting', () => {
    const flags = ['topic_wildcard_mentioned'];
    const followed = { flags, topicPolicy: VISIBILITY_FOLLOWED };
    expect(pushTrigger(channel, receiver({ ...followed, settings: { wildcard_mentions_notify: false } }), true)).toBe(
      'topic_wildcard_mentioned_in_followed_topic',
    );
    expect(
      pushTrigger(
        channel,
        receiver({
          ...followed,
          settings: { wildcard_mentions_notify: false, enable_followed_topic_wildcard_mentions_notify: false },
        }),
        true,
      ),
    ).toBe('followed_topic_push_notify');
  });

  it('notifies in a followed topic unless the followed-topic push setting is off', () => {
    expect(pushTrigger(channel, receiver({ topicPolicy: VISIBILITY_FOLLOWED }), true)).toBe(
      'followed_topic_push_notify',
    );
    expect(
      pushTrigger(
        channel,
        receiver({ topicPolicy: VISIBILITY_FOLLOWED, settings: { enable_followed_topic_push_notifications: false } }),
        true,
      ),
    ).toBeNull();
  });

  it("notifies channel messages by the subscription's push setting, else the user's default", () => {
    expect(pushTrigger(channel, receiver(), true)).toBeNull();
    expect(pushTrigger(channel, receiver({ settings: { enable_stream_push_notifications: true } }), true)).toBe(
      'stream_push_notify',
    );
    const on = { push: true, email: null, wildcard: null, muted: false };
    const off = { push: false, email: null, wildcard: null, muted: false };
    expect(pushTrigger(channel, receiver({ subscription: on }), true)).toBe('stream_push_notify');
    expect(
      pushTrigger(channel, receiver({ subscription: off, settings: { enable_stream_push_notifications: true } }), true),
    ).toBeNull();
  });

  it('does not notify channel push in a muted topic, nor in a muted channel unless the topic is unmuted', () => {
    const on = { push: true, email: null, wildcard: null, muted: false };
    const mutedOn = { push: true, email: null, wildcard: null, muted: true };
    expect(pushTrigger(channel, receiver({ subscription: on, topicPolicy: VISIBILITY_MUTED }), true)).toBeNull();
    expect(pushTrigger(channel, receiver({ subscription: mutedOn }), true)).toBeNull();
    expect(pushTrigger(channel, receiver({ subscription: mutedOn, topicPolicy: VISIBILITY_UNMUTED }), true)).toBe(
      'stream_push_notify',
    );
  });
});

describe('emailTrigger', () => {
  it('is for away users only, by the email settings', () => {
    expect(emailTrigger(dm, receiver(), false)).toBeNull();
    expect(emailTrigger(dm, receiver(), true)).toBe('private_message');
    expect(emailTrigger(dm, receiver({ settings: { enable_offline_email_notifications: false } }), true)).toBeNull();
    const on = { push: null, email: true, wildcard: null, muted: false };
    expect(emailTrigger(channel, receiver({ subscription: on }), true)).toBe('stream_email_notify');
    expect(emailTrigger(channel, receiver({ topicPolicy: VISIBILITY_FOLLOWED }), true)).toBe(
      'followed_topic_email_notify',
    );
  });
});

describe('pushCandidates', () => {
  const record = channelMessage;

  it('takes the flags, bots, subscriptions and topic policies of the event, and each user’s settings', () => {
    const candidates = pushCandidates(
      {
        message: record,
        user_ids: [SENDER, 2, 3, 4, 5, 6],
        flags: { '2': ['mentioned'], '3': ['mentioned'], '1': ['read'] },
        notify: {
          bot_ids: [3],
          subscriptions: { '4': { push: true, email: null, wildcard: null, muted: false } },
          topic_policies: { '5': VISIBILITY_FOLLOWED, '4': VISIBILITY_MUTED },
        },
      },
      (id) => ({ ...DEFAULT_NOTIFICATION_SETTINGS, enable_online_push_notifications: id !== 2 }),
    );
    expect(candidates).toEqual([
      { userId: 2, trigger: 'mentioned', evenIfPresent: false },
      { userId: 5, trigger: 'followed_topic_push_notify', evenIfPresent: true },
    ]);
  });

  it('reads the notification settings of a user_settings.changed payload', () => {
    const settings = notificationSettingsFrom({ enable_stream_push_notifications: true, color_scheme: 1 });
    expect(settings.enable_stream_push_notifications).toBe(true);
    expect(settings.enable_offline_push_notifications).toBe(true);
  });

  it('builds the payloads the Flutter app parses', () => {
    const who = { realmUrl: realmUrlOf('zulip', 'http://example.com:9991'), realmName: null, userId: 2 };
    expect(who.realmUrl).toBe('http://zulip.example.com:9991');
    const payload = messagePayload(who, record);
    expect(payload).toMatchObject({
      type: 'message',
      realm_url: 'http://zulip.example.com:9991',
      user_id: 2,
      sender_id: SENDER,
      sender_full_name: 'Sender',
      message_id: 10,
      time: 1_700_000_000,
      content: 'hi',
      recipient_type: 'channel',
      channel_id: 7,
      channel_name: 'general',
      topic: 'lunch',
    });
    expect(String(payload.sender_avatar_url)).toMatch(/^https:\/\//);
    const direct = messagePayload(who, {
      ...record,
      type: 'private',
      stream_id: undefined,
      display_recipient: [
        { id: 1, email: 'a', full_name: 'A', is_mirror_dummy: false },
        { id: 2, email: 'b', full_name: 'B', is_mirror_dummy: false },
      ],
    });
    expect(direct).toMatchObject({ recipient_type: 'direct', recipient_user_ids: [1, 2] });
    expect(direct).not.toHaveProperty('channel_id');
    expect(removePayload(who, [12, 10])).toMatchObject({ type: 'remove', user_id: 2, message_ids: [10, 12] });
  });

  it('writes the content as plain text of at most 200 characters', () => {
    expect(pushContent('<p>a &amp; b<br>c</p><p><img src="x"></p>')).toBe('a & b\nc\n(image)');
    const long = pushContent(`<p>${'x'.repeat(300)}</p>`);
    expect([...long]).toHaveLength(200);
    expect(long.endsWith('…')).toBe(true);
  });
});
