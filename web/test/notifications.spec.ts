import { isMutedPlace, isShownUnread, notificationFor, titleCount } from '../src/notifications/rules';
import type { UnreadEntry } from '../src/store/model';
import { DEFAULT_SETTINGS, Policy, type UserSettings } from '../src/store/personal';

const ME = 1;
const dm = { type: 'private' as const, sender_id: 2 };
const channel = { type: 'stream' as const, sender_id: 2 };
const s = (patch: Partial<UserSettings> = {}): UserSettings => ({ ...DEFAULT_SETTINGS, ...patch });
const plain = { subscription: {}, policy: Policy.inherit };

describe('notification rules', () => {
  it('notifies with a sound for direct messages, mentions and alert words, as the settings say', () => {
    expect(notificationFor(dm, [], s(), { policy: 0 }, ME, false)).toEqual({ desktop: true, sound: true });
    expect(notificationFor(channel, ['mentioned'], s(), plain, ME, false)).toEqual({ desktop: true, sound: true });
    expect(notificationFor(channel, ['has_alert_word'], s(), plain, ME, false).desktop).toBe(true);
    expect(notificationFor(dm, [], s({ enable_desktop_notifications: false }), { policy: 0 }, ME, false)).toEqual({
      desktop: false,
      sound: true,
    });
    expect(notificationFor(dm, [], s({ notification_sound: 'none' }), { policy: 0 }, ME, false).sound).toBe(false);
    expect(notificationFor(channel, ['stream_wildcard_mentioned'], s(), plain, ME, false).desktop).toBe(true);
    expect(
      notificationFor(channel, ['stream_wildcard_mentioned'], s({ wildcard_mentions_notify: false }), plain, ME, false)
        .desktop,
    ).toBe(false);
  });

  it('never notifies for one’s own messages, muted senders or messages already read', () => {
    expect(notificationFor({ ...dm, sender_id: ME }, [], s(), { policy: 0 }, ME, false).desktop).toBe(false);
    expect(notificationFor(dm, [], s(), { policy: 0 }, ME, true).desktop).toBe(false);
    expect(notificationFor(dm, ['read'], s(), { policy: 0 }, ME, false).desktop).toBe(false);
  });

  it('notifies for followed topics, also in a muted channel, and for channels only when asked', () => {
    const followed = { subscription: {}, policy: Policy.followed };
    expect(notificationFor(channel, [], s(), followed, ME, false)).toEqual({ desktop: true, sound: true });
    expect(
      notificationFor(channel, [], s(), { subscription: { is_muted: true }, policy: Policy.followed }, ME, false)
        .desktop,
    ).toBe(true);
    expect(
      notificationFor(channel, [], s({ enable_followed_topic_desktop_notifications: false }), followed, ME, false)
        .desktop,
    ).toBe(false);
    expect(notificationFor(channel, [], s(), plain, ME, false).desktop).toBe(false);
    expect(
      notificationFor(channel, [], s({ enable_stream_desktop_notifications: true }), plain, ME, false).desktop,
    ).toBe(true);
    expect(
      notificationFor(channel, [], s(), { subscription: { desktop_notifications: true }, policy: 0 }, ME, false)
        .desktop,
    ).toBe(true);
    const mutedChannel = { subscription: { is_muted: true, desktop_notifications: true }, policy: 0 };
    expect(notificationFor(channel, [], s(), mutedChannel, ME, false).desktop).toBe(false);
    expect(
      notificationFor(
        channel,
        [],
        s({ enable_stream_desktop_notifications: true }),
        { subscription: {}, policy: Policy.muted },
        ME,
        false,
      ).desktop,
    ).toBe(false);
  });

  it('knows a muted place: a muted topic, or a muted channel unless the topic is unmuted or followed', () => {
    expect(isMutedPlace({ policy: Policy.muted })).toBe(true);
    expect(isMutedPlace({ subscription: { is_muted: true }, policy: Policy.inherit })).toBe(true);
    expect(isMutedPlace({ subscription: { is_muted: true }, policy: Policy.unmuted })).toBe(false);
    expect(isMutedPlace({ subscription: {}, policy: Policy.inherit })).toBe(false);
  });

  it('shows an unread channel message when its channel is subscribed and its place not muted', () => {
    expect(isShownUnread(null)).toBe(true);
    expect(isShownUnread({ subscription: {}, policy: Policy.inherit })).toBe(true);
    expect(isShownUnread({ subscription: {}, policy: Policy.muted })).toBe(false);
    expect(isShownUnread({ subscription: { is_muted: true }, policy: Policy.inherit })).toBe(false);
    expect(isShownUnread({ subscription: { is_muted: true }, policy: Policy.followed })).toBe(true);
    expect(isShownUnread({ policy: Policy.inherit })).toBe(false);
  });

  it('counts unread messages for the title as desktop_icon_count_display says, leaving muted places out', () => {
    const unread = new Map<number, UnreadEntry>([
      [1, { key: 's:5', streamId: 5, topic: 'plain' }],
      [2, { key: 's:5', streamId: 5, topic: 'muted' }],
      [3, { key: 's:5', streamId: 5, topic: 'muted', mentioned: true }],
      [4, { key: 's:5', streamId: 5, topic: 'followed' }],
      [5, { key: 'd:2' }],
    ]);
    const where = (e: UnreadEntry) => ({
      subscription: {},
      policy: e.topic === 'muted' ? Policy.muted : e.topic === 'followed' ? Policy.followed : Policy.inherit,
    });
    // All: what the Inbox and the sidebar show (the mention in the muted topic is not there).
    expect(titleCount(unread, 1, where)).toBe(3);
    expect(titleCount(unread, 2, where)).toBe(3);
    expect(titleCount(unread, 3, where)).toBe(2);
    expect(titleCount(unread, 4, where)).toBe(0);
  });
});
