import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { World } from '@confab/devkit';
import { ALLOWED_TEST_HOST } from './support/global-setup';
import { EventQueue, type ClientEvent } from './support/event-queues';
import { expectSuccess } from './support/expect';
import { openApiErrors } from './support/openapi';
import { newWorld } from './support/system';

// Measured: about 30 s on the 2-core machine (one organization; the unreachable service is tried 4 times, 7 s apart in all).
jest.setTimeout(120_000);

/** One request a bot's service received. */
interface Received {
  path: string;
  contentType: string;
  userAgent: string;
  raw: string;
  /** The JSON body (Zulip's format) or the form fields (Slack's). */
  fields: Record<string, any>;
}

/** What the stub answers: a status and body, or `reset` to drop the connection without an answer. */
type Answer = { status: number; body: string } | 'reset';

/** A bot server on ALLOWED_TEST_HOST (the test deployment's allow-list): answers per path as the test says, and records every request it got. */
class BotServer {
  readonly received: Received[] = [];
  private readonly waiters: { match: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  private server: Server | undefined;
  url = '';

  constructor(private readonly answer: (r: Received) => Answer) {}

  async start(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, ALLOWED_TEST_HOST, resolve));
    const address = server.address();
    this.url = `http://${ALLOWED_TEST_HOST}:${typeof address === 'object' && address ? address.port : 0}`;
    this.server = server;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Resolves with the first request (already received or to come) that `match` accepts. */
  next(match: (r: Received) => boolean): Promise<Received> {
    const found = this.received.find(match);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const contentType = req.headers['content-type'] ?? '';
    const fields = contentType.startsWith('application/json')
      ? (JSON.parse(raw) as Record<string, any>)
      : Object.fromEntries(new URLSearchParams(raw));
    const received: Received = {
      path: req.url ?? '',
      contentType,
      userAgent: req.headers['user-agent'] ?? '',
      raw,
      fields,
    };
    this.received.push(received);
    const answer = this.answer(received);
    if (answer === 'reset') req.socket.destroy();
    else res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(answer.body);
    for (const waiter of [...this.waiters]) {
      if (!waiter.match(received)) continue;
      this.waiters.splice(this.waiters.indexOf(waiter), 1);
      waiter.resolve(received);
    }
  }
}

const stub = new BotServer((r) => {
  if (r.path === '/down') return 'reset';
  if (r.path === '/fail') return { status: 500, body: 'oops' };
  if (r.path === '/slack')
    return { status: 200, body: JSON.stringify({ text: `slack echo: ${String(r.fields.text)}` }) };
  const data = String(r.fields.data);
  if (data.includes('quiet')) return { status: 200, body: JSON.stringify({ response_not_required: true }) };
  if (data.includes('nothing')) return { status: 200, body: '{}' };
  return { status: 200, body: JSON.stringify({ content: `**echo**: ${data}` }) };
});

interface Bot {
  id: number;
  email: string;
  apiKey: string;
  token: string;
}

let world: World;
let hamlet: EventQueue;
const bots: Record<'generic' | 'slack' | 'failing' | 'down', Bot> = {} as never;
let veronaId: number;

async function createBot(fullName: string, shortName: string, path: string, interfaceType: number): Promise<Bot> {
  const created = await world.as('hamlet').post('/bots', {
    full_name: fullName,
    short_name: shortName,
    bot_type: 3,
    payload_url: JSON.stringify(`${stub.url}${path}`),
    interface_type: interfaceType,
  });
  expect(created.status).toBe(200);
  const id = created.body.user_id as number;
  const state = await world.as('hamlet').post('/register', { fetch_event_types: ['realm_bot'] });
  const record = (state.body.realm_bots as { user_id: number; email: string; services: { token: string }[] }[]).find(
    (b) => b.user_id === id,
  )!;
  return { id, email: record.email, apiKey: created.body.api_key as string, token: record.services[0]!.token };
}

const send = async (who: 'hamlet' | 'othello', params: Record<string, unknown>) => {
  const sent = await world.as(who).post('/messages', params);
  expectSuccess(sent, 'POST', '/messages');
  return sent.body.id as number;
};

/** The participants of a direct message, in id order. */
const participants = (m: Record<string, any>) =>
  (m.display_recipient as { id: number }[]).map((u) => u.id).sort((a, b) => a - b);
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

const toVerona = (topic: string, content: string) => ({ type: 'stream', to: 'Verona', topic, content });

/** The next message event in hamlet's queue that `match` accepts. */
const message = async (match: (m: Record<string, any>) => boolean) =>
  (await hamlet.next((e: ClientEvent) => e.type === 'message' && match(e.message as Record<string, any>)))
    .message as Record<string, any>;

/** Messages of a Verona topic as read back through GET /messages (Markdown source). */
async function topicMessages(topic: string): Promise<Record<string, any>[]> {
  const read = await world.as('hamlet').get('/messages', {
    anchor: 'newest',
    num_before: 100,
    num_after: 0,
    apply_markdown: false,
    narrow: JSON.stringify([
      { operator: 'channel', operand: 'Verona' },
      { operator: 'topic', operand: topic },
    ]),
  });
  expectSuccess(read, 'GET', '/messages');
  return read.body.messages as Record<string, any>[];
}

beforeAll(async () => {
  await stub.start();
  world = await newWorld();
  bots.generic = await createBot('Echo Bot', 'echo', '/generic', 1);
  bots.slack = await createBot('Slack Bot', 'slacky', '/slack', 2);
  bots.failing = await createBot('Failing Bot', 'failing', '/fail', 1);
  bots.down = await createBot('Down Bot', 'down', '/down', 1);
  hamlet = await EventQueue.register(world.as('hamlet'), { event_types: ['message'], apply_markdown: false });
  veronaId = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
  // A new organization waits until every service has its hundred-odd events: minutes on a loaded machine.
}, 300_000);

afterAll(async () => {
  await stub.stop();
});

describe('outgoing webhooks', () => {
  it("posts Zulip's payload when a channel message mentions the bot, and posts its answer in the same topic", async () => {
    const content = '@**Echo Bot** what is the weather?';
    const id = await send('hamlet', toVerona('weather', content));
    const request = await stub.next((r) => r.fields.message?.id === id);
    expect(request.path).toBe('/generic');
    expect(request.contentType).toMatch(/^application\/json/);
    expect(request.userAgent).toMatch(/^ZulipOutgoingWebhook\//);
    expect(request.fields).toMatchObject({
      bot_email: bots.generic.email,
      bot_full_name: 'Echo Bot',
      data: content,
      token: bots.generic.token,
      trigger: 'mention',
      message: {
        id,
        type: 'stream',
        stream_id: veronaId,
        display_recipient: 'Verona',
        subject: 'weather',
        content,
        content_type: 'text/x-markdown',
        sender_id: world.user('hamlet').id,
        sender_full_name: 'King Hamlet',
        rendered_content: expect.stringContaining(`data-user-id="${bots.generic.id}"`),
        avatar_url: expect.stringMatching(/^https:\/\//),
      },
    });
    expect(openApiErrors('POST', '/zulip-outgoing-webhook', 200, request.fields)).toEqual([]);

    const reply = await message((m) => m.sender_id === bots.generic.id && m.subject === 'weather');
    expect(reply).toMatchObject({ type: 'stream', stream_id: veronaId, content: `**echo**: ${content}` });
    expect(reply.client).toBe('OutgoingWebhookResponse');
    const read = await topicMessages('weather');
    expect(read.map((m) => [m.sender_id, m.content])).toEqual([
      [world.user('hamlet').id, content],
      [bots.generic.id, `**echo**: ${content}`],
    ]);
  });

  it('answers in a private channel it is not subscribed to, where it was mentioned', async () => {
    const created = await world.as('hamlet').post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'hooks private' }]),
      invite_only: true,
    });
    expectSuccess(created, 'POST', '/users/me/subscriptions');
    const id = await send('hamlet', {
      type: 'stream',
      to: 'hooks private',
      topic: 'secret',
      content: '@**Echo Bot** psst',
    });
    await stub.next((r) => r.fields.message?.id === id);
    const reply = await message((m) => m.sender_id === bots.generic.id && m.content === '**echo**: @**Echo Bot** psst');
    expect(reply).toMatchObject({ type: 'stream', display_recipient: 'hooks private', subject: 'secret' });
  });

  it('posts a direct message to the bot, and a group DM with it, with the trigger direct_message; the answer goes to the same conversation', async () => {
    const id = await send('hamlet', { type: 'private', to: JSON.stringify([bots.generic.id]), content: 'ping' });
    const request = await stub.next((r) => r.fields.message?.id === id);
    expect(request.fields).toMatchObject({
      trigger: 'direct_message',
      data: 'ping',
      token: bots.generic.token,
      message: { type: 'private', content: 'ping' },
    });
    expect(participants(request.fields.message)).toEqual(sorted([world.user('hamlet').id, bots.generic.id]));
    const reply = await message((m) => m.sender_id === bots.generic.id && m.content === '**echo**: ping');
    expect(reply.type).toBe('private');
    expect(participants(reply)).toEqual(sorted([world.user('hamlet').id, bots.generic.id]));

    const group = sorted([world.user('hamlet').id, world.user('othello').id, bots.generic.id]);
    const groupId = await send('hamlet', {
      type: 'private',
      to: JSON.stringify([bots.generic.id, world.user('othello').id]),
      content: 'group ping',
    });
    const groupRequest = await stub.next((r) => r.fields.message?.id === groupId);
    expect(groupRequest.fields.trigger).toBe('direct_message');
    const groupReply = await message((m) => m.sender_id === bots.generic.id && m.content === '**echo**: group ping');
    expect(participants(groupReply)).toEqual(group);
    // Othello, in the conversation, reads the bot's answer too.
    const othello = await world.as('othello').get('/messages', {
      anchor: 'newest',
      num_before: 5,
      num_after: 0,
      apply_markdown: false,
      narrow: JSON.stringify([{ operator: 'dm', operand: group.filter((u) => u !== world.user('othello').id) }]),
    });
    expect((othello.body.messages as { id: number }[]).map((m) => m.id)).toContain(groupReply.id);
  });

  it('posts nothing for response_not_required or an answer without content', async () => {
    const quiet = await send('hamlet', toVerona('quiet', '@**Echo Bot** quiet please'));
    const nothing = await send('hamlet', toVerona('quiet', '@**Echo Bot** nothing to say'));
    await stub.next((r) => r.fields.message?.id === quiet);
    await stub.next((r) => r.fields.message?.id === nothing);
    // A later message's answer arrives; the two before it were answered with nothing to post.
    const marker = '@**Echo Bot** and now?';
    await send('hamlet', toVerona('quiet', marker));
    await message((m) => m.sender_id === bots.generic.id && m.content === `**echo**: ${marker}`);
    const read = await topicMessages('quiet');
    expect(read.filter((m) => m.sender_id === bots.generic.id).map((m) => m.content)).toEqual([`**echo**: ${marker}`]);
  });

  it("uses Slack's outgoing webhook format for a bot with the Slack interface", async () => {
    const content = '@**Slack Bot** hello slack';
    const id = await send('hamlet', toVerona('slack', content));
    const request = await stub.next((r) => r.path === '/slack' && r.fields.text === content);
    expect(request.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    const message_ = (await topicMessages('slack')).find((m) => m.id === id)!;
    expect(request.fields).toEqual({
      token: bots.slack.token,
      team_id: `T${world.realm.realm_id}`,
      team_domain: new URL(world.realm.url).host,
      channel_id: `C${veronaId}`,
      channel_name: 'Verona',
      thread_ts: String(message_.timestamp),
      timestamp: String(message_.timestamp),
      user_id: `U${world.user('hamlet').id}`,
      user_name: 'King Hamlet',
      text: content,
      trigger_word: 'mention',
      service_id: String(bots.slack.id),
    });
    await message((m) => m.sender_id === bots.slack.id && m.content === `slack echo: ${content}`);

    // Slack's format has no direct messages: the bot says so in the conversation, and its service hears nothing.
    const before = stub.received.filter((r) => r.path === '/slack').length;
    await send('hamlet', { type: 'private', to: JSON.stringify([bots.slack.id]), content: 'slack dm' });
    const failure = await message(
      (m) =>
        m.sender_id === bots.slack.id &&
        m.content === "Failure! Slack outgoing webhooks don't support direct messages.",
    );
    expect(failure.type).toBe('private');
    expect(stub.received.filter((r) => r.path === '/slack').length).toBe(before);
  });

  it("tells the conversation and the bot's owner when the service answers with an error", async () => {
    const id = await send('hamlet', toVerona('failing', '@**Failing Bot** do it'));
    const failure = await message((m) => m.sender_id === bots.failing.id && m.type === 'stream');
    expect(failure).toMatchObject({ subject: 'failing', content: 'Failure! Third party responded with 500' });
    const notice = await message((m) => m.sender_id === bots.failing.id && m.type === 'private');
    const url = `${world.realm.url}/#narrow/channel/${veronaId}-Verona/topic/failing/near/${id}`;
    expect(notice.content).toBe(
      `[A message](${url}) to your bot @_**Failing Bot** triggered an outgoing webhook.\n` +
        'The webhook got a response with status code *500*.\n' +
        "The response contains the following payload:\n```\nb'oops'\n```",
    );
    expect(participants(notice)).toEqual(sorted([world.user('hamlet').id, bots.failing.id]));
    // A 500 is not retried (as in Zulip): the service was asked once.
    expect(stub.received.filter((r) => r.path === '/fail')).toHaveLength(1);
  });

  it('retries a service that cannot be reached, then says the bot is unavailable and tells the owner', async () => {
    const id = await send('hamlet', toVerona('down', '@**Down Bot** are you there?'));
    const failure = await message((m) => m.sender_id === bots.down.id && m.type === 'stream');
    expect(failure.content).toBe('Failure! Bot is unavailable');
    const notice = await message((m) => m.sender_id === bots.down.id && m.type === 'private');
    const url = `${world.realm.url}/#narrow/channel/${veronaId}-Verona/topic/down/near/${id}`;
    expect(notice.content).toBe(
      `[A message](${url}) to your bot @_**Down Bot** triggered an outgoing webhook.\n` +
        'A connection error occurred. Is my bot server down?',
    );
    // Zulip's first attempt and its three retries.
    expect(stub.received.filter((r) => r.path === '/down')).toHaveLength(4);
  });

  it("does not trigger on messages bots send, the bot's own included", async () => {
    const self = world.anonymous().withCredentials(bots.generic.email, bots.generic.apiKey);
    const other = world.anonymous().withCredentials(bots.slack.email, bots.slack.apiKey);
    const own = await self.post('/messages', toVerona('bots', '@**Echo Bot** talking to myself'));
    expectSuccess(own, 'POST', '/messages');
    const dm = await self.post('/messages', {
      type: 'private',
      to: JSON.stringify([world.user('hamlet').id]),
      content: 'a bot writes to hamlet',
    });
    expectSuccess(dm, 'POST', '/messages');
    const fromBot = await other.post('/messages', {
      type: 'private',
      to: JSON.stringify([bots.generic.id]),
      content: 'one bot to another',
    });
    expectSuccess(fromBot, 'POST', '/messages');
    const ids = [own.body.id, dm.body.id, fromBot.body.id];
    // A person's message sent after them is delivered; none of the bots' messages was.
    const marker = await send('hamlet', toVerona('bots', '@**Echo Bot** after the bots'));
    await stub.next((r) => r.fields.message?.id === marker);
    await message((m) => m.sender_id === bots.generic.id && m.content === '**echo**: @**Echo Bot** after the bots');
    expect(stub.received.filter((r) => ids.includes(r.fields.message?.id))).toEqual([]);
    expect(stub.received.filter((r) => r.path === '/slack' && r.fields.text === 'one bot to another')).toEqual([]);
  });
});
