import type { contracts } from '@confab/events';
import { missedMessageEmails, type MissedMessage } from '../src/domain/missed-message-email';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  emailCandidates,
  VISIBILITY_FOLLOWED,
  VISIBILITY_MUTED,
} from '../src/domain/notification-rules';

const ME = { userId: 2, fullName: 'Othello', deliveryEmail: 'othello@example.test' };
const REALM = { name: 'Venice', url: 'https://venice.confab.test' };

let nextId = 100;
function message(over: Partial<contracts.MessageRecord> = {}): contracts.MessageRecord {
  return {
    id: nextId++,
    type: 'private',
    sender_id: 1,
    sender_email: 'iago@example.test',
    sender_full_name: 'Iago',
    sender_realm_str: 'venice',
    recipient_id: 9,
    display_recipient: [
      { id: 1, email: 'iago@example.test', full_name: 'Iago', is_mirror_dummy: false },
      { id: 2, email: 'othello@example.test', full_name: 'Othello', is_mirror_dummy: false },
    ],
    subject: '',
    topic_links: [],
    content: 'Look to your wife',
    rendered_content: '<p>Look to your wife</p>',
    timestamp: 1_700_000_000,
    client: 'test',
    is_me_message: false,
    reactions: [],
    submessages: [],
    ...over,
  } as contracts.MessageRecord;
}

const inChannel = (over: Partial<contracts.MessageRecord> = {}) =>
  message({
    type: 'stream',
    stream_id: 7,
    display_recipient: 'Cyprus',
    subject: 'the fleet',
    recipient_id: 30,
    ...over,
  });

describe('missed-message emails (Zulip handle_missedmessage_emails)', () => {
  it('sends one email per conversation, quoting each message, with links to the web client', () => {
    const missed: MissedMessage[] = [
      { message: message({ content: 'Line one\nLine two' }), trigger: 'private_message' },
      {
        message: inChannel({
          content: '@**Othello** see [map.png](/user_uploads/1/map.png)',
          rendered_content:
            '<p><a href="/user_uploads/1/map.png">the map</a> <a href="#narrow/channel/7-Cyprus">#Cyprus</a></p>',
        }),
        trigger: 'mentioned',
      },
      { message: message({ content: 'And again' }), trigger: 'private_message' },
    ];
    const [channel, dm] = missedMessageEmails(ME, REALM, DEFAULT_NOTIFICATION_SETTINGS, missed);
    // Least recently active conversation first: the DM's last message is the newest.
    expect(channel!.subject).toBe('#Cyprus > the fleet');
    expect(channel!.text).toContain('#Cyprus > the fleet');
    expect(channel!.text).toContain('Iago:\n> @**Othello** see https://venice.confab.test/user_uploads/1/map.png');
    expect(channel!.text).toContain('https://venice.confab.test/#narrow/channel/7-Cyprus/topic/the.20fleet/near/');
    expect(channel!.text).toContain('because you were mentioned');
    expect(channel!.html).toContain('href="https://venice.confab.test/user_uploads/1/map.png"');
    expect(channel!.html).toContain('href="https://venice.confab.test/#narrow/channel/7-Cyprus"');
    expect(dm).toMatchObject({
      to: 'othello@example.test',
      subject: 'DMs with Iago',
      fromName: 'Confab notifications',
    });
    expect(dm!.messageIds).toHaveLength(2);
    expect(dm!.text).toContain('> Line one\n> Line two');
    expect(dm!.text).toContain('> And again');
    expect(dm!.text).toContain(`https://venice.confab.test/#narrow/dm/1-Iago/near/${missed[0]!.message.id}`);
    expect(dm!.text).toContain('Manage email preferences:\nhttps://venice.confab.test/#settings/notifications');
  });

  it('names a group DM by its other members, and a resolved topic as Zulip does', () => {
    const group = message({
      recipient_id: 50,
      display_recipient: [
        { id: 1, email: 'a@x', full_name: 'Iago', is_mirror_dummy: false },
        { id: 2, email: 'b@x', full_name: 'Othello', is_mirror_dummy: false },
        { id: 3, email: 'c@x', full_name: 'Emilia', is_mirror_dummy: false },
      ] as contracts.MessageRecord['display_recipient'],
    });
    const resolved = inChannel({ subject: '✔ the fleet' });
    const [g, r] = missedMessageEmails(ME, REALM, DEFAULT_NOTIFICATION_SETTINGS, [
      { message: group, trigger: 'private_message' },
      { message: resolved, trigger: 'stream_email_notify' },
    ]);
    expect(g!.subject).toBe('Group DMs with Iago and Emilia');
    expect(g!.text).toContain('https://venice.confab.test/#narrow/dm/1,3-group/near/');
    expect(r!.subject).toBe('[resolved] #Cyprus > the fleet');
    expect(r!.text).toContain('email notifications enabled for #Cyprus');
  });

  it('leaves message content out when the user turned it off, and names the organization when asked to', () => {
    const [mail] = missedMessageEmails(
      ME,
      REALM,
      {
        ...DEFAULT_NOTIFICATION_SETTINGS,
        message_content_in_email_notifications: false,
        realm_name_in_email_notifications_policy: 2,
      },
      [{ message: message({ content: 'secret plans' }), trigger: 'private_message' }],
    );
    expect(mail!.subject).toBe('New messages [Venice]');
    expect(mail!.text).not.toContain('secret plans');
    expect(mail!.html).not.toContain('secret plans');
    expect(mail!.text).toContain('does not include message content');
  });

  it('sends nothing for no messages', () => {
    expect(missedMessageEmails(ME, REALM, DEFAULT_NOTIFICATION_SETTINGS, [])).toEqual([]);
  });
});

describe('emailCandidates (Zulip get_email_notification_trigger)', () => {
  const event = (over: Record<string, unknown> = {}) => ({
    message: inChannel(),
    user_ids: [1, 2, 3, 4],
    flags: {} as Record<string, string[]>,
    notify: { bot_ids: [4], subscriptions: {}, topic_policies: {} as Record<string, number> },
    ...over,
  });

  it('emails DMs and mentions, followed topics and channels with email on; never the sender or a bot', () => {
    const settings = () => DEFAULT_NOTIFICATION_SETTINGS;
    expect(emailCandidates({ ...event(), message: message(), user_ids: [1, 2] }, settings)).toEqual([
      { userId: 2, trigger: 'private_message' },
    ]);
    expect(emailCandidates(event({ flags: { '2': ['mentioned'], '4': ['mentioned'] } }), settings)).toEqual([
      { userId: 2, trigger: 'mentioned' },
    ]);
    const followed = event({
      notify: { bot_ids: [], subscriptions: {}, topic_policies: { '3': VISIBILITY_FOLLOWED } },
    });
    expect(emailCandidates(followed, settings)).toEqual([{ userId: 3, trigger: 'followed_topic_email_notify' }]);
    const emailOn = event({
      notify: {
        bot_ids: [],
        subscriptions: { '2': { push: null, email: true, wildcard: null, muted: false } },
        topic_policies: {},
      },
    });
    expect(emailCandidates(emailOn, settings)).toEqual([{ userId: 2, trigger: 'stream_email_notify' }]);
  });

  it('honours the email settings: offline email off, channel email by default, a muted topic', () => {
    const mention = event({ flags: { '2': ['mentioned'] } });
    expect(
      emailCandidates(mention, () => ({ ...DEFAULT_NOTIFICATION_SETTINGS, enable_offline_email_notifications: false })),
    ).toEqual([]);
    expect(
      emailCandidates(event(), () => ({ ...DEFAULT_NOTIFICATION_SETTINGS, enable_stream_email_notifications: true })),
    ).toEqual([
      { userId: 2, trigger: 'stream_email_notify' },
      { userId: 3, trigger: 'stream_email_notify' },
    ]);
    const muted = event({ notify: { bot_ids: [4], subscriptions: {}, topic_policies: { '2': VISIBILITY_MUTED } } });
    expect(
      emailCandidates(muted, () => ({ ...DEFAULT_NOTIFICATION_SETTINGS, enable_stream_email_notifications: true })),
    ).toEqual([{ userId: 3, trigger: 'stream_email_notify' }]);
  });
});
