import type { contracts, PayloadOf } from '@confab/events';
import { channelMessage, SENDER } from './fixtures';
import { emailMessageEdited, type EmailContext } from '../src/domain/email-notifications';
import { messageEdited, type NotificationContext } from '../src/domain/message-notifications';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  editAsSent,
  emailCandidates,
  notifiedOfChannel,
  pushCandidates,
  VISIBILITY_FOLLOWED,
  type NotificationSettings,
} from '../src/domain/notification-rules';

/**
 * Notifications of an edit (Zulip's process_message_update_event and maybe_enqueue_notifications_for_message_update):
 * who a content edit newly notifies, and what the push service records and queues for it.
 */

const message = channelMessage;

type Updated = PayloadOf<typeof contracts.messageUpdated>;

function edit(over: Partial<Updated> & { prior?: number[]; facts?: contracts.MessageNotifyFacts } = {}): Updated {
  const { prior = [], facts = { bot_ids: [], subscriptions: {}, topic_policies: {} }, ...rest } = over;
  return {
    user_id: SENDER,
    edit_timestamp: 1_700_000_100,
    message_id: message.id,
    message_ids: [message.id],
    rendering_only: false,
    flags: {},
    content: message.content,
    rendered_content: message.rendered_content,
    notify: { message, prior_mention_user_ids: prior, facts },
    ...rest,
  };
}

type SettingsOf = (userId: number) => NotificationSettings;
const defaults: SettingsOf = () => DEFAULT_NOTIFICATION_SETTINGS;
const pushOf = (payload: Updated, settings: SettingsOf = defaults) => {
  const sent = editAsSent(payload);
  return sent ? pushCandidates(sent, settings, notifiedOfChannel) : [];
};
const emailOf = (payload: Updated, settings: SettingsOf = defaults) => {
  const sent = editAsSent(payload);
  return sent ? emailCandidates(sent, settings, notifiedOfChannel) : [];
};

describe('who a content edit newly notifies', () => {
  it('notifies those it newly mentions: personal, group, wildcard mentions and alert words', () => {
    const payload = edit({
      flags: {
        '1': ['read'],
        '2': ['mentioned'],
        '3': ['group_mentioned', 'mentioned'],
        '4': ['has_alert_word'],
        '5': ['topic_wildcard_mentioned', 'wildcard_mentioned'],
        '6': [],
      },
    });
    expect(pushOf(payload)).toEqual([
      { userId: 2, trigger: 'mentioned', evenIfPresent: true },
      { userId: 3, trigger: 'mentioned', evenIfPresent: true },
      { userId: 4, trigger: 'mentioned', evenIfPresent: true },
      { userId: 5, trigger: 'topic_wildcard_mentioned', evenIfPresent: true },
    ]);
    expect(emailOf(payload).map((c) => c.userId)).toEqual([2, 3, 4, 5]);
  });

  it('never those mentioned before the edit (prior_mention_user_ids), nor someone who read it or muted the sender', () => {
    const payload = edit({ flags: { '2': ['mentioned'], '3': ['mentioned', 'read'] }, prior: [2] });
    expect(pushOf(payload)).toEqual([]);
    expect(emailOf(payload)).toEqual([]);
  });

  it('never for a direct message, a rendering update, an edit of the topic only, or an event without notify', () => {
    const flags = { '2': ['mentioned'] };
    expect(pushOf(edit({ flags, notify: { ...edit().notify!, message: { ...message, type: 'private' } } }))).toEqual(
      [],
    );
    expect(pushOf(edit({ flags, rendering_only: true }))).toEqual([]);
    expect(pushOf(edit({ flags, notify: undefined }))).toEqual([]);
  });

  it('never someone the channel or a followed topic notifies (Zulip assumes they were notified when it was sent)', () => {
    const flags = { '2': ['mentioned'], '3': ['mentioned'], '4': ['mentioned'], '5': ['mentioned'] };
    const facts = {
      bot_ids: [5],
      subscriptions: { '2': { push: true, email: null, wildcard: null, muted: false } },
      topic_policies: { '3': VISIBILITY_FOLLOWED },
    };
    const settings = (id: number) => ({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      enable_stream_email_notifications: id === 4,
    });
    // 2: channel push on; 3: follows the topic; 4: channel email on by default; 5: a bot.
    expect(pushOf(edit({ flags, facts }), settings)).toEqual([]);
    expect(emailOf(edit({ flags, facts }), settings)).toEqual([]);
  });

  it('keeps the personal settings: offline push off notifies no phone, and a wildcard per wildcard_mentions_notify', () => {
    const flags = { '2': ['mentioned'], '3': ['stream_wildcard_mentioned', 'wildcard_mentioned'] };
    const settings = (id: number) => ({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      enable_offline_push_notifications: id !== 2,
      wildcard_mentions_notify: id !== 3,
    });
    expect(pushOf(edit({ flags }), settings)).toEqual([]);
    expect(emailOf(edit({ flags }), settings)).toEqual([{ userId: 2, trigger: 'mentioned' }]);
  });
});

describe('recording an edit', () => {
  const event = (payload: Updated) => ({ occurred_at: '2026-01-01T00:00:00.000Z', payload });
  const claim = { consumer: 'push.notifications', eventId: 'e-1' };
  const meta = { realmId: 3, requestId: 'r-1' };

  function pushContext(pending: boolean, relayConfigured = true) {
    const recordEdit = jest.fn(async () => pending);
    const scheduleMessage = jest.fn(async () => undefined);
    const ctx = {
      store: { settingsOf: async () => new Map(), recordEdit },
      scheduler: { scheduleMessage },
      relayConfigured,
    } as unknown as NotificationContext;
    return { ctx, recordEdit, scheduleMessage };
  }

  it('records the newly mentioned with the edited message, and queues a job of the edit’s own', async () => {
    const { ctx, recordEdit, scheduleMessage } = pushContext(true);
    await messageEdited(ctx, claim, event(edit({ flags: { '2': ['mentioned'] } })), meta);
    expect(recordEdit).toHaveBeenCalledWith(claim, { message, realmId: 3, editedAt: '2026-01-01T00:00:00.000Z' }, [
      { userId: 2, trigger: 'mentioned', evenIfPresent: true },
    ]);
    expect(scheduleMessage).toHaveBeenCalledWith(message.id, 'r-1', 'e-1');
  });

  it('keeps the edited message even when nobody is newly notified, and queues nothing then', async () => {
    const { ctx, recordEdit, scheduleMessage } = pushContext(false);
    await messageEdited(ctx, claim, event(edit({ flags: { '2': ['mentioned'] }, prior: [2] })), meta);
    expect(recordEdit).toHaveBeenCalledWith(claim, expect.objectContaining({ message }), []);
    expect(scheduleMessage).not.toHaveBeenCalled();
  });

  it('does nothing without a relay, or for an edit that did not change the content', async () => {
    const off = pushContext(true, false);
    await messageEdited(off.ctx, claim, event(edit({ flags: { '2': ['mentioned'] } })), meta);
    expect(off.recordEdit).not.toHaveBeenCalled();
    const topicOnly = pushContext(true);
    await messageEdited(topicOnly.ctx, claim, event(edit({ flags: { '2': ['mentioned'] }, notify: undefined })), meta);
    expect(topicOnly.recordEdit).not.toHaveBeenCalled();
  });

  it('records email candidates the same way and queues their decision', async () => {
    const recordEmailEdit = jest.fn(async () => true);
    const scheduleDecision = jest.fn(async () => undefined);
    const ctx = {
      store: { settingsOf: async () => new Map(), recordEmailEdit },
      scheduler: { scheduleDecision },
    } as unknown as EmailContext;
    await emailMessageEdited(
      ctx,
      { ...claim, consumer: 'push.email' },
      event(edit({ flags: { '4': ['has_alert_word'] } })),
      meta,
    );
    expect(recordEmailEdit).toHaveBeenCalledWith(expect.anything(), expect.objectContaining({ realmId: 3 }), [
      { userId: 4, trigger: 'mentioned' },
    ]);
    expect(scheduleDecision).toHaveBeenCalledWith(message.id, 'r-1', 'e-1');
  });
});
