import {
  applyEvents,
  applyRegister,
  counts,
  shownCounts,
  shownUnread,
  subscriptions,
  topics,
  unread,
  view,
} from '../src/store/store';

const register = (extra: Record<string, unknown> = {}) =>
  applyRegister({
    queue_id: 'q',
    last_event_id: -1,
    user_id: 1,
    realm_users: [
      { user_id: 1, full_name: 'Me', email: 'me@x' },
      { user_id: 2, full_name: 'Other', email: 'other@x' },
    ],
    subscriptions: [{ stream_id: 5, name: 'Denmark' }],
    unread_msgs: {
      streams: [{ stream_id: 5, topic: 'castle', unread_message_ids: [100, 101] }],
      pms: [{ other_user_id: 2, unread_message_ids: [102] }],
      huddles: [],
      mentions: [101],
    },
    ...extra,
  });

const streamMessage = (id: number, topic = 'castle') => ({
  id,
  sender_id: 2,
  sender_full_name: 'Other',
  content: '<p>x</p>',
  timestamp: 0,
  type: 'stream',
  stream_id: 5,
  subject: topic,
  display_recipient: 'Denmark',
});

describe('the store', () => {
  beforeEach(() => register());

  it('counts unread messages by channel, topic and conversation from /register', () => {
    expect(counts.value.get('s:5')).toBe(2);
    expect(counts.value.get('t:5:castle')).toBe(2);
    expect(counts.value.get('d:2')).toBe(1);
    expect(unread.value.get(101)?.mentioned).toBe(true);
  });

  it('forgets a deleted unread message at once (not only after a reload)', () => {
    applyEvents([{ id: 1, type: 'delete_message', message_id: 100, message_type: 'stream' }]);
    expect(counts.value.get('s:5')).toBe(1);
    applyEvents([{ id: 2, type: 'delete_message', message_ids: [101, 102] }]);
    expect(counts.value.get('s:5')).toBeUndefined();
    expect(counts.value.get('d:2')).toBeUndefined();
  });

  it('adds live messages to the open narrow and their unread count, and reads them', () => {
    view.value = { terms: [{ operator: 'channel', operand: 5 }], messages: [], foundOldest: true, loading: false };
    applyEvents([{ id: 1, type: 'message', message: streamMessage(103), flags: [] }]);
    expect(view.value.messages.map((m) => m.id)).toEqual([103]);
    expect(counts.value.get('s:5')).toBe(3);
    applyEvents([{ id: 2, type: 'update_message_flags', op: 'add', flag: 'read', messages: [100, 103], all: false }]);
    expect(counts.value.get('s:5')).toBe(1);
    applyEvents([{ id: 3, type: 'update_message_flags', op: 'add', flag: 'read', messages: [], all: true }]);
    expect(counts.value.size).toBe(0);
  });

  it('takes an unstarred message out of the Starred view, and only there', () => {
    const starred = (id: number) => ({ ...streamMessage(id), flags: ['starred'] });
    view.value = {
      terms: [{ operator: 'is', operand: 'starred' }],
      messages: [starred(110), starred(111)],
      foundOldest: true,
      loading: false,
    };
    applyEvents([{ id: 1, type: 'update_message_flags', op: 'remove', flag: 'starred', messages: [110], all: false }]);
    expect(view.value.messages.map((m) => m.id)).toEqual([111]);
    // In a conversation it stays, unstarred.
    view.value = {
      terms: [{ operator: 'channel', operand: 5 }],
      messages: [starred(111)],
      foundOldest: true,
      loading: false,
    };
    applyEvents([{ id: 2, type: 'update_message_flags', op: 'remove', flag: 'starred', messages: [111], all: false }]);
    expect(view.value.messages.map((m) => [m.id, m.flags])).toEqual([[111, []]]);
  });

  it('moves unread counts and topic lists along with a moved topic', () => {
    topics.value = new Map([[5, ['castle', 'moat']]]);
    applyEvents([
      {
        id: 1,
        type: 'update_message',
        message_id: 100,
        message_ids: [100, 101],
        stream_id: 5,
        orig_subject: 'castle',
        subject: 'keep',
        propagate_mode: 'change_all',
        edit_timestamp: 1,
      },
    ]);
    expect(counts.value.get('t:5:keep')).toBe(2);
    expect(counts.value.get('t:5:castle')).toBeUndefined();
    expect(topics.value.get(5)).toEqual(['keep', 'moat']);
  });

  it('follows subscription events, also when someone else subscribes me', () => {
    applyEvents([{ id: 1, type: 'subscription', op: 'add', subscriptions: [{ stream_id: 8, name: 'Alpha' }] }]);
    expect(subscriptions.value.map((s) => s.name)).toEqual(['Alpha', 'Denmark']);
    applyEvents([{ id: 2, type: 'stream', op: 'update', stream_id: 8, property: 'name', value: 'Zeta' }]);
    expect(subscriptions.value.map((s) => s.name)).toEqual(['Denmark', 'Zeta']);
    applyEvents([{ id: 3, type: 'subscription', op: 'remove', subscriptions: [{ stream_id: 5, name: 'Denmark' }] }]);
    expect(subscriptions.value.map((s) => s.name)).toEqual(['Zeta']);
  });

  it('leaves muted topics, and muted channels’ topics not unmuted or followed, out of the counts shown', () => {
    register({
      subscriptions: [
        { stream_id: 5, name: 'Denmark' },
        { stream_id: 6, name: 'Verona', is_muted: true },
      ],
      user_topics: [
        { stream_id: 5, topic_name: 'ghosts', visibility_policy: 1 },
        { stream_id: 6, topic_name: 'balcony', visibility_policy: 3 },
      ],
      unread_msgs: {
        streams: [
          { stream_id: 5, topic: 'castle', unread_message_ids: [100] },
          { stream_id: 5, topic: 'ghosts', unread_message_ids: [101, 102] },
          { stream_id: 6, topic: 'balcony', unread_message_ids: [103] },
          { stream_id: 6, topic: 'market', unread_message_ids: [104, 105] },
          { stream_id: 7, topic: 'unsubscribed', unread_message_ids: [106] },
        ],
        pms: [{ other_user_id: 2, unread_message_ids: [107] }],
        huddles: [],
        mentions: [],
      },
    });
    expect(unread.value.size).toBe(8);
    expect([...shownUnread.value.keys()].sort()).toEqual([100, 103, 107]);
    expect(Object.fromEntries(shownCounts.value)).toEqual({
      's:5': 1,
      't:5:castle': 1,
      's:6': 1,
      't:6:balcony': 1,
      'd:2': 1,
    });
    // Unmuting the topic and the channel (events) brings them back.
    applyEvents([
      { id: 1, type: 'user_topic', stream_id: 5, topic_name: 'ghosts', visibility_policy: 0, last_updated: 1 },
      { id: 2, type: 'subscription', op: 'update', stream_id: 6, property: 'is_muted', value: false },
    ]);
    expect(shownCounts.value.get('s:5')).toBe(3);
    expect(shownCounts.value.get('s:6')).toBe(3);
  });
});
