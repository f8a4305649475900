import type { ApiClient, World } from '@confab/devkit';
import { EventQueue, expectRegistration } from './support/event-queues';
import { expectSuccess } from './support/expect';
import { newWorld } from './support/system';

/**
 * POST /register for every `fetch_event_types` value Zulip 11 knows, and with and without the client capabilities
 * that change it, as Zulip's fetch_initial_state_data and post_process_state answer (docs/clients.md lists what
 * Confab sends for old capabilities). Every answer is also checked against Zulip's description.
 */

/** The keys Zulip 11 answers for each type (its `want(...)` sections), apart from the ones always sent. */
const KEYS: Record<string, string[]> = {
  alert_words: ['alert_words'],
  custom_profile_fields: ['custom_profile_fields', 'custom_profile_field_types'],
  onboarding_steps: ['onboarding_steps', 'navigation_tour_video_url'],
  message: ['max_message_id'],
  saved_snippets: ['saved_snippets'],
  navigation_views: ['navigation_views'],
  drafts: ['drafts'],
  scheduled_messages: ['scheduled_messages'],
  reminders: ['reminders'],
  muted_topics: ['muted_topics'],
  muted_users: ['muted_users'],
  presence: ['presences', 'server_timestamp'],
  realm_user_groups: ['realm_user_groups'],
  realm: ['realm_name', 'realm_message_retention_days', 'server_presence_ping_interval_seconds', 'max_topic_length'],
  realm_emoji: ['realm_emoji'],
  realm_linkifiers: ['realm_linkifiers'],
  realm_filters: ['realm_filters'],
  realm_billing: ['realm_billing'],
  realm_user: [
    'realm_users',
    'realm_non_active_users',
    'cross_realm_bots',
    'user_id',
    'email',
    'full_name',
    'is_admin',
  ],
  realm_bot: ['realm_bots'],
  realm_embedded_bots: ['realm_embedded_bots'],
  realm_incoming_webhook_bots: ['realm_incoming_webhook_bots'],
  recent_private_conversations: ['recent_private_conversations'],
  subscription: ['subscriptions', 'unsubscribed', 'never_subscribed'],
  starred_messages: ['starred_messages'],
  stream: ['streams'],
  update_display_settings: ['twenty_four_hour_time', 'color_scheme', 'emojiset_choices', 'timezone'],
  update_global_notifications: [
    'enable_sounds',
    'pm_content_in_desktop_notifications',
    'available_notification_sounds',
  ],
  user_settings: ['user_settings'],
  user_status: ['user_status'],
  user_topic: ['user_topics'],
  giphy: ['giphy_api_key'],
  push_device: ['push_devices'],
};
/** Sent whatever is asked. */
const ALWAYS = ['queue_id', 'last_event_id', 'zulip_version', 'zulip_feature_level', 'zulip_merge_base'];

describe('POST /register per fetch_event_types value and client capability', () => {
  let world: World;
  let hamlet: ApiClient;
  beforeAll(async () => {
    world = await newWorld();
    hamlet = world.as('hamlet');
  });

  it("answers each event type's keys, as Zulip does", async () => {
    for (const [type, keys] of Object.entries(KEYS)) {
      const response = await hamlet.post('/register', { fetch_event_types: [type], event_types: [type] });
      expectRegistration(response);
      const missing = [...ALWAYS, ...keys].filter((key) => !(key in response.body));
      expect({ type, missing }).toEqual({ type, missing: [] });
    }
    // Unread messages need both message and flag events to be kept current.
    const unread = await hamlet.post('/register', { fetch_event_types: ['message', 'update_message_flags'] });
    expect(unread.body.unread_msgs).toMatchObject({ count: expect.any(Number), streams: expect.any(Array) });
    const flagsOnly = await hamlet.post('/register', { fetch_event_types: ['update_message_flags'] });
    expect(flagsOnly.body).not.toHaveProperty('unread_msgs');
  });

  it('writes the personal settings at the top level only for clients without user_settings_object', async () => {
    const legacy = await hamlet.post('/register', {});
    expectRegistration(legacy);
    expect(legacy.body).toMatchObject({
      twenty_four_hour_time: legacy.body.user_settings.twenty_four_hour_time,
      enable_sounds: legacy.body.user_settings.enable_sounds,
      available_notification_sounds: expect.any(Array),
    });
    const modern = await hamlet.post('/register', { client_capabilities: { user_settings_object: true } });
    expectRegistration(modern);
    expect(modern.body).not.toHaveProperty('twenty_four_hour_time');
    expect(modern.body).not.toHaveProperty('enable_sounds');
    expect(modern.body.user_settings.twenty_four_hour_time).toEqual(expect.any(Boolean));
    // Both legacy types, with and without user_settings: the settings service is asked, user_settings only if asked.
    const only = await hamlet.post('/register', { fetch_event_types: ['update_global_notifications'] });
    expect(only.body.enable_sounds).toEqual(expect.any(Boolean));
    expect(only.body).not.toHaveProperty('user_settings');
    expect(only.body).not.toHaveProperty('twenty_four_hour_time');
  });

  it("gives a channel's inherited notification settings as booleans without notification_settings_null", async () => {
    const fetch = { fetch_event_types: ['subscription', 'user_settings'] };
    const verona = (body: Record<string, any>) =>
      (body.subscriptions as { name: string }[]).find((sub) => sub.name === 'Verona');
    const legacy = (await hamlet.post('/register', fetch)).body;
    const defaults = legacy.user_settings as Record<string, boolean>;
    // The user's defaults, which a channel that inherits (null) follows.
    expect(verona(legacy)).toMatchObject({
      desktop_notifications: defaults.enable_stream_desktop_notifications,
      audible_notifications: defaults.enable_stream_audible_notifications,
      push_notifications: defaults.enable_stream_push_notifications,
      email_notifications: defaults.enable_stream_email_notifications,
      wildcard_mentions_notify: null,
    });
    const modern = await hamlet.post('/register', {
      ...fetch,
      client_capabilities: { notification_settings_null: true },
    });
    expectRegistration(modern);
    expect(verona(modern.body)).toMatchObject({ desktop_notifications: null, push_notifications: null });
  });

  it('lists archived channels only to clients with archived_channels', async () => {
    const iago = world.as('iago');
    expectSuccess(
      await iago.post('/users/me/subscriptions', {
        subscriptions: [{ name: 'to archive' }],
        principals: [world.user('hamlet').id],
      }),
      'POST',
      '/users/me/subscriptions',
    );
    const id = (await iago.get('/get_stream_id', { stream: 'to archive' })).body.stream_id as number;
    expectSuccess(await iago.delete(`/streams/${id}`), 'DELETE', '/streams/{stream_id}');
    const fetch = { fetch_event_types: ['subscription', 'stream'] };
    const names = (body: Record<string, any>) => ({
      subscriptions: (body.subscriptions as { stream_id: number }[]).some((s) => s.stream_id === id),
      streams: (body.streams as { stream_id: number }[]).some((s) => s.stream_id === id),
    });
    expect(names((await hamlet.post('/register', fetch)).body)).toEqual({ subscriptions: false, streams: false });
    const archived = await hamlet.post('/register', { ...fetch, client_capabilities: { archived_channels: true } });
    expectRegistration(archived);
    expect(names(archived.body)).toEqual({ subscriptions: true, streams: true });
  });

  it('names the empty topic in unread messages for clients without empty_topic_name', async () => {
    const sent = await world.as('othello').post('/messages', { type: 'stream', to: 'Verona', topic: '', content: 'x' });
    expectSuccess(sent, 'POST', '/messages');
    const fetch = { fetch_event_types: ['message', 'update_message_flags'] };
    const topicOf = (body: Record<string, any>) =>
      (body.unread_msgs.streams as { topic: string; unread_message_ids: number[] }[]).find((s) =>
        s.unread_message_ids.includes(sent.body.id as number),
      )?.topic;
    const legacy = (await hamlet.post('/register', fetch)).body;
    expect(topicOf(legacy)).toBe(legacy.realm_empty_topic_display_name);
    const modern = await hamlet.post('/register', { ...fetch, client_capabilities: { empty_topic_name: true } });
    expect(topicOf(modern.body)).toBe('');
  });

  it('sends presence events in the legacy, slim or modern shape the queue registered for', async () => {
    const othello = world.as('othello');
    const register = (params: Record<string, unknown>) =>
      EventQueue.register(othello, { event_types: ['presence'], ...params });
    const legacy = await register({});
    const slim = await register({ slim_presence: true });
    const modern = await register({ client_capabilities: { simplified_presence_events: true } });
    expectSuccess(await hamlet.post('/users/me/presence', { status: 'active' }), 'POST', '/users/me/presence');
    const hamletId = world.user('hamlet').id;
    expect(await legacy.next((e) => e.type === 'presence' && e.user_id === hamletId)).toMatchObject({
      email: world.user('hamlet').email,
      presence: { website: { status: 'active' } },
    });
    const slimEvent = await slim.next((e) => e.type === 'presence' && e.user_id === hamletId);
    expect(slimEvent).not.toHaveProperty('email');
    expect(slimEvent.presence.website.status).toBe('active');
    const modernEvent = await modern.next((e) => e.type === 'presence' && String(hamletId) in (e.presences ?? {}));
    expect(modernEvent.presences[String(hamletId)]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    expect(modernEvent).not.toHaveProperty('user_id');
    for (const queue of [legacy, slim, modern]) await queue.delete();
  });
});
