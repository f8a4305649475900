// One test per reducer of the store (store/store.ts dispatches each event type of ClientEvent to one): the event
// goes through applyEvents, as the event loop hands it over, and the test reads the signals it changes.
import type { ClientEvent, ClientMessage, DraftDict, StreamDict, SubscriptionDict } from '@confab/zulip';
import {
  defaultChannels,
  invitesChanged,
  linkifiers,
  nonActiveUsers,
  realmExports,
  realmSettings,
} from '../src/store/admin';
import { bots, userGroups } from '../src/store/integrations';
import { alertWords, mutedUsers, settings, statuses, topicPolicy } from '../src/store/personal';
import {
  applyEvents,
  applyRegister,
  drafts,
  presence,
  realmEmoji,
  scheduled,
  streams,
  subscriptions,
  topics,
  topicsStale,
  typing,
  unread,
  users,
  view,
} from '../src/store/store';

const message = (id: number, extra: Partial<ClientMessage> = {}): ClientMessage => ({
  id,
  type: 'stream',
  sender_id: 2,
  sender_email: 'other@x',
  sender_full_name: 'Other',
  sender_realm_str: 'x',
  recipient_id: 9,
  stream_id: 5,
  display_recipient: 'Denmark',
  subject: 'castle',
  topic_links: [],
  timestamp: 0,
  client: 'test',
  is_me_message: false,
  reactions: [],
  submessages: [],
  avatar_url: null,
  content: '<p>x</p>',
  content_type: 'text/html',
  ...extra,
});

const channel = (stream_id: number, name: string): StreamDict => ({
  stream_id,
  name,
  is_archived: false,
  description: '',
  rendered_description: '',
  date_created: 0,
  creator_id: null,
  invite_only: false,
  is_web_public: false,
  stream_post_policy: 1,
  is_announcement_only: false,
  message_retention_days: null,
  history_public_to_subscribers: true,
  topics_policy: 'inherit',
  first_message_id: null,
  folder_id: null,
  is_recently_active: true,
  subscriber_count: 1,
  stream_weekly_traffic: null,
});

const subscription = (stream_id: number, name: string): SubscriptionDict => ({
  ...channel(stream_id, name),
  color: '#fff',
  is_muted: false,
  in_home_view: true,
  pin_to_top: false,
  desktop_notifications: null,
  audible_notifications: null,
  push_notifications: null,
  email_notifications: null,
  wildcard_mentions_notify: null,
});

let nextId = 1;
const apply = (...events: ClientEvent[]) => applyEvents(events.map((e) => ({ ...e, id: nextId++ })));

const group = (id: number) => ({
  id,
  name: `g${id}`,
  description: '',
  members: [1],
  direct_subgroup_ids: [],
  creator_id: null,
  date_created: 0,
  is_system_group: false,
  deactivated: false,
  can_add_members_group: 1,
  can_join_group: 1,
  can_leave_group: 1,
  can_manage_group: 1,
  can_mention_group: 1,
  can_remove_members_group: 1,
});

beforeEach(() => {
  applyRegister({
    queue_id: 'q',
    last_event_id: -1,
    user_id: 1,
    realm_users: [
      { user_id: 1, full_name: 'Me', email: 'me@x' },
      { user_id: 2, full_name: 'Other', email: 'other@x' },
    ],
    realm_non_active_users: [{ user_id: 8, full_name: 'Gone', email: 'gone@x' }],
    subscriptions: [{ stream_id: 5, name: 'Denmark' }],
    streams: [
      { stream_id: 5, name: 'Denmark', description: '', invite_only: false },
      { stream_id: 6, name: 'Sweden', description: '', invite_only: false },
    ],
    unread_msgs: { streams: [{ stream_id: 5, topic: 'castle', unread_message_ids: [100] }] },
    realm_bots: [],
    realm_user_groups: [{ ...group(3), is_system_group: false }],
    realm_name: 'Elsinore',
  });
  view.value = { terms: [{ operator: 'channel', operand: 5 }], messages: [], foundOldest: true, loading: false };
});

describe('message reducers', () => {
  it('message: joins the narrow read, and counts as unread', () => {
    apply({ type: 'message', message: message(101), flags: [] });
    expect(view.value.messages.map((m) => m.id)).toEqual([101]);
    expect(unread.value.get(101)).toEqual({ key: 's:5', streamId: 5, topic: 'castle' });
  });

  it('update_message_flags: read removes unread ones, starred changes the message flags', () => {
    view.value = { ...view.value, messages: [{ ...message(100), flags: [] }] };
    apply({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [100], all: false });
    expect(view.value.messages[0]?.flags).toEqual(['starred']);
    apply({ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [100], all: false });
    expect(unread.value.has(100)).toBe(false);
  });

  it('reaction: added and removed on the message read', () => {
    view.value = { ...view.value, messages: [message(100)] };
    const reaction = {
      message_id: 100,
      user_id: 2,
      emoji_name: 'smile',
      emoji_code: '1f604',
      reaction_type: 'unicode_emoji',
    };
    apply({ type: 'reaction', op: 'add', ...reaction });
    expect(view.value.messages[0]?.reactions).toEqual([
      { emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji', user_id: 2 },
    ]);
    apply({ type: 'reaction', op: 'remove', ...reaction });
    expect(view.value.messages[0]?.reactions).toEqual([]);
  });

  it('submessage: attached once to its message', () => {
    view.value = { ...view.value, messages: [message(100)] };
    const sub = { msg_type: 'widget', message_id: 100, submessage_id: 7, sender_id: 2, content: '{}' } as const;
    apply({ type: 'submessage', ...sub }, { type: 'submessage', ...sub });
    expect(view.value.messages[0]?.submessages).toEqual([{ id: 7, sender_id: 2, msg_type: 'widget', content: '{}' }]);
  });

  it('typing: who is typing in a channel, until they stop', () => {
    const sender = { user_id: 2, email: 'other@x' };
    apply({ type: 'typing', op: 'start', sender, message_type: 'stream', stream_id: 5, topic: 'castle' });
    expect([...(typing.value.get('s:5') ?? [])]).toEqual([2]);
    apply({ type: 'typing', op: 'stop', sender, message_type: 'stream', stream_id: 5, topic: 'castle' });
    expect([...(typing.value.get('s:5') ?? [])]).toEqual([]);
  });

  it('update_message: an edit changes the content; a move of the whole topic moves the topic list', () => {
    view.value = { ...view.value, messages: [message(100)] };
    topics.value = new Map([[5, ['castle', 'moat']]]);
    apply({
      type: 'update_message',
      user_id: 2,
      edit_timestamp: 50,
      message_id: 100,
      message_ids: [100],
      rendering_only: false,
      flags: [],
      rendered_content: '<p>y</p>',
      stream_id: 5,
      orig_subject: 'castle',
      subject: 'keep',
      propagate_mode: 'change_all',
    });
    expect(view.value.messages[0]).toMatchObject({ content: '<p>y</p>', subject: 'keep', last_edit_timestamp: 50 });
    expect(topics.value.get(5)).toEqual(['keep', 'moat']);
    expect(unread.value.get(100)?.topic).toBe('keep');
    expect(topicsStale.value).toBeNull();
  });

  it('delete_message: leaves the view and the unread ones', () => {
    view.value = { ...view.value, messages: [message(100)] };
    apply({ type: 'delete_message', message_type: 'stream', stream_id: 5, topic: 'castle', message_ids: [100] });
    expect(view.value.messages).toEqual([]);
    expect(unread.value.has(100)).toBe(false);
  });
});

describe('reducers of people and own records', () => {
  it('presence: the legacy one-client form folds into the modern one', () => {
    apply({
      type: 'presence',
      user_id: 2,
      server_timestamp: 10,
      presence: { website: { client: 'website', status: 'active', timestamp: 10, pushable: false } },
    });
    expect(presence.value.get(2)).toEqual({ active_timestamp: 10, idle_timestamp: 10 });
  });

  it('realm_user: add and update a person; a deactivated one is updated where administrators see them', () => {
    const person = {
      user_id: 3,
      email: 'new@x',
      delivery_email: null,
      full_name: 'New',
      date_joined: '',
      is_active: true,
      is_owner: false,
      is_admin: false,
      is_guest: false,
      is_bot: false,
      bot_type: null,
      role: 400,
      timezone: '',
      avatar_url: null,
      avatar_version: 1,
      is_imported_stub: false,
    };
    apply({ type: 'realm_user', op: 'add', person });
    apply({ type: 'realm_user', op: 'update', person: { user_id: 3, full_name: 'Renamed' } });
    expect(users.value.get(3)?.full_name).toBe('Renamed');
    apply({ type: 'realm_user', op: 'update', person: { user_id: 8, is_active: true } });
    expect(nonActiveUsers.value.get(8)?.is_active).toBe(true);
    expect(users.value.has(8)).toBe(false);
  });

  it('scheduled_messages: add, update, remove', () => {
    const m = {
      scheduled_message_id: 4,
      type: 'stream',
      to: 5,
      topic: 'castle',
      content: 'x',
      rendered_content: '<p>x</p>',
      scheduled_delivery_timestamp: 100,
      failed: false,
    } as const;
    apply({ type: 'scheduled_messages', op: 'add', scheduled_messages: [m] });
    apply({ type: 'scheduled_messages', op: 'update', scheduled_message: { ...m, content: 'y' } });
    expect(scheduled.value.map((s) => s.content)).toEqual(['y']);
    apply({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: 4 });
    expect(scheduled.value).toEqual([]);
  });

  it('drafts: add, update, remove', () => {
    const d: DraftDict = { id: 2, type: 'stream', to: [5], topic: 'castle', content: 'x', timestamp: 1 };
    apply({ type: 'drafts', op: 'add', drafts: [d] });
    apply({ type: 'drafts', op: 'update', draft: { ...d, content: 'y' } });
    expect(drafts.value.map((x) => x.content)).toEqual(['y']);
    apply({ type: 'drafts', op: 'remove', draft_id: 2 });
    expect(drafts.value).toEqual([]);
  });

  it('realm_emoji: the active custom emoji', () => {
    const emoji = { id: '1', name: 'ghost', source_url: '/g.png', still_url: null, author_id: null };
    apply({
      type: 'realm_emoji',
      op: 'update',
      realm_emoji: { 1: { ...emoji, deactivated: false }, 2: { ...emoji, id: '2', name: 'old', deactivated: true } },
    });
    expect(realmEmoji.value.map((e) => e.name)).toEqual(['ghost']);
  });

  it('user_status: only the fields set change', () => {
    apply(
      { type: 'user_status', user_id: 2, status_text: 'At lunch' },
      { type: 'user_status', user_id: 2, away: true },
    );
    expect(statuses.value.get(2)).toEqual({ status_text: 'At lunch', away: true });
  });
});

describe('channel reducers', () => {
  it('subscription: add, update (in_home_view as is_muted), peer changes nothing, remove', () => {
    apply({ type: 'subscription', op: 'add', subscriptions: [subscription(6, 'Sweden')] });
    expect(subscriptions.value.map((s) => s.name)).toEqual(['Denmark', 'Sweden']);
    apply({ type: 'subscription', op: 'update', stream_id: 6, property: 'in_home_view', value: false });
    expect(subscriptions.value.find((s) => s.stream_id === 6)?.is_muted).toBe(true);
    apply({ type: 'subscription', op: 'peer_add', stream_ids: [6], user_ids: [2] });
    apply({ type: 'subscription', op: 'remove', subscriptions: [{ name: 'Sweden', stream_id: 6 }] });
    expect(subscriptions.value.map((s) => s.name)).toEqual(['Denmark']);
  });

  it('stream: create, rename, delete', () => {
    apply({ type: 'stream', op: 'create', streams: [channel(7, 'Norway')] });
    apply({ type: 'stream', op: 'update', stream_id: 5, name: 'Denmark', property: 'name', value: 'Zealand' });
    expect(streams.value.map((s) => s.name)).toEqual(['Norway', 'Sweden', 'Zealand']);
    expect(subscriptions.value.map((s) => s.name)).toEqual(['Zealand']);
    apply({ type: 'stream', op: 'delete', streams: [{ stream_id: 7 }], stream_ids: [7] });
    expect(streams.value.map((s) => s.stream_id)).toEqual([6, 5]);
  });
});

describe('organization reducers', () => {
  it('realm: update and update_dict', () => {
    apply({ type: 'realm', op: 'update', property: 'name', value: 'Denmark' });
    apply({ type: 'realm', op: 'update_dict', property: 'default', data: { description: 'A castle' } });
    expect(realmSettings.value).toMatchObject({ realm_name: 'Denmark', realm_description: 'A castle' });
  });

  it('default_streams, realm_linkifiers, realm_export, invites_changed', () => {
    apply({ type: 'default_streams', default_streams: [5] });
    expect(defaultChannels.value).toEqual([5]);
    apply({ type: 'realm_linkifiers', realm_linkifiers: [{ id: 1, pattern: '#(?P<id>\\d+)', url_template: 'x' }] });
    expect(linkifiers.value.map((l) => l.id)).toEqual([1]);
    const exported = {
      id: 1,
      acting_user_id: 1,
      export_time: 1,
      deleted_timestamp: null,
      failed_timestamp: null,
      export_url: null,
      pending: true,
      export_type: 1,
    };
    apply({ type: 'realm_export', exports: [exported] });
    expect(realmExports.value).toEqual([exported]);
    const before = invitesChanged.value;
    apply({ type: 'invites_changed' });
    expect(invitesChanged.value).toBe(before + 1);
  });

  it('realm_bot: add, update, delete', () => {
    apply({ type: 'realm_bot', op: 'add', bot: { user_id: 50, full_name: 'Bot', email: 'b@x', api_key: 'k' } });
    apply({ type: 'realm_bot', op: 'update', bot: { user_id: 50, api_key: 'k2' } });
    expect(bots.value.get(50)).toMatchObject({ full_name: 'Bot', api_key: 'k2' });
    apply({ type: 'realm_bot', op: 'delete', bot: { user_id: 50 } });
    expect(bots.value.has(50)).toBe(false);
  });

  it('user_group: add, members and subgroups, update, remove', () => {
    apply({ type: 'user_group', op: 'add', group: group(4) });
    apply({ type: 'user_group', op: 'add_members', group_id: 4, user_ids: [2] });
    apply({ type: 'user_group', op: 'add_subgroups', group_id: 4, direct_subgroup_ids: [3] });
    apply({ type: 'user_group', op: 'update', group_id: 4, data: { name: 'watch' } });
    expect(userGroups.value.get(4)).toMatchObject({ name: 'watch', members: [1, 2], direct_subgroup_ids: [3] });
    apply({ type: 'user_group', op: 'remove', group_id: 4 });
    expect(userGroups.value.has(4)).toBe(false);
  });
});

describe('personal reducers', () => {
  it('user_settings, and its legacy forms', () => {
    apply({ type: 'user_settings', op: 'update', property: 'enable_sounds', value: false });
    expect(settings.value.enable_sounds).toBe(false);
    apply({ type: 'update_display_settings', user: 'me@x', setting_name: 'color_scheme', setting: 2 });
    expect(settings.value.color_scheme).toBe(2);
    apply({ type: 'update_global_notifications', user: 'me@x', notification_name: 'enable_sounds', setting: true });
    expect(settings.value.enable_sounds).toBe(true);
  });

  it('user_topic, muted_users, alert_words', () => {
    apply({ type: 'user_topic', stream_id: 5, topic_name: 'Castle', last_updated: 0, visibility_policy: 3 });
    expect(topicPolicy(5, 'castle')).toBe(3);
    apply({ type: 'muted_users', muted_users: [{ id: 2, timestamp: 0 }] });
    expect([...mutedUsers.value]).toEqual([2]);
    apply({ type: 'alert_words', alert_words: ['ghost'] });
    expect(alertWords.value).toEqual(['ghost']);
  });

  it('the types this client does not show change nothing', () => {
    const before = { realm: realmSettings.value, users: users.value, messages: view.value.messages };
    apply(
      { type: 'heartbeat' },
      { type: 'saved_snippets', op: 'remove', saved_snippet_id: 1 },
      { type: 'realm_domains', op: 'remove', domain: 'x.org' },
      { type: 'has_meetingprovider_token', value: true },
    );
    expect({ realm: realmSettings.value, users: users.value, messages: view.value.messages }).toEqual(before);
  });
});
