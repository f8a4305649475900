import { applyEvents, applyRegister, dmConversations, subscriptions } from '../src/store/store';
import {
  alertWords,
  mutedUsers,
  Policy,
  setSettingLocally,
  settings,
  statuses,
  topicPolicy,
  userTopics,
} from '../src/store/personal';

const register = () =>
  applyRegister({
    queue_id: 'q',
    last_event_id: -1,
    user_id: 1,
    realm_users: [],
    subscriptions: [{ stream_id: 5, name: 'Denmark', is_muted: false }],
    user_settings: { color_scheme: 2, enable_sounds: false },
    user_topics: [
      { stream_id: 5, topic_name: 'Castle', visibility_policy: 1, last_updated: 0 },
      { stream_id: 5, topic_name: 'gone', visibility_policy: 0, last_updated: 0 },
    ],
    muted_users: [{ id: 7, timestamp: 0 }],
    alert_words: ['ghost'],
    user_status: { 2: { status_text: 'At lunch' } },
    recent_private_conversations: [
      { user_ids: [3, 2], max_message_id: 10 },
      { user_ids: [4], max_message_id: 20 },
    ],
  });

let eventId = 0;
const event = (e: Record<string, unknown>) => applyEvents([{ id: ++eventId, type: String(e.type), ...e }]);

describe("the store's personal state", () => {
  beforeEach(register);

  it('takes settings, topic policies, muted people, alert words, statuses and DM conversations from /register', () => {
    expect(settings.value.color_scheme).toBe(2);
    expect(settings.value.enable_sounds).toBe(false);
    expect(settings.value.enable_desktop_notifications).toBe(true);
    expect(topicPolicy(5, 'castle')).toBe(Policy.muted);
    expect(userTopics.value.size).toBe(1);
    expect([...mutedUsers.value]).toEqual([7]);
    expect(alertWords.value).toEqual(['ghost']);
    expect(statuses.value.get(2)?.status_text).toBe('At lunch');
    expect(dmConversations.value).toEqual([[4], [2, 3]]);
  });

  it('follows the events that change them', () => {
    event({ type: 'user_settings', op: 'update', property: 'color_scheme', value: 3 });
    expect(settings.value.color_scheme).toBe(3);
    event({
      type: 'update_global_notifications',
      notification_name: 'enable_sounds',
      setting_name: 'enable_sounds',
      setting: true,
    });
    expect(settings.value.enable_sounds).toBe(true);
    event({ type: 'user_topic', stream_id: 5, topic_name: 'ghosts', visibility_policy: 3, last_updated: 1 });
    expect(topicPolicy(5, 'Ghosts')).toBe(Policy.followed);
    event({ type: 'user_topic', stream_id: 5, topic_name: 'castle', visibility_policy: 0, last_updated: 1 });
    expect(topicPolicy(5, 'Castle')).toBe(Policy.inherit);
    event({ type: 'muted_users', muted_users: [{ id: 8, timestamp: 1 }] });
    expect([...mutedUsers.value]).toEqual([8]);
    event({ type: 'alert_words', alert_words: ['ghost', 'skull'] });
    expect(alertWords.value).toEqual(['ghost', 'skull']);
    event({ type: 'user_status', user_id: 2, emoji_name: 'car', emoji_code: '1f697' });
    expect(statuses.value.get(2)).toEqual({ status_text: 'At lunch', emoji_name: 'car', emoji_code: '1f697' });
  });

  it('mutes a channel from either form of the subscription event', () => {
    event({ type: 'subscription', op: 'update', stream_id: 5, property: 'in_home_view', value: false });
    expect(subscriptions.value[0].is_muted).toBe(true);
    event({ type: 'subscription', op: 'update', stream_id: 5, property: 'is_muted', value: false });
    expect(subscriptions.value[0].is_muted).toBe(false);
  });

  it('puts a group conversation with a new message first', () => {
    event({
      type: 'message',
      flags: [],
      message: {
        id: 30,
        sender_id: 2,
        sender_full_name: 'B',
        content: '',
        timestamp: 0,
        type: 'private',
        subject: '',
        display_recipient: [
          { id: 1, full_name: 'A' },
          { id: 2, full_name: 'B' },
          { id: 3, full_name: 'C' },
        ],
      },
    });
    expect(dmConversations.value).toEqual([[2, 3], [4]]);
  });
});

describe('settings changed here', () => {
  beforeEach(register);

  it('keep the newest choice on screen while an older change’s event comes back, and follow the server after', () => {
    setSettingLocally('color_scheme', 3);
    setSettingLocally('color_scheme', 1);
    event({ type: 'user_settings', op: 'update', property: 'color_scheme', value: 3 });
    expect(settings.value.color_scheme).toBe(1);
    event({ type: 'user_settings', op: 'update', property: 'color_scheme', value: 1 });
    event({ type: 'user_settings', op: 'update', property: 'color_scheme', value: 2 });
    expect(settings.value.color_scheme).toBe(2);
  });

  it('are put back when the server refuses them', () => {
    const change = setSettingLocally('enable_sounds', true);
    expect(settings.value.enable_sounds).toBe(true);
    change.undo();
    expect(settings.value.enable_sounds).toBe(false);
  });
});
