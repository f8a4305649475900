import type { World } from '@confab/devkit';
import { CATALOG } from '@confab/integrations';
import { expectError } from './support/expect';
import { newWorld } from './support/system';
import {
  createHookBot,
  hookBotMessages,
  hookRequest,
  jsonBody,
  type HookBot,
  type HookOptions,
} from './support/webhooks';

// The incoming webhook framework through the gateway (docs/integrations.md): Zulip's auth forms and texts, where a
// webhook's messages go, its filters and errors, and the client the messages are sent with. The payloads are this
// file's own, small ones shaped like the providers' events.
jest.setTimeout(120_000);

let world: World;

/** A request to the gateway as a provider sends it: any method, body and headers, in the world's organization. */
const hook = (path: string, options: HookOptions = {}) => hookRequest(world, path, options);

const json = jsonBody;
const hello = (title = 'Goodbye') =>
  json({ featured_title: title, featured_url: `https://en.wikipedia.org/wiki/${title}` });

type Bot = HookBot;

const createBot = (shortName: string) => createHookBot(world, shortName);

/** The newest messages the bot sent, as hamlet (its owner) reads them back, in Markdown. */
const botMessages = (bot: Bot, count = 1) => hookBotMessages(world, bot, count);

/** Hamlet's newest direct message from the organization's Notification Bot. */
async function newestNotice(): Promise<Record<string, any> | undefined> {
  const read = await world.as('hamlet').get('/messages', {
    anchor: 'newest',
    num_before: 5,
    num_after: 0,
    apply_markdown: false,
    narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]),
  });
  const messages = read.body.messages as Record<string, any>[];
  return messages.filter((m) => String(m.sender_email).startsWith('notification-bot')).at(-1);
}

let bot: Bot;
let veronaId: number;

beforeAll(async () => {
  world = await newWorld();
  bot = await createBot('hooks');
  veronaId = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
}, 300_000);

describe('POST /api/v1/external/{integration}: authentication', () => {
  it('takes the api_key from the query string, and posts with the client Zulip<Name>Webhook', async () => {
    const answer = await hook('helloworld', { query: { api_key: bot.apiKey, stream: 'Verona' }, ...hello() });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    const [message] = await botMessages(bot);
    expect(message).toMatchObject({
      type: 'stream',
      display_recipient: 'Verona',
      subject: 'Hello World',
      content:
        'Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is ' +
        '**[Goodbye](https://en.wikipedia.org/wiki/Goodbye)**',
      client: 'ZulipHelloWorldWebhook',
    });
  });

  it('takes the api_key from a form body, with the whitespace around it stripped', async () => {
    // Authenticated: the integration, not the gateway, refuses the form body (helloworld reads JSON).
    const answer = await hook('helloworld', {
      body: `api_key=${encodeURIComponent(` ${bot.apiKey} `)}&stream=Verona`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(answer as never, 400, 'INVALID_JSON', 'Malformed JSON');
  });

  it("answers Zulip's texts for a missing, malformed or unknown key", async () => {
    expectError(
      (await hook('helloworld', hello())) as never,
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'api_key' argument",
      {
        var_name: 'api_key',
      },
    );
    const malformed = await hook('helloworld', { query: { api_key: 'short' }, ...hello() });
    expectError(malformed as never, 401, 'INVALID_API_KEY', 'Malformed API key');
    const unknown = await hook('helloworld', { query: { api_key: 'x'.repeat(32) }, ...hello() });
    expectError(unknown as never, 401, 'INVALID_API_KEY', 'Invalid API key');
    expect(unknown.headers['www-authenticate']).toBeUndefined();
  });

  it('answers 404 for a name no integration has, before any authentication', async () => {
    const answer = await hook('no-such-integration', hello());
    expect(answer.status).toBe(404);
  });
});

describe('POST /api/v1/external/{integration}: where the message goes', () => {
  it('takes the channel by id when it is all digits, and the topic from the URL', async () => {
    const answer = await hook('helloworld', {
      query: { api_key: bot.apiKey, stream: String(veronaId), topic: 'from the URL' },
      ...hello('Id'),
    });
    expect(answer.body.result).toBe('success');
    const [message] = await botMessages(bot);
    expect(message).toMatchObject({ stream_id: veronaId, subject: 'from the URL' });
    expect(message!.content).toContain('[Id]');
  });

  it("sends a direct message to the bot's owner when there is no channel", async () => {
    const answer = await hook('helloworld', { query: { api_key: bot.apiKey }, ...hello('Owner') });
    expect(answer.body.result).toBe('success');
    const [message] = await botMessages(bot);
    expect(message).toMatchObject({ type: 'private', client: 'ZulipHelloWorldWebhook' });
    expect((message!.display_recipient as { id: number }[]).map((u) => u.id).sort()).toEqual(
      [bot.id, world.user('hamlet').id].sort(),
    );
  });

  it('answers success for a channel that does not exist, and the Notification Bot tells the owner', async () => {
    const lonely = await createBot('lonely');
    const answer = await hook('helloworld', {
      query: { api_key: lonely.apiKey, stream: 'No such channel' },
      ...hello(),
    });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect(await botMessages(lonely)).toEqual([]);
    const notice = await newestNotice();
    expect(notice?.content).toBe(
      `Your bot \`${lonely.email}\` tried to send a message to channel #**No such channel**, but that channel does ` +
        'not exist. Click [here](#channels/new) to create it.',
    );
  });

  it('truncates the topic to 60 characters and the content to 10000, as Zulip does', async () => {
    const answer = await hook('helloworld', {
      query: { api_key: bot.apiKey, stream: 'Verona', topic: 't'.repeat(70) },
      ...hello('x'.repeat(12_000)),
    });
    expect(answer.body.result).toBe('success');
    const [message] = await botMessages(bot);
    expect(message!.subject).toBe(`${'t'.repeat(57)}...`);
    expect([...(message!.content as string)].length).toBe(10_000);
    expect(message!.content).toMatch(/\n\[message truncated\]$/);
  });
});

describe('POST /api/v1/external/{integration}: errors', () => {
  it("answers 400 Malformed JSON and tells the bot's owner", async () => {
    const careless = await createBot('careless');
    const answer = await hook('helloworld', {
      query: { api_key: careless.apiKey, stream: 'Verona' },
      body: '{"featured_title": ',
      headers: { 'content-type': 'application/json' },
    });
    expectError(answer as never, 400, 'INVALID_JSON', 'Malformed JSON');
    expect((await newestNotice())?.content).toBe(
      'Hi there! It looks like you tried to set up the Zulip HelloWorld integration,\n' +
        "but didn't correctly configure the webhook to send data in the JSON format\n" +
        'that this integration expects!',
    );
  });

  it('answers 400 "Unable to parse request" for a payload the provider would not send', async () => {
    const answer = await hook('helloworld', { query: { api_key: bot.apiKey, stream: 'Verona' }, ...json(null) });
    expectError(
      answer as never,
      400,
      'ANOMALOUS_WEBHOOK_PAYLOAD',
      'Unable to parse request: Did HelloWorld generate this event?',
      {
        webhook_name: 'HelloWorld',
      },
    );
  });
});

describe("Zulip's list of integrations", () => {
  it("has a URL for every integration of the list: with the bot's credentials, none answers 404", async () => {
    const prober = await createBot('prober');
    const basic = `Basic ${Buffer.from(`${prober.email}:${prober.apiKey}`).toString('base64')}`;
    const answers = await Promise.all(
      CATALOG.map(async (entry) => {
        const answer = await hook(entry.name, {
          query: entry.auth === 'basic' ? { stream: 'Verona' } : { api_key: prober.apiKey, stream: 'Verona' },
          body: '{}',
          headers: { 'content-type': 'application/json', ...(entry.auth === 'basic' ? { authorization: basic } : {}) },
        });
        return [entry.name, answer.status, answer.body.code] as const;
      }),
    );
    expect(answers.filter(([, status]) => status === 404 || status === 401)).toEqual([]);
  });
});
