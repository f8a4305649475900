import type { ApiClient, ApiResponse, World } from '@confab/devkit';
import { EventQueue, expectRegistration } from './support/event-queues';
import { newWorld } from './support/system';

/**
 * The python `zulip` package 0.9.1 and the bots of `zulip_bots` 0.9.1 (tag 0.9.1 of zulip/python-zulip-api),
 * replayed against Confab: each Client method's request as zulip/zulip/__init__.py encodes it (do_api_query: strings
 * as they are, every other value JSON-encoded; GET in the query string, other methods as a form), and the bot
 * runner's flow (zulip_bots/lib.py: get_profile, call_on_each_event(["message"]), send_reply with its
 * widget_content, react, update_message, the StateHandler's bot_storage).
 */

const USER_AGENT = 'ZulipPython/0.9.1';
const headers = { 'user-agent': USER_AGENT };

/** Client.call_endpoint: the method, the path under /api/v1 and the request dict as the method builds it. */
async function call(client: ApiClient, method: string, path: string, request: Record<string, unknown> = {}) {
  if (method === 'GET') return client.get(path, request, { headers });
  return client.request(method, path, request, { headers });
}

function expectOk(name: string, response: ApiResponse): void {
  expect({ method: name, status: response.status, result: response.body.result, msg: response.body.msg }).toEqual({
    method: name,
    status: 200,
    result: 'success',
    msg: '',
  });
}

describe('python zulip 0.9.1 against Confab', () => {
  let world: World;
  let iago: ApiClient;
  beforeAll(async () => {
    world = await newWorld();
    iago = world.as('iago');
  });

  it('answers every everyday Client method as 0.9.1 sends it', async () => {
    const me = world.user('iago');
    const othello = world.user('othello');
    // Othello is online, so get_user_presence has his presence to answer (Zulip refuses a user without any).
    await world.as('othello').post('/users/me/presence', { status: 'active' });
    const verona = (await call(iago, 'GET', '/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
    const sent = await call(iago, 'POST', '/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'python',
      content: 'see https://example.com',
    });
    expectOk('send_message', sent);
    const id = sent.body.id as number;
    const reaction = { message_id: id, emoji_name: 'joy', emoji_code: '1f602', reaction_type: 'unicode_emoji' };

    const methods: [string, string, string, Record<string, unknown>?][] = [
      [
        'get_messages',
        'GET',
        '/messages',
        {
          anchor: 'newest',
          num_before: 5,
          num_after: 0,
          narrow: [{ operator: 'stream', operand: 'Verona' }],
        },
      ],
      [
        'check_messages_match_narrow',
        'GET',
        '/messages/matches_narrow',
        {
          msg_ids: [id],
          narrow: [{ operator: 'has', operand: 'link' }],
        },
      ],
      ['get_raw_message', 'GET', `/messages/${id}`],
      ['get_attachments', 'GET', '/attachments'],
      ['update_message', 'PATCH', `/messages/${id}`, { message_id: id, content: 'see https://example.com !' }],
      ['update_message_flags', 'POST', '/messages/flags', { messages: [id], op: 'add', flag: 'starred' }],
      ['mark_all_as_read', 'POST', '/mark_all_as_read'],
      ['mark_stream_as_read', 'POST', '/mark_stream_as_read', { stream_id: verona }],
      ['mark_topic_as_read', 'POST', '/mark_topic_as_read', { stream_id: verona, topic_name: 'python' }],
      ['get_message_history', 'GET', `/messages/${id}/history`],
      ['add_reaction', 'POST', `/messages/${id}/reactions`, reaction],
      ['remove_reaction', 'DELETE', `/messages/${id}/reactions`, reaction],
      ['get_realm_emoji', 'GET', '/realm/emoji'],
      ['get_realm_linkifiers', 'GET', '/realm/linkifiers'],
      ['get_realm_profile_fields', 'GET', '/realm/profile_fields'],
      ['get_server_settings', 'GET', '/server_settings'],
      ['get_profile', 'GET', '/users/me'],
      ['get_user_presence', 'GET', `/users/${othello.email}/presence`],
      ['get_realm_presence', 'GET', '/realm/presence'],
      ['update_presence', 'POST', '/users/me/presence', { status: 'active', ping_only: false, new_user_input: false }],
      ['get_streams', 'GET', '/streams', { include_public: true }],
      ['update_stream', 'PATCH', `/streams/${verona}`, { stream_id: verona, description: 'Verona, from python' }],
      ['get_user_by_id', 'GET', `/users/${othello.id}`, { include_custom_profile_fields: true }],
      ['get_users', 'GET', '/users'],
      ['get_members', 'GET', '/users', { client_gravatar: false }],
      ['get_alert_words', 'GET', '/users/me/alert_words'],
      ['add_alert_words', 'POST', '/users/me/alert_words', { alert_words: ['python', 'snake'] }],
      ['remove_alert_words', 'DELETE', '/users/me/alert_words', { alert_words: ['snake'] }],
      ['get_subscriptions', 'GET', '/users/me/subscriptions', { include_subscribers: true }],
      ['add_subscriptions', 'POST', '/users/me/subscriptions', { subscriptions: [{ name: 'python new' }] }],
      ['remove_subscriptions', 'DELETE', '/users/me/subscriptions', { subscriptions: ['python new'] }],
      ['get_subscription_status', 'GET', `/users/${me.id}/subscriptions/${verona}`],
      ['mute_topic', 'PATCH', '/users/me/subscriptions/muted_topics', { stream: 'Verona', topic: 'python', op: 'add' }],
      [
        'update_subscription_settings',
        'POST',
        '/users/me/subscriptions/properties',
        {
          subscription_data: [
            { stream_id: verona, property: 'pin_to_top', value: true },
            { stream_id: verona, property: 'color', value: '#f00f00' },
          ],
        },
      ],
      ['update_notification_settings', 'PATCH', '/settings/notifications', { enable_stream_push_notifications: true }],
      ['get_stream_id', 'GET', '/get_stream_id', { stream: 'Verona' }],
      ['get_stream_topics', 'GET', `/users/me/${verona}/topics`],
      ['get_user_groups', 'GET', '/user_groups'],
      [
        'create_user_group',
        'POST',
        '/user_groups/create',
        {
          name: 'pythonistas',
          description: 'Members of the python package test.',
          members: [me.id, othello.id],
        },
      ],
      ['get_subscribers', 'GET', `/streams/${verona}/members`, { stream: 'Verona' }],
      ['render_message', 'POST', '/messages/render', { content: 'foo **bar**' }],
      ['set_typing_status', 'POST', '/typing', { op: 'start', to: [othello.id] }],
      ['set_typing_status (stop)', 'POST', '/typing', { op: 'stop', to: [othello.id] }],
    ];
    for (const [name, method, path, request] of methods) expectOk(name, await call(iago, method, path, request));

    const match = await call(iago, 'GET', '/messages/matches_narrow', {
      msg_ids: [id],
      narrow: [{ operator: 'has', operand: 'link' }],
    });
    expect(match.body.messages).toEqual({
      [String(id)]: { match_content: expect.stringContaining('https://example.com'), match_subject: 'python' },
    });

    const groups = (await call(iago, 'GET', '/user_groups')).body.user_groups as { id: number; name: string }[];
    const group = groups.find((g) => g.name === 'pythonistas')!;
    expectOk(
      'update_user_group',
      await call(iago, 'PATCH', `/user_groups/${group.id}`, { group_id: group.id, description: 'Renamed.' }),
    );
    expectOk(
      'update_user_group_members',
      await call(iago, 'POST', `/user_groups/${group.id}/members`, { delete: [othello.id], add: [] }),
    );

    // move_topic: get_stream_id for both channels, the newest message of the topic, then the move.
    const denmark = (await call(iago, 'GET', '/get_stream_id', { stream: 'Denmark' })).body.stream_id as number;
    const newest = await call(iago, 'GET', '/messages', {
      anchor: 'newest',
      narrow: [
        { operator: 'stream', operand: verona },
        { operator: 'topic', operand: 'python' },
      ],
      num_before: 1,
      num_after: 0,
    });
    expectOk('move_topic (get_messages)', newest);
    expectOk(
      'move_topic',
      await call(iago, 'PATCH', `/messages/${newest.body.messages[0].id}`, {
        message_id: newest.body.messages[0].id,
        propagate_mode: 'change_all',
        send_notification_to_old_thread: true,
        send_notification_to_new_thread: true,
        stream_id: denmark,
        topic: 'python moved',
      }),
    );
    expectOk('delete_message', await call(iago, 'DELETE', `/messages/${id}`));
  });

  it('registers, polls and deregisters as call_on_each_message and call_on_each_event do', async () => {
    const othello = world.as('othello');
    // call_on_each_event(callback) without event types: register(None, None) sends both as JSON null.
    const all = await call(othello, 'POST', '/register', { event_types: null, narrow: null });
    expectRegistration(all);
    expectOk('deregister', await call(othello, 'DELETE', '/events', { queue_id: all.body.queue_id }));
    // call_on_each_message: register(["message"], []).
    const response = await call(othello, 'POST', '/register', { event_types: ['message'], narrow: [] });
    expectRegistration(response);
    const queue = new EventQueue(othello, response.body.queue_id as string, response.body);
    await call(iago, 'POST', '/messages', { type: 'private', to: [world.user('othello').id], content: 'ping' });
    const event = await queue.next((e) => e.type === 'message');
    expect(event.message).toMatchObject({ content: 'ping', type: 'private' });
    expectOk(
      'get_events',
      await call(othello, 'GET', '/events', { queue_id: queue.queueId, last_event_id: event.id, dont_block: true }),
    );
    expectOk('deregister', await call(othello, 'DELETE', '/events', { queue_id: queue.queueId }));
  });
});

describe('zulip_bots 0.9.1 against Confab', () => {
  let world: World;
  let bot: ApiClient;
  beforeAll(async () => {
    world = await newWorld();
    bot = world.as('default-bot');
  });

  it('runs a bot: profile, its message queue, replies, reactions, edits and storage', async () => {
    // ExternalBotHandler.__init__: get_profile, and the identity it reads.
    const profile = await call(bot, 'GET', '/users/me');
    expectOk('get_profile', profile);
    expect(profile.body).toMatchObject({
      user_id: expect.any(Number),
      full_name: expect.any(String),
      email: expect.any(String),
    });
    // run_message_handler_for_bot: call_on_each_event(event_callback, ["message"]).
    const registration = await call(bot, 'POST', '/register', { event_types: ['message'], narrow: [] });
    expectRegistration(registration);
    const queue = new EventQueue(bot, registration.body.queue_id as string, registration.body);

    const hamlet = world.as('hamlet');
    const botUser = world.user('default-bot');
    await hamlet.post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'bots',
      content: `@**${botUser.fullName}** hello`,
    });
    const inStream = (await queue.next((e) => e.type === 'message' && e.message.type === 'stream')).message;
    expect(inStream).toMatchObject({
      display_recipient: 'Verona',
      subject: 'bots',
      sender_email: world.user('hamlet').email,
    });
    // helloworld / converter / virtual_fs: send_reply in the stream, widget_content None sent as JSON null.
    const reply = await call(bot, 'POST', '/messages', {
      type: 'stream',
      to: inStream.display_recipient,
      subject: inStream.subject,
      content: 'beep boop',
      widget_content: null,
    });
    expectOk('send_reply (stream)', reply);
    // followup: a message to another channel.
    expectOk(
      'send_message (followup)',
      await call(bot, 'POST', '/messages', {
        type: 'stream',
        to: 'Denmark',
        subject: 'followup',
        content: 'from hamlet: hello',
      }),
    );
    // react (add_reaction as the handler builds it).
    expectOk(
      'react',
      await call(bot, 'POST', `/messages/${inStream.id}/reactions`, {
        message_id: inStream.id,
        emoji_name: 'thumbs_up',
        reaction_type: 'unicode_emoji',
      }),
    );
    // incrementor: its own message edited on each increment.
    expectOk(
      'update_message (incrementor)',
      await call(bot, 'PATCH', `/messages/${reply.body.id}`, { message_id: reply.body.id, content: '2' }),
    );
    // A direct message, answered directly: send_reply to the display_recipient's ids.
    await hamlet.post('/messages', { type: 'private', to: [botUser.id], content: 'help' });
    const direct = (await queue.next((e) => e.type === 'message' && e.message.type === 'private')).message;
    const to = (direct.display_recipient as { id: number }[]).map((r) => r.id);
    expectOk(
      'send_reply (private)',
      await call(bot, 'POST', '/messages', { type: 'private', to, content: 'ok', widget_content: null }),
    );

    // StateHandler.put / get: values JSON-marshalled into the storage dict, keys read back by name.
    expectOk('update_storage', await call(bot, 'PUT', '/bot_storage', { storage: { number: JSON.stringify(2) } }));
    expectOk(
      'update_storage',
      await call(bot, 'PUT', '/bot_storage', { storage: { message_id: JSON.stringify(reply.body.id) } }),
    );
    const stored = await call(bot, 'GET', '/bot_storage', { keys: ['number', 'message_id'] });
    expectOk('get_storage', stored);
    expect(stored.body.storage).toEqual({ number: '2', message_id: String(reply.body.id) });
    // A key never stored is an error the handler turns into KeyError.
    expect((await call(bot, 'GET', '/bot_storage', { keys: ['missing'] })).body.result).toBe('error');
    await queue.delete();
  });
});
