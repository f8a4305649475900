import { capabilitiesFrom, CAPABILITY_NAMES } from '../src/domain/descriptor';
import { applyLegacyForms, typesToFetch } from '../src/domain/legacy-state';
import { reactionChanged } from '../src/events/messages';
import { presenceChanged } from '../src/events/people';
import { userSettingsChanged } from '../src/events/personal';
import { ctx, queue } from './queue-fixtures';

/** What Confab sends clients without (and with) each of Zulip's client capabilities: docs/clients.md. */

const settings = {
  twenty_four_hour_time: true,
  color_scheme: 1,
  default_language: 'en',
  web_home_view: 'inbox',
  enable_stream_desktop_notifications: true,
  enable_stream_push_notifications: false,
  pm_content_in_desktop_notifications: true,
  send_read_receipts: true,
  timezone: 'Europe/Paris',
  emojiset_choices: [{ key: 'google', text: 'Google' }],
  available_notification_sounds: ['zulip'],
};

const subscription = (overrides: Record<string, unknown> = {}) => ({
  stream_id: 4,
  name: 'Denmark',
  desktop_notifications: null,
  audible_notifications: null,
  push_notifications: true,
  email_notifications: null,
  wildcard_mentions_notify: null,
  ...overrides,
});

function registered(wanted: string[] | null, capabilities: Record<string, boolean>, state: Record<string, unknown>) {
  const copy = structuredClone(state);
  applyLegacyForms(copy, {
    wanted,
    capabilities: capabilitiesFrom(capabilities),
    emptyTopicDisplayName: 'general chat',
  });
  return copy;
}

describe('client capabilities', () => {
  it('are every one Zulip 11 knows, each false unless declared', () => {
    expect(Object.values(CAPABILITY_NAMES).sort()).toEqual(
      [
        'archived_channels',
        'bulk_message_deletion',
        'empty_topic_name',
        'include_deactivated_groups',
        'linkifier_url_template',
        'notification_settings_null',
        'simplified_presence_events',
        'stream_typing_notifications',
        'user_avatar_url_field_optional',
        'user_list_incomplete',
        'user_settings_object',
      ].sort(),
    );
    expect(Object.values(capabilitiesFrom({ bulk_message_deletion: 'yes' }))).not.toContain(true);
    expect(capabilitiesFrom({ user_settings_object: true }).userSettingsObject).toBe(true);
  });
});

describe('/register without user_settings_object', () => {
  it('also puts the legacy personal settings at the top level, as their legacy event types ask', () => {
    const state = registered(
      ['update_display_settings', 'update_global_notifications', 'user_settings'],
      {},
      {
        user_settings: settings,
      },
    );
    expect(state).toMatchObject({
      twenty_four_hour_time: true,
      color_scheme: 1,
      default_language: 'en',
      web_home_view: 'inbox',
      timezone: 'Europe/Paris',
      emojiset_choices: settings.emojiset_choices,
      enable_stream_desktop_notifications: true,
      pm_content_in_desktop_notifications: true,
      available_notification_sounds: ['zulip'],
      user_settings: settings,
    });
    // Settings newer than the legacy events stay in user_settings only.
    expect(state).not.toHaveProperty('send_read_receipts');
  });

  it('asks the settings service for them when only the legacy types are wanted, and drops user_settings', () => {
    expect(typesToFetch(['update_display_settings'], capabilitiesFrom({}))).toEqual([
      'update_display_settings',
      'user_settings',
    ]);
    const state = registered(['update_display_settings'], {}, { user_settings: settings });
    expect(state.twenty_four_hour_time).toBe(true);
    expect(state).not.toHaveProperty('pm_content_in_desktop_notifications');
    expect(state).not.toHaveProperty('user_settings');
  });

  it('writes nothing at the top level for clients with the capability', () => {
    expect(typesToFetch(['update_display_settings'], capabilitiesFrom({ user_settings_object: true }))).toEqual([
      'update_display_settings',
    ]);
    const state = registered(null, { user_settings_object: true }, { user_settings: settings });
    expect(Object.keys(state)).toEqual(['user_settings']);
  });
});

describe('/register without notification_settings_null', () => {
  it("gives a channel's inherited notification settings as the user's defaults", () => {
    const state = registered(
      ['subscription'],
      { user_settings_object: true },
      {
        user_settings: settings,
        subscriptions: [subscription()],
        unsubscribed: [subscription({ stream_id: 5 })],
        never_subscribed: [],
      },
    );
    const expected = {
      desktop_notifications: true,
      audible_notifications: false,
      push_notifications: true,
      email_notifications: false,
      wildcard_mentions_notify: null,
    };
    expect(state.subscriptions).toEqual([expect.objectContaining(expected)]);
    expect(state.unsubscribed).toEqual([expect.objectContaining(expected)]);
    expect(state).not.toHaveProperty('user_settings');
  });

  it('keeps null (inherit) for clients with the capability', () => {
    const state = registered(null, { notification_settings_null: true }, { subscriptions: [subscription()] });
    expect(state.subscriptions).toEqual([subscription()]);
  });
});

describe('/register: the other deprecated forms', () => {
  it('names the empty topic for clients without empty_topic_name, in unreads, user topics and muted topics', () => {
    const state = {
      unread_msgs: { streams: [{ stream_id: 4, topic: '', unread_message_ids: [1] }] },
      user_topics: [{ stream_id: 4, topic_name: '', visibility_policy: 1 }],
      muted_topics: [['Denmark', '', 1700000000]],
    };
    expect(registered(null, {}, state)).toEqual({
      unread_msgs: { streams: [{ stream_id: 4, topic: 'general chat', unread_message_ids: [1] }] },
      user_topics: [{ stream_id: 4, topic_name: 'general chat', visibility_policy: 1 }],
      muted_topics: [['Denmark', 'general chat', 1700000000]],
    });
    expect(registered(null, { empty_topic_name: true }, state)).toEqual(state);
  });

  it('sends muted_topics only to clients that do not also ask for user_topic', () => {
    const state = { muted_topics: [], user_topics: [] };
    expect(registered(['muted_topics', 'user_topic'], {}, state)).not.toHaveProperty('muted_topics');
    expect(registered(['muted_topics'], {}, state)).toHaveProperty('muted_topics');
    expect(registered(null, {}, state)).toHaveProperty('muted_topics');
  });

  it('sends linkifiers only to clients that expand URL templates, and realm_filters always empty', () => {
    const linkifier = { id: 1, pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id}' };
    expect(registered(null, {}, { realm_linkifiers: [linkifier], realm_filters: [['#x', 'y', 1]] })).toEqual({
      realm_linkifiers: [],
      realm_filters: [],
    });
    expect(
      registered(['realm_linkifiers'], { linkifier_url_template: true }, { realm_linkifiers: [linkifier] }),
    ).toEqual({
      realm_linkifiers: [linkifier],
    });
  });
});

describe('events per capability', () => {
  it('presence: modern for simplified_presence_events, legacy without email for slim_presence, else legacy', () => {
    const [delivery] = presenceChanged({
      user_id: 7,
      realm_id: 1,
      email: 'othello@zulip.com',
      active_timestamp: 1700000100,
      idle_timestamp: 1700000200,
      server_timestamp: 1700000200.5,
      status: 'active',
      timestamp: 1700000100,
    });
    const website = { client: 'website', status: 'active', timestamp: 1700000100, pushable: false };
    expect(delivery!.build(ctx(queue()))).toEqual([
      {
        type: 'presence',
        user_id: 7,
        email: 'othello@zulip.com',
        server_timestamp: 1700000200.5,
        presence: { website },
      },
    ]);
    expect(delivery!.build(ctx(queue({ slimPresence: true })))).toEqual([
      { type: 'presence', user_id: 7, server_timestamp: 1700000200.5, presence: { website } },
    ]);
    expect(delivery!.build(ctx(queue({}, { simplified_presence_events: true })))).toEqual([
      { type: 'presence', presences: { '7': { active_timestamp: 1700000100, idle_timestamp: 1700000200 } } },
    ]);
  });

  it('reaction: Zulip’s reaction type names and the deprecated user object', () => {
    const [delivery] = reactionChanged(
      {
        message_id: 3,
        user_id: 7,
        emoji_name: 'zulip',
        emoji_code: 'zulip',
        reaction_type: 'service_extra_emoji',
        user_ids: [2],
        user: { email: 'othello@zulip.com', full_name: 'Othello' },
      },
      'add',
    );
    expect(delivery!.build(ctx(queue()))).toEqual([
      {
        type: 'reaction',
        op: 'add',
        user_id: 7,
        user: { user_id: 7, email: 'othello@zulip.com', full_name: 'Othello' },
        message_id: 3,
        emoji_name: 'zulip',
        emoji_code: 'zulip',
        reaction_type: 'zulip_extra_emoji',
      },
    ]);
  });

  it('user settings: the legacy events too for clients without user_settings_object, as their types ask', () => {
    const [delivery] = userSettingsChanged({
      user_id: 2,
      realm_id: 1,
      email: 'hamlet@zulip.com',
      changed: ['default_language', 'enable_sounds', 'send_read_receipts'],
      settings: { default_language: 'de', enable_sounds: false, send_read_receipts: false },
      language_name: 'Deutsch',
    });
    const modern = (property: string, value: unknown, extra = {}) => ({
      type: 'user_settings',
      op: 'update',
      property,
      value,
      ...extra,
    });
    const display = {
      type: 'update_display_settings',
      user: 'hamlet@zulip.com',
      setting_name: 'default_language',
      setting: 'de',
      language_name: 'Deutsch',
    };
    const notification = {
      type: 'update_global_notifications',
      user: 'hamlet@zulip.com',
      notification_name: 'enable_sounds',
      setting: false,
    };
    expect(delivery!.build(ctx(queue()))).toEqual([
      modern('default_language', 'de', { language_name: 'Deutsch' }),
      display,
      modern('enable_sounds', false),
      notification,
      modern('send_read_receipts', false),
    ]);
    expect(delivery!.build(ctx(queue({}, { user_settings_object: true })))).toEqual([
      modern('default_language', 'de', { language_name: 'Deutsch' }),
      modern('enable_sounds', false),
      modern('send_read_receipts', false),
    ]);
    expect(delivery!.build(ctx(queue({ eventTypes: ['update_display_settings'] })))).toEqual([display]);
  });
});
