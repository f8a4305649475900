import http from 'node:http';
import type { World } from '@confab/devkit';
import { newWorld } from './support/system';

/** The parts of zulip-js (a real Zulip client, without type declarations) that this test uses. */
interface ZulipClient {
  messages: {
    send(params: Record<string, unknown>): Promise<Record<string, any>>;
    render(params: Record<string, unknown>): Promise<Record<string, any>>;
    retrieve(params: Record<string, unknown>): Promise<Record<string, any>>;
    getById(params: Record<string, unknown>): Promise<Record<string, any>>;
    update(params: Record<string, unknown>): Promise<Record<string, any>>;
    getHistoryById(params: Record<string, unknown>): Promise<Record<string, any>>;
    deleteById(params: Record<string, unknown>): Promise<Record<string, any>>;
    flags: { add(params: Record<string, unknown>): Promise<Record<string, any>> };
  };
  reactions: {
    add(params: Record<string, unknown>): Promise<Record<string, any>>;
    remove(params: Record<string, unknown>): Promise<Record<string, any>>;
  };
  streams: {
    retrieve(params?: Record<string, unknown>): Promise<Record<string, any>>;
    getStreamId(name: string): Promise<Record<string, any>>;
    subscriptions: { retrieve(): Promise<Record<string, any>> };
    topics: { retrieve(params: Record<string, unknown>): Promise<Record<string, any>> };
  };
  queues: {
    register(params: Record<string, unknown>): Promise<Record<string, any>>;
    deregister(params: Record<string, unknown>): Promise<Record<string, any>>;
  };
  events: { retrieve(params: Record<string, unknown>): Promise<Record<string, any>> };
  users: {
    retrieve(params?: Record<string, unknown>): Promise<Record<string, any>>;
    me: { getProfile(): Promise<Record<string, any>> };
  };
  typing: { send(params: Record<string, unknown>): Promise<Record<string, any>> };
  server: { settings(): Promise<Record<string, any>> };
  emojis: { retrieve(): Promise<Record<string, any>> };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const zulipInit = require('zulip-js') as (config: {
  username: string;
  apiKey: string;
  realm: string;
}) => Promise<ZulipClient>;

/** zulip-js 2.1.0, the release on npm (pinned in tests/e2e/package.json), run as it is. */
describe('zulip-js 2.1.0 against Confab', () => {
  let world: World;
  let originalAgent: http.Agent;
  beforeAll(async () => {
    world = await newWorld();
    // Organizations are told apart by subdomain: `<subdomain>.localhost` must reach the gateway on this machine.
    originalAgent = http.globalAgent;
    http.globalAgent = new http.Agent({
      lookup: (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
        options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4),
    } as http.AgentOptions);
  });
  afterAll(() => {
    http.globalAgent = originalAgent;
  });

  it('sends, renders, reacts, reads, edits, moves and deletes', async () => {
    const hamlet = world.user('hamlet');
    const client = await zulipInit({ username: hamlet.email, apiKey: hamlet.apiKey, realm: world.realm.url });

    const subscriptions = await client.streams.subscriptions.retrieve();
    expect(subscriptions.result).toBe('success');
    expect((subscriptions.subscriptions as { name: string }[]).map((s) => s.name)).toContain('Verona');

    const sent = await client.messages.send({
      to: 'Verona',
      type: 'stream',
      topic: 'zulip-js',
      content: 'Hello from **zulip-js** :octopus:',
    });
    expect(sent).toMatchObject({ result: 'success', msg: '', id: expect.any(Number) });

    const rendered = await client.messages.render({ content: '**bold** and `code`' });
    expect(rendered).toMatchObject({
      result: 'success',
      rendered: '<p><strong>bold</strong> and <code>code</code></p>',
    });

    const reacted = await client.reactions.add({ message_id: sent.id, emoji_name: 'octopus' });
    expect(reacted.result).toBe('success');

    const starred = await client.messages.flags.add({ messages: [sent.id], flag: 'starred' });
    expect(starred.result).toBe('success');

    const retrieved = await client.messages.retrieve({
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      narrow: [
        { operator: 'stream', operand: 'Verona' },
        { operator: 'topic', operand: 'zulip-js' },
      ],
    });
    expect(retrieved.result).toBe('success');
    expect(retrieved.messages).toHaveLength(1);
    expect(retrieved.messages[0]).toMatchObject({
      id: sent.id,
      content:
        '<p>Hello from <strong>zulip-js</strong> <span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span></p>',
      reactions: [{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: hamlet.id }],
      flags: expect.arrayContaining(['starred']),
    });

    const single = await client.messages.getById({ message_id: sent.id });
    expect(single).toMatchObject({ result: 'success', raw_content: 'Hello from **zulip-js** :octopus:' });

    const edited = await client.messages.update({ message_id: sent.id, content: 'Edited from **zulip-js**' });
    expect(edited).toMatchObject({ result: 'success', msg: '', detached_uploads: [] });
    const moved = await client.messages.update({ message_id: sent.id, topic: 'zulip-js edits' });
    expect(moved.result).toBe('success');
    const after = await client.messages.getById({ message_id: sent.id });
    expect(after).toMatchObject({
      raw_content: 'Edited from **zulip-js**',
      message: { subject: 'zulip-js edits', last_edit_timestamp: expect.any(Number) },
    });
    const history = await client.messages.getHistoryById({ message_id: sent.id });
    expect(history.result).toBe('success');
    expect(history.message_history).toEqual([
      expect.objectContaining({ content: 'Hello from **zulip-js** :octopus:', topic: 'zulip-js' }),
      expect.objectContaining({
        prev_content: 'Hello from **zulip-js** :octopus:',
        content: 'Edited from **zulip-js**',
        topic: 'zulip-js',
      }),
      expect.objectContaining({ prev_topic: 'zulip-js', topic: 'zulip-js edits', content: 'Edited from **zulip-js**' }),
    ]);

    const unreacted = await client.reactions.remove({ message_id: sent.id, emoji_name: 'octopus' });
    expect(unreacted.result).toBe('success');

    const deleted = await client.messages.deleteById({ message_id: sent.id });
    expect(deleted.result).toBe('success');
    const gone = await client.messages.getById({ message_id: sent.id });
    expect(gone).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' });
  });

  it('registers a queue and follows it; reads users, channels, topics, emoji and the server settings', async () => {
    const hamlet = world.user('hamlet');
    const client = await zulipInit({ username: hamlet.email, apiKey: hamlet.apiKey, realm: world.realm.url });
    const othello = await zulipInit({
      username: world.user('othello').email,
      apiKey: world.user('othello').apiKey,
      realm: world.realm.url,
    });

    const queue = await othello.queues.register({ event_types: ['message', 'reaction', 'typing'] });
    expect(queue).toMatchObject({ result: 'success', queue_id: expect.any(String), last_event_id: -1 });
    const sent = await client.messages.send({ to: 'Verona', type: 'stream', topic: 'zulip-js queue', content: 'hi' });
    await client.reactions.add({ message_id: sent.id, emoji_name: 'zulip' });
    let lastEventId = queue.last_event_id as number;
    const events: Record<string, any>[] = [];
    while (!events.some((e) => e.type === 'reaction')) {
      const answer = await othello.events.retrieve({ queue_id: queue.queue_id, last_event_id: lastEventId });
      expect(answer.result).toBe('success');
      for (const event of answer.events as Record<string, any>[]) lastEventId = Math.max(lastEventId, event.id);
      events.push(...(answer.events as Record<string, any>[]).filter((e) => e.type !== 'heartbeat'));
    }
    expect(events.find((e) => e.type === 'message')?.message).toMatchObject({ id: sent.id, subject: 'zulip-js queue' });
    expect(events.find((e) => e.type === 'reaction')).toMatchObject({
      message_id: sent.id,
      emoji_name: 'zulip',
      reaction_type: 'zulip_extra_emoji',
      user: { user_id: hamlet.id, email: hamlet.email },
    });
    expect(await othello.queues.deregister({ queue_id: queue.queue_id })).toMatchObject({ result: 'success' });

    expect(await client.users.me.getProfile()).toMatchObject({ result: 'success', user_id: hamlet.id });
    const users = await client.users.retrieve();
    expect((users.members as { email: string }[]).map((u) => u.email)).toContain(world.user('othello').email);
    const streamId = await client.streams.getStreamId('Verona');
    expect(streamId).toMatchObject({ result: 'success', stream_id: expect.any(Number) });
    const streams = await client.streams.retrieve();
    expect((streams.streams as { name: string }[]).map((c) => c.name)).toContain('Verona');
    const topics = await client.streams.topics.retrieve({ stream_id: streamId.stream_id });
    expect((topics.topics as { name: string }[]).map((t) => t.name)).toContain('zulip-js queue');
    expect(await client.typing.send({ to: [world.user('othello').id], op: 'start' })).toMatchObject({
      result: 'success',
    });
    expect(await client.emojis.retrieve()).toMatchObject({ result: 'success', emoji: expect.any(Object) });
    expect(await client.server.settings()).toMatchObject({ result: 'success', zulip_version: expect.any(String) });
  });
});
