import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { contracts } from '@confab/events';
import { GuardedHttpClient } from '@confab/http';
import { messageUrl, ownerNotice, replyContent, webhookRequest } from '../src/domain/outgoing-webhooks';
import { serviceBotTriggers } from '../src/domain/send';
import { MAX_ANSWER_BYTES, postWebhook } from '../src/jobs/outgoing-webhooks';
import type { User } from '../src/domain/types';

const channelMessage: contracts.MessageRecord = {
  id: 112,
  type: 'stream',
  sender_id: 5,
  sender_email: 'iago@zulip.com',
  sender_full_name: 'Iago',
  sender_realm_str: 'zulip',
  recipient_id: 20,
  stream_id: 7,
  display_recipient: 'Verona',
  subject: 'Verona2',
  topic_links: [],
  content: '@**Outgoing webhook test** hi',
  rendered_content: '<p><span class="user-mention" data-user-id="25">@Outgoing webhook test</span> hi</p>',
  timestamp: 1527876931,
  client: 'website',
  is_me_message: false,
  reactions: [],
  submessages: [],
};
const realm = { id: 3, url: 'http://zulip.example.com:9991' };
const bot = { id: 25, email: 'outgoing-bot@zulip.example.com', fullName: 'Outgoing webhook test' };
const service = (iface: number) => ({
  name: 'outgoing',
  baseUrl: 'http://127.0.0.1:1/hook',
  interface: iface,
  token: 'tok',
});

describe("webhookRequest (Zulip's make_request)", () => {
  it("sends Zulip's JSON payload with the message as GET /messages gives it in Markdown", () => {
    const request = webhookRequest(service(1), bot, realm, { botId: 25, trigger: 'mention', message: channelMessage })!;
    expect(request.contentType).toBe('application/json');
    const body = JSON.parse(request.body) as Record<string, any>;
    expect(body).toMatchObject({
      data: channelMessage.content,
      token: 'tok',
      trigger: 'mention',
      bot_email: bot.email,
      bot_full_name: bot.fullName,
      message: {
        id: 112,
        content: channelMessage.content,
        content_type: 'text/x-markdown',
        rendered_content: channelMessage.rendered_content,
        avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\//),
        stream_id: 7,
        subject: 'Verona2',
      },
    });
  });

  it("sends Slack's form fields, and nothing for a direct message", () => {
    const request = webhookRequest(service(2), bot, realm, { botId: 25, trigger: 'mention', message: channelMessage })!;
    expect(request.contentType).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      token: 'tok',
      team_id: 'T3',
      team_domain: 'zulip.example.com:9991',
      channel_id: 'C7',
      channel_name: 'Verona',
      thread_ts: '1527876931',
      timestamp: '1527876931',
      user_id: 'U5',
      user_name: 'Iago',
      text: channelMessage.content,
      trigger_word: 'mention',
      service_id: '25',
    });
    const dm = { ...channelMessage, type: 'private' as const, stream_id: undefined, display_recipient: [] };
    expect(webhookRequest(service(2), bot, realm, { botId: 25, trigger: 'direct_message', message: dm })).toBeNull();
  });
});

describe("replyContent (Zulip's process_success)", () => {
  const zulip = { interface: 1 };
  const slack = { interface: 2 };

  it('posts content, or the deprecated response_string', () => {
    expect(replyContent(zulip, '{"content": "hello"}')).toBe('hello');
    expect(replyContent(zulip, '{"response_string": "old"}')).toBe('old');
    expect(replyContent(zulip, '{"content": 42}')).toBe('42');
    expect(replyContent(slack, '{"text": "from slack"}')).toBe('from slack');
  });

  it('posts nothing when no response is required, or the content is blank or missing', () => {
    expect(replyContent(zulip, '{"response_not_required": true, "content": "x"}')).toBeNull();
    expect(replyContent(zulip, '{"content": "  "}')).toBeNull();
    expect(replyContent(zulip, '{}')).toBeNull();
    expect(replyContent(zulip, '""')).toBeNull();
    expect(replyContent(slack, '{"content": "not slack"}')).toBeNull();
  });

  it("refuses what is not a JSON object, with Zulip's errors", () => {
    expect(() => replyContent(zulip, '')).toThrow('Invalid JSON in response');
    expect(() => replyContent(zulip, 'not json')).toThrow('Invalid JSON in response');
    expect(() => replyContent(zulip, '[1]')).toThrow('Invalid response format');
  });
});

describe("ownerNotice (Zulip's notify_bot_owner)", () => {
  const url = messageUrl(realm, channelMessage);

  it('links the message in its topic, or in its direct-message conversation', () => {
    expect(url).toBe('http://zulip.example.com:9991/#narrow/channel/7-Verona/topic/Verona2/near/112');
    const dm = {
      ...channelMessage,
      type: 'private' as const,
      display_recipient: [
        { id: 9, email: 'a@x', full_name: 'A', is_mirror_dummy: false },
        { id: 5, email: 'b@x', full_name: 'B', is_mirror_dummy: false },
      ],
    };
    expect(messageUrl(realm, dm)).toBe('http://zulip.example.com:9991/#narrow/dm/5,9/near/112');
  });

  it('tells the status and quotes the answer as Python writes bytes', () => {
    expect(ownerNotice('Hook', url, { status: 500, responseContent: Buffer.from('oops') })).toBe(
      `[A message](${url}) to your bot @_**Hook** triggered an outgoing webhook.\n` +
        'The webhook got a response with status code *500*.\n' +
        "The response contains the following payload:\n```\nb'oops'\n```",
    );
    expect(ownerNotice('Hook', url, { status: 502, responseContent: Buffer.alloc(0) })).toBe(
      `[A message](${url}) to your bot @_**Hook** triggered an outgoing webhook.\n` +
        'The webhook got a response with status code *502*.',
    );
  });

  it('tells a failure or an exception', () => {
    expect(ownerNotice('Hook', url, { failureMessage: 'A connection error occurred. Is my bot server down?' })).toBe(
      `[A message](${url}) to your bot @_**Hook** triggered an outgoing webhook.\n` +
        'A connection error occurred. Is my bot server down?',
    );
    expect(ownerNotice('Hook', url, { exception: { type: 'InvalidURL', message: 'bad' } })).toBe(
      `[A message](${url}) to your bot @_**Hook** triggered an outgoing webhook.\n` +
        'When trying to send a request to the webhook service, an exception of type InvalidURL occurred:\n```\nbad\n```',
    );
  });
});

describe("serviceBotTriggers (Zulip's get_service_bot_events)", () => {
  const person = (id: number, extra: Partial<User> = {}) =>
    ({ id, isBot: false, botType: null, isActive: true, ...extra }) as User;
  const hook = (id: number, extra: Partial<User> = {}) => person(id, { isBot: true, botType: 3, ...extra });
  const actor = (user: User) => ({ user, realm: {} as never, requestId: 'r' });
  const channel = { channel: {} as never, participants: [] };

  it('triggers outgoing webhook bots a channel message mentions', () => {
    expect(
      serviceBotTriggers(actor(person(1)), channel, [
        person(2),
        hook(3),
        hook(4, { isActive: false }),
        person(5, { isBot: true, botType: 1 }),
      ]),
    ).toEqual([{ user_id: 3, trigger: 'mention' }]);
  });

  it('triggers the outgoing webhook bots of a direct message, mentioned or not', () => {
    const dm = { channel: null, participants: [person(1), hook(3), person(6)] };
    expect(serviceBotTriggers(actor(person(1)), dm, [])).toEqual([{ user_id: 3, trigger: 'direct_message' }]);
    // A bot mentioned in a direct message it is not part of is not triggered.
    expect(
      serviceBotTriggers(actor(person(1)), { channel: null, participants: [person(1), person(6)] }, [hook(3)]),
    ).toEqual([]);
  });

  it('triggers nothing for a message a bot sent', () => {
    expect(serviceBotTriggers(actor(hook(3)), channel, [hook(4)])).toEqual([]);
    expect(
      serviceBotTriggers(actor(person(9, { isBot: true, botType: 1 })), { channel: null, participants: [hook(3)] }, []),
    ).toEqual([]);
  });
});

describe('postWebhook: one POST through the guarded client, in the classes of do_rest_call', () => {
  let server: Server;
  let port = 0;
  /** What the last endless answer wrote before the connection closed. */
  let written = 0;
  const received: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push(req.url ?? '');
      if (req.url === '/endless') {
        written = 0;
        res.writeHead(500);
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (!res.destroyed && written < 64 * 1024 * 1024) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        pump();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"content":"hi"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const request = (url: string) => ({ url, contentType: 'application/json' as const, body: '{}' });

  it('refuses a private address unless the allow-list names it, sending nothing', async () => {
    const before = received.length;
    const refused = await postWebhook(new GuardedHttpClient(), request(`http://127.0.0.1:${port}/`), 2000);
    expect(refused.kind).toBe('refused');
    expect(received.length).toBe(before);
    const allowed = await postWebhook(
      new GuardedHttpClient({ allowedCidrs: ['127.0.0.1/32'] }),
      request(`http://127.0.0.1:${port}/`),
      2000,
    );
    expect(allowed).toEqual({ kind: 'response', status: 200, body: Buffer.from('{"content":"hi"}') });
  });

  it('reads an answer up to the cap and closes the connection there', async () => {
    const client = new GuardedHttpClient({ allowedCidrs: ['127.0.0.1/32'] });
    const outcome = await postWebhook(client, request(`http://127.0.0.1:${port}/endless`), 5000);
    expect(outcome.kind === 'response' && [outcome.status, outcome.body.length]).toEqual([500, MAX_ANSWER_BYTES]);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it("tells a connection error and a URL that is none apart, as Zulip's requests does", async () => {
    const client = new GuardedHttpClient({ allowedCidrs: ['127.0.0.1/32'] });
    expect(await postWebhook(client, request('http://127.0.0.1:1/'), 2000)).toEqual({ kind: 'connection-error' });
    expect(await postWebhook(client, request('not a url'), 2000)).toEqual({
      kind: 'exception',
      type: 'InvalidURL',
      message: "Invalid URL 'not a url'",
    });
    expect(await postWebhook(client, request('ftp://files.example.com/'), 2000)).toEqual({
      kind: 'exception',
      type: 'InvalidSchema',
      message: "No connection adapters were found for 'ftp://files.example.com/'",
    });
  });
});
