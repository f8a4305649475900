import type { World } from '@confab/devkit';
import { EventTap } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { initialState } from './support/internal';
import { newWorld } from './support/system';

/** Every parameter docs/api.md lists for PATCH /settings, each with a value other than the default. */
const API_MD_SETTINGS = {
  twenty_four_hour_time: true,
  web_channel_default_view: 4,
  starred_message_counts: false,
  receives_typing_notifications: false,
  web_suggest_update_timezone: false,
  fluid_layout_width: true,
  high_contrast_mode: true,
  web_font_size_px: 14,
  web_line_height_percent: 122,
  color_scheme: 2,
  enable_drafts_synchronization: false,
  translate_emoticons: true,
  display_emoji_reaction_users: false,
  default_language: 'de',
  web_home_view: 'recent',
  web_escape_navigates_to_home_view: false,
  left_side_userlist: true,
  emojiset: 'text',
  demote_inactive_streams: 3,
  user_list_style: 1,
  web_animate_image_previews: 'always',
  web_stream_unreads_count_display_policy: 3,
  hide_ai_features: true,
  web_inbox_show_channel_folders: false,
  timezone: 'Europe/Berlin',
  enable_stream_desktop_notifications: true,
  enable_stream_email_notifications: true,
  enable_stream_push_notifications: true,
  enable_stream_audible_notifications: true,
  notification_sound: 'ding',
  enable_desktop_notifications: false,
  enable_sounds: false,
  email_notifications_batching_period_seconds: 300,
  enable_offline_email_notifications: false,
  enable_offline_push_notifications: false,
  enable_online_push_notifications: false,
};

/** Zulip's other personal settings this server keeps. */
const OTHER_SETTINGS = {
  automatically_follow_topics_policy: 1,
  automatically_unmute_topics_in_muted_streams_policy: 4,
  automatically_follow_topics_where_mentioned: false,
  send_read_receipts: false,
  send_private_typing_notifications: false,
  send_stream_typing_notifications: false,
  enter_sends: true,
  presence_enabled: false,
  resolved_topic_notice_auto_read_policy: 'never',
  desktop_icon_count_display: 4,
  wildcard_mentions_notify: false,
  web_mark_read_on_scroll_policy: 3,
  enable_followed_topic_push_notifications: false,
  message_content_in_email_notifications: false,
  realm_name_in_email_notifications_policy: 2,
  enable_digest_emails: false,
  allow_private_data_export: true,
};

const NOT_IN_LIST = (name: string) => `Invalid ${name}: Value error, Not in the list of possible values`;

describe('PATCH /settings', () => {
  let world: World;
  let tap: EventTap;
  beforeAll(async () => {
    world = await newWorld();
    tap = await EventTap.open(['user_settings.changed', 'user.updated']);
  });
  afterAll(() => tap.close());

  it('changes every setting docs/api.md lists and returns them in the initial state', async () => {
    const hamlet = world.user('hamlet');
    const response = await world.as('hamlet').patch('/settings', API_MD_SETTINGS);
    expectSuccess(response, 'PATCH', '/settings');
    expect(response.body).toEqual({ result: 'success', msg: '' });
    const state = await initialState(hamlet.id);
    expect(state.user_settings).toMatchObject(API_MD_SETTINGS);
    expect((await world.as('hamlet').get('/users/me')).body.timezone).toBe('Europe/Berlin');

    const event = await tap.next((e) => e.type === 'user_settings.changed' && e.payload.user_id === hamlet.id);
    expect(event.realm_id).toBe(world.realm.realm_id);
    expect([...event.payload.changed].sort()).toEqual(Object.keys(API_MD_SETTINGS).sort());
    expect(event.payload.settings).toMatchObject(API_MD_SETTINGS);
    // The time zone is part of the user record other services keep.
    const updated = await tap.next((e) => e.type === 'user.updated' && e.payload.user.user_id === hamlet.id);
    expect(updated.payload.user.timezone).toBe('Europe/Berlin');
  });

  it('turning enable_drafts_synchronization off is announced with the setting off, for messaging to delete drafts', async () => {
    const cordelia = world.user('cordelia');
    expectSuccess(
      await world.as('cordelia').patch('/settings', { enable_drafts_synchronization: false }),
      'PATCH',
      '/settings',
    );
    const event = await tap.next((e) => e.type === 'user_settings.changed' && e.payload.user_id === cordelia.id);
    expect(event.payload.changed).toEqual(['enable_drafts_synchronization']);
    expect(event.payload.settings.enable_drafts_synchronization).toBe(false);
  });

  it("keeps Zulip's other personal settings too", async () => {
    const response = await world.as('othello').patch('/settings', OTHER_SETTINGS);
    expectSuccess(response, 'PATCH', '/settings');
    expect(response.body.ignored_parameters_unsupported).toBeUndefined();
    expect((await initialState(world.user('othello').id)).user_settings).toMatchObject(OTHER_SETTINGS);
  });

  it('lists unsupported parameters in ignored_parameters_unsupported and applies the rest', async () => {
    const response = await world
      .as('prospero')
      .patch('/settings', { dense_mode: true, color_scheme: 3, zzz_made_up: 'x' });
    expectSuccess(response, 'PATCH', '/settings');
    expect(response.body.ignored_parameters_unsupported).toEqual(['dense_mode', 'zzz_made_up']);
    expect((await initialState(world.user('prospero').id)).user_settings.color_scheme).toBe(3);
  });

  it('publishes nothing when a value does not change', async () => {
    const aaron = world.user('aaron');
    expectSuccess(await world.as('aaron').patch('/settings', { emojiset: 'twitter' }), 'PATCH', '/settings');
    await tap.next((e) => e.type === 'user_settings.changed' && e.payload.user_id === aaron.id);
    // The tap hears the whole system: only this organization's events count (other files change settings too).
    const ours = () => tap.events.filter((e) => e.realm_id === world.realm.realm_id).length;
    const before = ours();
    expectSuccess(await world.as('aaron').patch('/settings', { emojiset: 'twitter' }), 'PATCH', '/settings');
    const later = await tap.collect((e) => e.payload.user_id === aaron.id, 600);
    expect(later).toHaveLength(1);
    expect(ours()).toBe(before);
  });

  it.each([
    ['color_scheme', 4, NOT_IN_LIST('color_scheme')],
    ['color_scheme', 0, NOT_IN_LIST('color_scheme')],
    ['web_channel_default_view', 3, NOT_IN_LIST('web_channel_default_view')],
    ['web_home_view', 'recent_topics', NOT_IN_LIST('web_home_view')],
    ['web_home_view', 'stream', NOT_IN_LIST('web_home_view')],
    ['emojiset', 'google-blob', NOT_IN_LIST('emojiset')],
    ['demote_inactive_streams', 4, NOT_IN_LIST('demote_inactive_streams')],
    ['user_list_style', 0, NOT_IN_LIST('user_list_style')],
    ['web_animate_image_previews', 'hover', NOT_IN_LIST('web_animate_image_previews')],
    ['web_stream_unreads_count_display_policy', 4, NOT_IN_LIST('web_stream_unreads_count_display_policy')],
    ['automatically_follow_topics_policy', 0, NOT_IN_LIST('automatically_follow_topics_policy')],
    [
      'automatically_unmute_topics_in_muted_streams_policy',
      5,
      NOT_IN_LIST('automatically_unmute_topics_in_muted_streams_policy'),
    ],
    ['resolved_topic_notice_auto_read_policy', 'sometimes', 'Invalid resolved_topic_notice_auto_read_policy'],
    ['timezone', 'Mars/Olympus', 'Invalid timezone: Value error, Not a recognized time zone'],
    ['timezone', 'america/new_york', 'Invalid timezone: Value error, Not a recognized time zone'],
    ['default_language', 'xx', 'Invalid default_language'],
    ['notification_sound', 'boom', "Invalid notification sound 'boom'"],
    ['email_notifications_batching_period_seconds', 0, 'Invalid email batching period: 0 seconds'],
    ['email_notifications_batching_period_seconds', -5, 'Invalid email batching period: -5 seconds'],
    ['email_notifications_batching_period_seconds', 604801, 'Invalid email batching period: 604801 seconds'],
    [
      'email_notifications_batching_period_seconds',
      1.5,
      'email_notifications_batching_period_seconds is not an integer',
    ],
    ['enter_sends', 'yes', 'enter_sends is not valid JSON'],
    ['high_contrast_mode', 1, 'high_contrast_mode is not a boolean'],
    ['web_font_size_px', -1, 'web_font_size_px is too small'],
  ])('refuses %s=%j with %j and changes nothing', async (name, value, msg) => {
    const user = world.user('shiva');
    const before = (await initialState(user.id)).user_settings;
    expectError(
      await world.as('shiva').patch('/settings', { [name]: value, enter_sends: name === 'enter_sends' ? value : true }),
      400,
      'BAD_REQUEST',
      msg,
    );
    expect((await initialState(user.id)).user_settings).toEqual(before);
  });

  it('accepts IANA aliases, the ends of the batching range, "none" and the languages the server has', async () => {
    for (const values of [
      { timezone: 'US/Pacific' },
      { timezone: 'Etc/GMT+5' },
      { email_notifications_batching_period_seconds: 1 },
      { email_notifications_batching_period_seconds: 604800 },
      { notification_sound: 'none' },
      { default_language: 'zh-hans' },
    ]) {
      expectSuccess(await world.as('desdemona').patch('/settings', values), 'PATCH', '/settings');
    }
    expect((await initialState(world.user('desdemona').id)).user_settings).toMatchObject({
      timezone: 'Etc/GMT+5',
      email_notifications_batching_period_seconds: 604800,
      notification_sound: 'none',
      default_language: 'zh-hans',
    });
  });

  it('does not accept bots', async () => {
    expectError(
      await world.as('default-bot').patch('/settings', { color_scheme: 2 }),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });

  it('requires authentication', async () => {
    const response = await world.anonymous().patch('/settings', { color_scheme: 2 });
    expectError(response, 401, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required');
  });
});

describe('initial state (GET /internal/users/{user_id}/initial-state)', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it("starts every user with Zulip's defaults and the server's limits", async () => {
    const state = await initialState(world.user('polonius').id);
    expect(state.user_settings).toMatchObject({
      twenty_four_hour_time: false,
      web_channel_default_view: 1,
      color_scheme: 1,
      default_language: 'en',
      web_home_view: 'inbox',
      emojiset: 'google',
      demote_inactive_streams: 1,
      user_list_style: 3,
      web_animate_image_previews: 'on_hover',
      web_stream_unreads_count_display_policy: 2,
      enable_drafts_synchronization: true,
      notification_sound: 'zulip',
      email_notifications_batching_period_seconds: 120,
      automatically_follow_topics_policy: 3,
      automatically_unmute_topics_in_muted_streams_policy: 2,
      receives_typing_notifications: true,
      send_read_receipts: true,
      timezone: '',
    });
    expect(state.user_settings.available_notification_sounds).toEqual(
      expect.arrayContaining(['zulip', 'ding', 'chime']),
    );
    expect(state.user_settings.emojiset_choices).toEqual([
      { key: 'google', text: 'Google' },
      { key: 'twitter', text: 'Twitter' },
      { key: 'text', text: 'Plain text' },
    ]);
    expect(state).toMatchObject({
      max_message_length: 10000,
      max_topic_length: 60,
      max_stream_name_length: 60,
      max_stream_description_length: 1024,
      zulip_feature_level: 496,
      realm_empty_topic_display_name: 'general chat',
      has_meetingprovider_token: false,
      meeting_provider: null,
      navigation_views: [],
    });
  });
});
