import type { ApiClient, World } from '@confab/devkit';
import { describesFlutterClass, flutterParseErrors, FLUTTER_COMMIT, FLUTTER_RELEASE } from './support/client-models';
import { EventQueue, expectRegistration, type ClientEvent } from './support/event-queues';
import { expectSuccess } from './support/expect';
import { newWorld } from './support/system';

/**
 * The Zulip Flutter app (zulip/zulip-flutter, at the commit in support/flutter-models.json) replayed against
 * Confab: its start-up requests with its exact parameters, and everyday changes arriving at the other user's queue.
 * Every answer and event is checked against what the app's generated parsers require (a missing required field or
 * a wrong type makes the app fail to load or drop the event).
 */

/** The app encodes every parameter as JSON (lib/api/core.dart, encodeParameters), strings included. */
const appParams = (params: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k, JSON.stringify(v)]));

/** lib/api/route/events.dart, registerQueue, as the app calls it (IdleQueueTimeout.mobile). */
const REGISTER = appParams({
  idle_queue_timeout: 'mobile',
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    include_deactivated_groups: true,
    empty_topic_name: true,
    individual_emoji_changes: true,
  },
});

const USER_AGENT = 'ZulipFlutter/30.0.260 (Android 14)';

/** Which generated parser the app applies to each event (lib/api/model/events.dart, Event.fromJson). */
function eventClass(event: ClientEvent): string {
  switch (event.type) {
    case 'message':
      return 'MessageEvent';
    case 'update_message':
      return 'UpdateMessageEvent';
    case 'delete_message':
      return 'DeleteMessageEvent';
    case 'reaction':
      return 'ReactionEvent';
    case 'typing':
      return 'TypingEvent';
    case 'presence':
      return 'PresenceEvent';
    case 'user_status':
      return 'UserStatusEvent';
    case 'update_message_flags':
      return event.op === 'add' ? 'UpdateMessageFlagsAddEvent' : 'UpdateMessageFlagsRemoveEvent';
    case 'user_topic':
      return 'UserTopicEvent';
    case 'stream':
      return event.op === 'update'
        ? 'ChannelUpdateEvent'
        : event.op === 'delete'
          ? 'ChannelDeleteEvent'
          : 'ChannelCreateEvent';
    case 'subscription':
      return event.op === 'update'
        ? 'SubscriptionUpdateEvent'
        : `Subscription${event.op === 'add' ? 'Add' : 'Remove'}Event`;
    default:
      throw new Error(`no parser named for ${event.type}`);
  }
}

/** The event parses in the app; messages also as the stream or direct message they are. */
function expectParsable(event: ClientEvent): void {
  const name = eventClass(event);
  expect(describesFlutterClass(name)).toBe(true);
  expect(flutterParseErrors(name, event)).toEqual([]);
  if (event.type === 'message') {
    // MessageEvent._readMessageValue moves the event's `flags` into the message before parsing it.
    const message: Record<string, unknown> = { ...(event.message as Record<string, unknown>), flags: event.flags };
    const kind = message.type === 'stream' ? 'StreamMessage' : 'DmMessage';
    expect(flutterParseErrors(kind, message)).toEqual([]);
    if (kind === 'StreamMessage')
      expect(message).toMatchObject({ stream_id: expect.any(Number), subject: expect.any(String) });
  }
  if (event.type === 'update_message') {
    // UpdateMessageMoveData.tryParseFromJson: a move names its channel, old topic and propagate mode together.
    const moved = event.new_stream_id !== undefined || event.subject !== undefined;
    if (moved)
      expect(event).toMatchObject({
        stream_id: expect.any(Number),
        orig_subject: expect.any(String),
        propagate_mode: expect.any(String),
      });
    else expect(event.propagate_mode).toBeUndefined();
  }
}

/** Polls as the app does and returns the first event matching `match`, each one checked against its parser. */
async function arrives(queue: EventQueue, match: (e: ClientEvent) => boolean): Promise<ClientEvent> {
  const event = await queue.next(match);
  for (const seen of queue.seen) if (seen.type !== 'heartbeat') expectParsable(seen);
  return event;
}

describe(`the Zulip Flutter app (zulip-flutter ${FLUTTER_COMMIT.slice(0, 10)} and release ${FLUTTER_RELEASE}) against Confab`, () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  /** Logs in as the app does: server settings, then a key for the password, then the queue. */
  async function startApp(name: 'hamlet' | 'othello'): Promise<{ client: ApiClient; queue: EventQueue }> {
    const anonymous = world.anonymous();
    const settings = await anonymous.get('/server_settings', {}, { headers: { 'user-agent': USER_AGENT } });
    expectSuccess(settings, 'GET', '/server_settings');
    expect(flutterParseErrors('GetServerSettingsResult', settings.body)).toEqual([]);

    const user = world.user(name);
    const login = await anonymous.post(
      '/fetch_api_key',
      { username: user.email, password: 'confab-dev' },
      { headers: { 'user-agent': USER_AGENT } },
    );
    expectSuccess(login, 'POST', '/fetch_api_key');
    expect(flutterParseErrors('FetchApiKeyResult', login.body)).toEqual([]);
    const client = anonymous.withCredentials(login.body.email as string, login.body.api_key as string);

    const response = await client.post('/register', REGISTER, { headers: { 'user-agent': USER_AGENT } });
    expectRegistration(response);
    expect(flutterParseErrors('InitialSnapshot', response.body)).toEqual([]);
    return { client, queue: new EventQueue(client, response.body.queue_id as string, response.body) };
  }

  it('loads: /server_settings, /fetch_api_key and /register answer everything its parsers require', async () => {
    // The description is the app's, not an empty one: an empty snapshot fails on dozens of required fields.
    expect(flutterParseErrors('InitialSnapshot', {}).length).toBeGreaterThan(30);
    const { queue } = await startApp('hamlet');
    const state = queue.registration;
    // Spot checks that the data is the organization's, not just well-typed.
    expect((state.realm_users as { email: string }[]).map((u) => u.email)).toContain(world.user('othello').email);
    expect((state.subscriptions as { name: string }[]).map((s) => s.name)).toContain('Verona');
    expect(state.realm_name).toEqual(expect.any(String));
    expect(state.user_settings).toMatchObject({ emojiset: expect.any(String), presence_enabled: expect.any(Boolean) });
    // Every parameter it sends is one Confab understands (idle_queue_timeout "mobile" included).
    expect(state.ignored_parameters_unsupported).toBeUndefined();
    await queue.delete();
  });

  it('lives: what one user does reaches the other’s app as events it parses', async () => {
    const hamlet = await startApp('hamlet');
    const othello = await startApp('othello');
    const verona = (await hamlet.client.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;

    const sent = await hamlet.client.post('/messages', {
      type: 'stream',
      to: JSON.stringify(verona),
      topic: 'from the app',
      content: 'hello from Flutter',
    });
    const id = sent.body.id as number;
    await arrives(othello.queue, (e) => e.type === 'message' && e.message.id === id);

    expectSuccess(
      await hamlet.client.patch(`/messages/${id}`, { content: 'edited in Flutter' }),
      'PATCH',
      `/messages/${id}`,
    );
    await arrives(othello.queue, (e) => e.type === 'update_message' && e.message_id === id && e.content !== undefined);
    expectSuccess(
      await hamlet.client.patch(`/messages/${id}`, { topic: 'renamed', propagate_mode: 'change_all' }),
      'PATCH',
      `/messages/${id}`,
    );
    await arrives(othello.queue, (e) => e.type === 'update_message' && e.message_id === id && e.subject === 'renamed');

    await hamlet.client.post(`/messages/${id}/reactions`, { emoji_name: 'octopus' });
    await arrives(othello.queue, (e) => e.type === 'reaction' && e.message_id === id);
    // Zulip's extra emoji as the app sends it: the event and the message's reactions carry Zulip's type name, the
    // only one the app's Reaction parser (and so its message list) accepts.
    await hamlet.client.post(`/messages/${id}/reactions`, {
      emoji_name: 'zulip',
      emoji_code: 'zulip',
      reaction_type: 'zulip_extra_emoji',
    });
    const extra = await arrives(othello.queue, (e) => e.type === 'reaction' && e.emoji_name === 'zulip');
    expect(extra.reaction_type).toBe('zulip_extra_emoji');
    const fetched = await othello.client.get(`/messages/${id}`, {}, { headers: { 'user-agent': USER_AGENT } });
    const reactions = fetched.body.message.reactions as Record<string, unknown>[];
    expect(reactions.map((r) => r.reaction_type).sort()).toEqual(['unicode_emoji', 'zulip_extra_emoji']);
    for (const reaction of reactions) expect(flutterParseErrors('Reaction', reaction)).toEqual([]);

    await othello.client.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' });
    await arrives(othello.queue, (e) => e.type === 'update_message_flags' && e.messages.includes(id));
    await othello.client.post('/messages/flags', { messages: JSON.stringify([id]), op: 'remove', flag: 'read' });
    await arrives(othello.queue, (e) => e.type === 'update_message_flags' && e.op === 'remove');

    await hamlet.client.post('/typing', { type: 'stream', op: 'start', stream_id: verona, topic: 'renamed' });
    await arrives(othello.queue, (e) => e.type === 'typing' && e.op === 'start');

    await hamlet.client.post('/users/me/presence', { status: 'active', slim_presence: true });
    await arrives(othello.queue, (e) => e.type === 'presence' && e.user_id === world.user('hamlet').id);
    await hamlet.client.post('/users/me/status', { status_text: 'on the train', emoji_name: 'train' });
    await arrives(othello.queue, (e) => e.type === 'user_status' && e.user_id === world.user('hamlet').id);

    const dm = await othello.client.post('/messages', {
      type: 'direct',
      to: JSON.stringify([world.user('hamlet').id]),
      content: 'a direct one',
    });
    await arrives(hamlet.queue, (e) => e.type === 'message' && e.message.id === dm.body.id);

    // Channel and subscription settings.
    expectSuccess(
      await world.as('iago').patch(`/streams/${verona}`, { description: 'Fair **Verona**' }),
      'PATCH',
      `/streams/${verona}`,
    );
    await arrives(othello.queue, (e) => e.type === 'stream' && e.property === 'description');
    await othello.client.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([{ stream_id: verona, property: 'color', value: '#76ce90' }]),
    });
    await arrives(othello.queue, (e) => e.type === 'subscription' && e.property === 'color');

    expectSuccess(await hamlet.client.delete(`/messages/${id}`), 'DELETE', `/messages/${id}`);
    await arrives(othello.queue, (e) => e.type === 'delete_message' && (e.message_ids as number[]).includes(id));

    await hamlet.queue.delete();
    await othello.queue.delete();
  });
});
