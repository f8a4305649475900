import type { ApiClient, World } from '@confab/devkit';
import { EventQueue, expectRegistration } from './support/event-queues';
import { expectSuccess } from './support/expect';
import { newWorld } from './support/system';

/**
 * zulip-terminal 0.7.0 (the release package managers install; tag 0.7.0 of zulip/zulip-terminal), replayed as it
 * talks through the python `zulip` package 0.9.1 (values that are not strings JSON-encoded; GET in the query,
 * everything else as a form). From zulipterminal/model.py at the tag: its start-up (`_fetch_initial_data`:
 * /register with `fetch_event_types`, and the first GET /messages), what it reads of the answer with the types it
 * uses, its later registrations (`fetch_event_types` None, sent as "null") and the event handlers it runs, and the
 * requests of its everyday actions. It declares no client capabilities, so it reads the deprecated forms.
 */

const USER_AGENT = 'ZulipTerminal/0.7.0 ZulipPython/0.9.1';

/** Model.event_actions, in order. */
const EVENT_TYPES = [
  'message',
  'update_message',
  'reaction',
  'subscription',
  'typing',
  'update_message_flags',
  'update_global_notifications',
  'update_display_settings',
  'user_settings',
  'realm_emoji',
];
/** Model.initial_data_to_fetch. */
const FETCH_EVENT_TYPES = [
  'realm',
  'presence',
  'subscription',
  'message',
  'starred_messages',
  'update_message_flags',
  'muted_topics',
  'realm_user',
  'realm_user_groups',
  'update_global_notifications',
  'update_display_settings',
  'user_settings',
  'realm_emoji',
  'zulip_version',
];
/** python `zulip`'s register(event_types, narrow=None, **kwargs) as Model._register_desired_events calls it. */
const register = (fetch: string[] | null) => ({
  event_types: JSON.stringify(EVENT_TYPES),
  narrow: '[]',
  fetch_event_types: JSON.stringify(fetch),
  client_gravatar: 'true',
  apply_markdown: 'true',
  include_subscribers: 'true',
});

const type = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

describe('zulip-terminal 0.7.0 against Confab', () => {
  let world: World;
  let hamlet: ApiClient;
  beforeAll(async () => {
    world = await newWorld();
    hamlet = world.as('hamlet');
  });
  const headers = { 'user-agent': USER_AGENT };

  it('starts: /register has every key model.py reads, the legacy settings at the top level', async () => {
    expectSuccess(
      await world.as('othello').post('/users/me/presence', { status: 'active', new_user_input: 'true' }),
      'POST',
      '/users/me/presence',
    );
    // Model.get_messages(num_after=10, num_before=30, anchor=None), sent beside the registration.
    const [response, messages] = await Promise.all([
      hamlet.post('/register', register(FETCH_EVENT_TYPES), { headers }),
      hamlet.get(
        '/messages',
        {
          anchor: '0',
          num_before: '30',
          num_after: '10',
          apply_markdown: 'true',
          use_first_unread_anchor: 'true',
          client_gravatar: 'true',
          narrow: '[]',
        },
        { headers },
      ),
    ]);
    expectSuccess(messages, 'GET', '/messages');
    expect(messages.body).toMatchObject({ anchor: expect.any(Number), found_newest: expect.any(Boolean) });
    expectRegistration(response);
    const state = response.body;
    const expected: Record<string, string> = {
      zulip_version: 'string',
      zulip_feature_level: 'number',
      max_message_id: 'number',
      queue_id: 'string',
      last_event_id: 'number',
      user_id: 'number',
      email: 'string',
      full_name: 'string',
      realm_name: 'string',
      presences: 'object',
      realm_users: 'array',
      cross_realm_bots: 'array',
      subscriptions: 'array',
      muted_topics: 'array',
      realm_user_groups: 'array',
      realm_emoji: 'object',
      unread_msgs: 'object',
      user_settings: 'object',
      // Model.__init__ reads these two at the top level: Zulip sends them there without user_settings_object.
      twenty_four_hour_time: 'boolean',
      pm_content_in_desktop_notifications: 'boolean',
      max_topic_length: 'number',
      max_message_length: 'number',
    };
    expect(Object.fromEntries(Object.keys(expected).map((key) => [key, type(state[key])]))).toEqual(expected);
    expect(['null', 'number']).toContain(type(state.realm_message_retention_days));
    expect(state.user_settings.send_private_typing_notifications).toEqual(expect.any(Boolean));
    // The rest of the legacy keys its update_display_settings / update_global_notifications ask for.
    expect(state).toMatchObject({
      color_scheme: expect.any(Number),
      default_language: expect.any(String),
      timezone: expect.any(String),
      emojiset_choices: expect.any(Array),
      enable_sounds: expect.any(Boolean),
      available_notification_sounds: expect.any(Array),
    });
    for (const sub of state.subscriptions as Record<string, unknown>[]) {
      expect(sub).toMatchObject({
        stream_id: expect.any(Number),
        name: expect.any(String),
        color: expect.any(String),
        description: expect.any(String),
        pin_to_top: expect.any(Boolean),
        in_home_view: expect.any(Boolean),
        invite_only: expect.any(Boolean),
        subscribers: expect.any(Array),
        // Without notification_settings_null these are booleans: the user's defaults where the channel inherits.
        desktop_notifications: expect.any(Boolean),
        audible_notifications: expect.any(Boolean),
        push_notifications: expect.any(Boolean),
        email_notifications: expect.any(Boolean),
      });
      expect('message_retention_days' in sub).toBe(true);
    }
    const unread = state.unread_msgs as Record<string, unknown[]>;
    for (const key of ['pms', 'streams', 'huddles', 'mentions']) expect(unread[key]).toEqual(expect.any(Array));
    for (const [, emoji] of Object.entries(state.realm_emoji as Record<string, Record<string, unknown>>))
      expect(emoji.deactivated).toEqual(expect.any(Boolean));
    // get_user_info: presences by email, with the aggregated status and its timestamp.
    const othello = state.presences[world.user('othello').email];
    expect(othello.aggregated).toMatchObject({ status: expect.any(String), timestamp: expect.any(Number) });
  });

  it('follows: a reaction (with its deprecated user object), edits and setting changes reach its handlers', async () => {
    const othello = world.as('othello');
    // _register_desired_events() after a lost queue: fetch_event_types None, sent as JSON null.
    const response = await othello.post('/register', register(null), { headers });
    expectRegistration(response);
    const queue = new EventQueue(othello, response.body.queue_id as string, response.body);

    const sent = await hamlet.post('/messages', { type: 'stream', to: 'Verona', subject: 'terminal', content: 'hi' });
    expectSuccess(sent, 'POST', '/messages');
    const id = sent.body.id as number;
    const message = await queue.next((e) => e.type === 'message' && e.message.id === id);
    expect(message.message).toMatchObject({ display_recipient: 'Verona', subject: 'terminal', reactions: [] });

    // toggle_message_reaction: Zulip's extra emoji, as zulip-terminal's emoji data types it.
    const reaction = {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'zulip_extra_emoji',
      message_id: `${id}`,
    };
    expectSuccess(await hamlet.post(`/messages/${id}/reactions`, reaction), 'POST', '/messages/{message_id}/reactions');
    const added = await queue.next((e) => e.type === 'reaction' && e.message_id === id);
    // _handle_reaction_event reads event["user"], event["reaction_type"], event["emoji_code"], event["emoji_name"].
    expect(added).toMatchObject({
      op: 'add',
      user_id: world.user('hamlet').id,
      user: { user_id: world.user('hamlet').id, email: world.user('hamlet').email, full_name: expect.any(String) },
      reaction_type: 'zulip_extra_emoji',
      emoji_code: 'zulip',
      emoji_name: 'zulip',
    });
    expectSuccess(
      await hamlet.delete(`/messages/${id}/reactions`, reaction),
      'DELETE',
      '/messages/{message_id}/reactions',
    );
    expect(await queue.next((e) => e.type === 'reaction' && e.op === 'remove')).toMatchObject({
      user: { user_id: world.user('hamlet').id },
    });

    // update_stream_message: topic and content, with a propagate mode.
    expectSuccess(
      await hamlet.patch(`/messages/${id}`, {
        message_id: `${id}`,
        propagate_mode: 'change_one',
        topic: 'terminal 2',
        content: 'edited',
      }),
      'PATCH',
      '/messages/{message_id}',
    );
    const edit = await queue.next((e) => e.type === 'update_message' && e.message_id === id);
    expect(edit).toMatchObject({
      rendered_content: '<p>edited</p>',
      subject: 'terminal 2',
      orig_subject: 'terminal',
      stream_id: expect.any(Number),
      message_ids: [id],
    });

    // Othello changes settings elsewhere: the legacy events come with the modern one.
    expectSuccess(
      await othello.patch('/settings', { twenty_four_hour_time: 'true', pm_content_in_desktop_notifications: 'false' }),
      'PATCH',
      '/settings',
    );
    const display = await queue.next((e) => e.type === 'update_display_settings');
    expect(display).toMatchObject({ setting_name: 'twenty_four_hour_time', setting: true });
    const notifications = await queue.next((e) => e.type === 'update_global_notifications');
    expect(notifications).toMatchObject({ notification_name: 'pm_content_in_desktop_notifications', setting: false });
    expect(await queue.next((e) => e.type === 'user_settings')).toMatchObject({ op: 'update' });
    await queue.delete();
  });

  it('acts: its everyday requests as the python package encodes them', async () => {
    const verona = (await hamlet.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
    const othelloId = world.user('othello').id;
    const calls: [string, string, Record<string, unknown>][] = [
      ['POST', '/users/me/presence', { status: 'active', new_user_input: true }],
      ['POST', '/typing', { to: [othelloId], op: 'start' }],
      ['POST', '/messages', { type: 'private', to: [othelloId], content: 'psst' }],
      ['GET', `/users/me/${verona}/topics`, {}],
      [
        'POST',
        '/users/me/subscriptions/properties',
        {
          subscription_data: [{ stream_id: verona, property: 'pin_to_top', value: true }],
        },
      ],
      [
        'POST',
        '/users/me/subscriptions/properties',
        {
          subscription_data: [{ stream_id: verona, property: 'is_muted', value: false }],
        },
      ],
      [
        'POST',
        '/users/me/subscriptions/properties',
        {
          subscription_data: [{ stream_id: verona, property: 'desktop_notifications', value: true }],
        },
      ],
    ];
    for (const [method, path, params] of calls) {
      const answer =
        method === 'GET' ? await hamlet.get(path, params, { headers }) : await hamlet.post(path, params, { headers });
      expect({ call: `${method} ${path}`, status: answer.status, result: answer.body.result }).toEqual({
        call: `${method} ${path}`,
        status: 200,
        result: 'success',
      });
    }
    const sent = await hamlet.post('/messages', { type: 'stream', to: 'Verona', subject: 'acts', content: 'x' });
    const id = sent.body.id as number;
    expectSuccess(
      await hamlet.post('/messages/flags', { messages: [id], flag: 'starred', op: 'add' }),
      'POST',
      '/messages/flags',
    );
    expect((await hamlet.get(`/messages/${id}`)).body.raw_content).toBe('x');
    expect((await hamlet.get(`/messages/${id}/history`)).body.message_history).toHaveLength(1);
    // The presence answer it reads the user list from: keyed by email.
    const presence = await hamlet.post('/users/me/presence', { status: 'idle', new_user_input: false });
    expect(presence.body.presences[world.user('hamlet').email]).toBeDefined();
  });
});
