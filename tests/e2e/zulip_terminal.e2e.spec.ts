import type { World } from '@confab/devkit';
import { EventQueue, expectRegistration } from './support/event-queues';
import { expectSuccess } from './support/expect';
import { newWorld } from './support/system';

/**
 * zulip-terminal (zulip/zulip-terminal 97007b4, zulipterminal/model.py) replayed against Confab: its /register call
 * with its exact parameters (sent as the python `zulip` package encodes them: JSON for everything but strings), and
 * every key of the answer it reads at start-up, with the types it uses them as.
 */

const EVENT_TYPES = [
  'message',
  'update_message',
  'reaction',
  'submessage',
  'subscription',
  'typing',
  'update_message_flags',
  'user_settings',
  'realm_emoji',
  'realm_user',
];
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
  'user_settings',
  'realm_emoji',
  'custom_profile_fields',
  'zulip_version',
];
const REGISTER = {
  event_types: JSON.stringify(EVENT_TYPES),
  fetch_event_types: JSON.stringify(FETCH_EVENT_TYPES),
  client_gravatar: 'true',
  apply_markdown: 'true',
  include_subscribers: 'true',
};

const type = (value: unknown) => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

describe('zulip-terminal against Confab', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('starts: /register answers every key model.py reads, with the types it uses', async () => {
    // Othello is online, so the presence zulip-terminal aggregates by email is there to read.
    expectSuccess(
      await world.as('othello').post('/users/me/presence', { status: 'active' }),
      'POST',
      '/users/me/presence',
    );
    const response = await world.as('hamlet').post('/register', REGISTER, {
      headers: { 'user-agent': 'ZulipTerminal/0.7.0 ZulipPython/0.9.0' },
    });
    expectRegistration(response);
    const state = response.body;

    const expected: Record<string, string> = {
      queue_id: 'string',
      last_event_id: 'number',
      max_message_id: 'number',
      zulip_version: 'string',
      zulip_feature_level: 'number',
      user_id: 'number',
      email: 'string',
      full_name: 'string',
      presences: 'object',
      realm_users: 'array',
      cross_realm_bots: 'array',
      subscriptions: 'array',
      realm_user_groups: 'array',
      realm_name: 'string',
      realm_emoji: 'object',
      muted_topics: 'array',
      custom_profile_fields: 'array',
      starred_messages: 'array',
      unread_msgs: 'object',
      user_settings: 'object',
      realm_allow_edit_history: 'boolean',
      realm_allow_message_editing: 'boolean',
      server_presence_ping_interval_seconds: 'number',
      server_presence_offline_threshold_seconds: 'number',
    };
    const got = Object.fromEntries(Object.keys(expected).map((key) => [key, type(state[key])]));
    expect(got).toEqual(expected);
    // Read with [] too: null (organization keeps messages forever) or a number of days.
    expect(['null', 'number']).toContain(type(state.realm_message_retention_days));
    expect('realm_message_retention_days' in state).toBe(true);

    expect(state.user_settings).toMatchObject({
      twenty_four_hour_time: expect.any(Boolean),
      pm_content_in_desktop_notifications: expect.any(Boolean),
    });
    for (const user of state.realm_users as Record<string, unknown>[]) {
      expect(user).toMatchObject({
        user_id: expect.any(Number),
        email: expect.any(String),
        full_name: expect.any(String),
        is_bot: expect.any(Boolean),
      });
    }
    expect(state.user_id).toBe(world.user('hamlet').id);
    for (const sub of state.subscriptions as Record<string, unknown>[]) {
      expect(sub).toMatchObject({
        stream_id: expect.any(Number),
        name: expect.any(String),
        description: expect.any(String),
        color: expect.stringMatching(/^#[0-9a-f]{6}$/i),
        is_muted: expect.any(Boolean),
        pin_to_top: expect.any(Boolean),
        subscribers: expect.any(Array),
      });
      expect('desktop_notifications' in sub).toBe(true);
    }
    // Presence keyed by email, per client, with status and timestamp (not the slim form).
    const othello = state.presences[world.user('othello').email] as Record<string, Record<string, unknown>>;
    expect(othello).toBeDefined();
    const clients = Object.entries(othello).filter(([name]) => name !== 'aggregated');
    expect(clients.length).toBeGreaterThan(0);
    for (const [, client] of clients)
      expect(client).toMatchObject({ status: expect.any(String), timestamp: expect.any(Number) });
    expect(state.muted_topics).toEqual([]);

    // A muted topic appears in the deprecated form zulip-terminal reads: [channel name, topic, timestamp].
    const verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
    expectSuccess(
      await world.as('hamlet').post('/user_topics', { stream_id: verona, topic: 'noisy', visibility_policy: 1 }),
      'POST',
      '/user_topics',
    );
    const again = await world.as('hamlet').post('/register', REGISTER);
    expectRegistration(again);
    expect(again.body.muted_topics).toEqual([['Verona', 'noisy', expect.any(Number)]]);
  });

  it('follows: a message, its edit and a reaction arrive as the events it handles', async () => {
    const response = await world.as('othello').post('/register', REGISTER);
    expectRegistration(response);
    const queue = new EventQueue(world.as('othello'), response.body.queue_id as string, response.body);
    const sent = await world
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Verona', topic: 'terminal', content: 'for the terminal' });
    const id = sent.body.id as number;
    const message = await queue.next((e) => e.type === 'message' && e.message.id === id);
    expect(message.message).toMatchObject({ display_recipient: 'Verona', subject: 'terminal' });
    await world.as('hamlet').patch(`/messages/${id}`, { content: 'edited for the terminal' });
    const edit = await queue.next((e) => e.type === 'update_message' && e.message_id === id);
    expect(edit.rendered_content).toBe('<p>edited for the terminal</p>');
    await world.as('hamlet').post(`/messages/${id}/reactions`, { emoji_name: 'smile' });
    const reaction = await queue.next((e) => e.type === 'reaction' && e.message_id === id);
    expect(reaction).toMatchObject({ op: 'add', emoji_name: 'smile', user_id: world.user('hamlet').id });
    await queue.delete();
  });
});
