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
  streams: { subscriptions: { retrieve(): Promise<Record<string, any>> } };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const zulipInit = require('zulip-js') as (config: {
  username: string;
  apiKey: string;
  realm: string;
}) => Promise<ZulipClient>;

describe('zulip-js against Confab', () => {
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
});
