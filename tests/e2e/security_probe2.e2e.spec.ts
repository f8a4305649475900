import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApiClient, type World } from '@confab/devkit';
import { EventQueue, type ClientEvent } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { ALLOWED_TEST_HOST } from './support/global-setup';
import { newWorld, system } from './support/system';
import { createHookBot, hookRequest } from './support/webhooks';

// The findings of the second security probe (issue 40), each shown through the gateway as a user meets it:
// requests to private addresses through outgoing webhooks (H1) and their size cap (L2), a deactivated owner's bots
// (M1), one bot's slow service and everyone else's (L1), /thumbnail's redirect (L3), caching and framing headers
// (L4, L5), a key on another organization's host (L6), and bot storage for people.
// Measured: about 60 s on the 2-core machine, most of it the new organization.
jest.setTimeout(180_000);

/** A listener of the test's own that records what reaches it and answers as the test says. */
class Listener {
  readonly received: { path: string; body: string }[] = [];
  private server: Server | undefined;
  port = 0;

  constructor(
    private readonly host: string,
    private readonly handle: (req: IncomingMessage, res: ServerResponse, body: string) => void = (_req, res) =>
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ content: 'reached' })),
  ) {}

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ path: req.url ?? '', body });
        this.handle(req, res, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, this.host, resolve));
    const address = server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
    this.server = server;
    return this;
  }

  url(path = '/'): string {
    return `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${this.port}${path}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** What the endless answer wrote before the worker closed the connection (or it gave up at its own limit). */
const endless = { written: 0, closedByPeer: false };
const ENDLESS_LIMIT = 50 * 1024 * 1024;

// Addresses the deployment's allow-list does not name: nothing may reach them.
const trap4 = new Listener('127.0.0.1');
const trap6 = new Listener('::1');
// The bot service the allow-list names (ALLOWED_TEST_HOST): an echo, and an answer that never ends.
const allowed = new Listener(ALLOWED_TEST_HOST, (req, res, body) => {
  if (req.url === '/endless') {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.on('close', () => {
      if (!res.writableEnded) endless.closedByPeer = true;
    });
    const pump = () => {
      while (endless.written < ENDLESS_LIMIT && !res.destroyed) {
        endless.written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
    return;
  }
  const data = String((JSON.parse(body) as { data?: string }).data);
  res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ content: `echo: ${data}` }));
});

/** A bot service that never answers: holds every request until the test lets go, counting those open at once. */
const held = { open: 0, most: 0, released: false, responses: [] as ServerResponse[] };
const slow = new Listener(ALLOWED_TEST_HOST, (_req, res) => {
  if (held.released) return void res.writeHead(200).end('{}');
  held.open += 1;
  held.most = Math.max(held.most, held.open);
  held.responses.push(res);
  res.on('close', () => (held.open -= 1));
});

let world: World;
let hamlet: EventQueue;
let veronaId: number;

async function createBot(
  who: 'hamlet' | 'cordelia',
  fullName: string,
  shortName: string,
  extra: Record<string, unknown>,
): Promise<{ id: number; email: string; apiKey: string }> {
  const created = await world.as(who).post('/bots', { full_name: fullName, short_name: shortName, ...extra });
  expect({ status: created.status, result: created.body.result }).toEqual({ status: 200, result: 'success' });
  const id = created.body.user_id as number;
  const user = await world.as(who).get(`/users/${id}`);
  return { id, email: user.body.user.email as string, apiKey: created.body.api_key as string };
}

const toVerona = (topic: string, content: string) => ({ type: 'stream', to: 'Verona', topic, content });

/** The next message event in hamlet's queue that `match` accepts. */
const message = async (match: (m: Record<string, any>) => boolean) =>
  (await hamlet.next((e: ClientEvent) => e.type === 'message' && match(e.message as Record<string, any>)))
    .message as Record<string, any>;

/** Polls `check` until it holds, for at most `ms`. */
async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not the case after ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  await Promise.all([trap4.start(), trap6.start(), allowed.start(), slow.start()]);
  world = await newWorld();
  hamlet = await EventQueue.register(world.as('hamlet'), { event_types: ['message'], apply_markdown: false });
  veronaId = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
}, 300_000);

afterAll(async () => {
  await Promise.all([trap4.stop(), trap6.stop(), allowed.stop(), slow.stop()]);
});

describe('H1: outgoing webhooks go through the guarded client', () => {
  it("refuses loopback, unspecified, IPv4-mapped and link-local addresses with Zulip's notice to the owner", async () => {
    const forms = [
      trap4.url('/literal'),
      `http://localhost:${trap4.port}/name`,
      trap6.url('/v6'),
      `http://[::ffff:127.0.0.1]:${trap4.port}/mapped`,
      `http://0.0.0.0:${trap4.port}/unspecified`,
      'http://169.254.169.254/latest/meta-data/',
      `http://127.0.0.2:${trap4.port}/loopback-net`,
      `http://[::]:${trap6.port}/v6-unspecified`,
      `http://[0:0:0:0:0:ffff:7f00:1]:${trap4.port}/mapped-long`,
      'http://10.1.2.3/private',
      'http://100.64.0.1/cgnat',
      'http://[fd00::1]/ula',
    ];
    const bots = [];
    for (const [i, url] of forms.entries()) {
      // Zulip accepts such URLs at creation and refuses them at delivery (Smokescreen); so does Confab.
      bots.push(
        await createBot('hamlet', `Private ${i}`, `private${i}`, {
          bot_type: 3,
          payload_url: JSON.stringify(url),
          interface_type: 1,
        }),
      );
    }
    const sent = [];
    for (const [i, bot] of bots.entries()) {
      const response = await world.as('hamlet').post('/messages', toVerona(`private ${i}`, `@**Private ${i}** hi`));
      expectSuccess(response, 'POST', '/messages');
      sent.push({ bot, name: `Private ${i}`, id: response.body.id as number, topic: `private ${i}` });
    }
    for (const { bot, name, id, topic } of sent) {
      const failure = await message((m) => m.sender_id === bot.id && m.type === 'stream');
      expect({ topic: failure.subject, content: failure.content }).toEqual({
        topic,
        content: 'Failure! Third party responded with 407',
      });
      const notice = await message((m) => m.sender_id === bot.id && m.type === 'private');
      const url = `${world.realm.url}/#narrow/channel/${veronaId}-Verona/topic/${topic.replace(' ', '.20')}/near/${id}`;
      expect(notice.content).toBe(
        `[A message](${url}) to your bot @_**${name}** triggered an outgoing webhook.\n` +
          'The URL configured for the webhook is for a private or disallowed network.',
      );
    }
    expect({ v4: trap4.received, v6: trap6.received }).toEqual({ v4: [], v6: [] });
  });

  it("refuses at creation what Zulip's check_url (Django's URLValidator) refuses: odd IPv4 spellings, bare names", async () => {
    for (const url of [
      `http://127.1:${trap4.port}/short`,
      `http://2130706433:${trap4.port}/decimal`,
      `http://0x7f.1:${trap4.port}/hex`,
      `http://0177.0.0.1:${trap4.port}/octal`,
      'http://bot-server:8080/',
      'gopher://bot.example.com/',
    ]) {
      const created = await world.as('hamlet').post('/bots', {
        full_name: 'Odd Bot',
        short_name: 'odd',
        bot_type: 3,
        payload_url: JSON.stringify(url),
        interface_type: 1,
      });
      expect({ url, status: created.status, msg: created.body.msg }).toEqual({
        url,
        status: 400,
        msg: 'payload_url is not a URL',
      });
    }
    const bot = await createBot('hamlet', 'Public Bot', 'public', {
      bot_type: 3,
      payload_url: JSON.stringify('https://bot.example.com/hook'),
      interface_type: 1,
    });
    const edited = await world
      .as('hamlet')
      .patch(`/bots/${bot.id}`, { service_payload_url: JSON.stringify('http://2130706433/') });
    expect({ status: edited.status, msg: edited.body.msg }).toEqual({
      status: 400,
      msg: 'service_payload_url is not a URL',
    });
    expect(trap4.received).toEqual([]);
  });

  it('still posts to an address the allow-list names, and posts its answer', async () => {
    const bot = await createBot('hamlet', 'Allowed Bot', 'allowed', {
      bot_type: 3,
      payload_url: JSON.stringify(allowed.url('/echo')),
      interface_type: 1,
    });
    await world.as('hamlet').post('/messages', toVerona('allowed', '@**Allowed Bot** ping'));
    const reply = await message((m) => m.sender_id === bot.id);
    expect({ topic: reply.subject, content: reply.content }).toEqual({
      topic: 'allowed',
      content: 'echo: @**Allowed Bot** ping',
    });
    expect(allowed.received.filter((r) => r.path === '/echo')).toHaveLength(1);
  });
});

describe('L2: an answer is read up to the size cap, then the connection is closed', () => {
  it('stops an endless answer at the cap and tells its status', async () => {
    const bot = await createBot('hamlet', 'Endless Bot', 'endless', {
      bot_type: 3,
      payload_url: JSON.stringify(allowed.url('/endless')),
      interface_type: 1,
    });
    await world.as('hamlet').post('/messages', toVerona('endless', '@**Endless Bot** talk'));
    const failure = await message((m) => m.sender_id === bot.id && m.type === 'stream');
    expect(failure.content).toBe('Failure! Third party responded with 500');
    // The worker closed the connection after about its 1 MiB cap (and the sockets' buffers), far from the end.
    await until('the endless answer was cut off', async () => endless.closedByPeer || endless.written >= ENDLESS_LIMIT);
    expect(endless.closedByPeer).toBe(true);
    expect(endless.written).toBeLessThan(16 * 1024 * 1024);
    expect(allowed.received.filter((r) => r.path === '/endless')).toHaveLength(1);
  });
});

describe('L1: one slow bot service cannot hold every delivery slot', () => {
  it("leaves other bots' deliveries free while one bot's service never answers", async () => {
    const env = system().processes['messaging-worker']?.env ?? {};
    const perBot = Number(env.MESSAGING_OUTGOING_WEBHOOK_PER_BOT_CONCURRENCY ?? 2);
    const slots = Number(env.MESSAGING_OUTGOING_WEBHOOK_CONCURRENCY ?? 8);
    const workers = Object.keys(system().processes).filter((name) => /^messaging-worker(-\d+)?$/.test(name)).length;
    const slowBot = await createBot('hamlet', 'Slow Bot', 'slow', {
      bot_type: 3,
      payload_url: JSON.stringify(slow.url('/hang')),
      interface_type: 1,
    });
    const fastBot = await createBot('hamlet', 'Fast Bot', 'fast', {
      bot_type: 3,
      payload_url: JSON.stringify(allowed.url('/fast')),
      interface_type: 1,
    });
    // More messages to the slow bot than the worker has slots.
    for (let i = 0; i < slots + 2; i++) {
      const sent = await world.as('hamlet').post('/messages', {
        type: 'private',
        to: JSON.stringify([slowBot.id]),
        content: `slow ${i}`,
      });
      expectSuccess(sent, 'POST', '/messages');
    }
    await until('the slow service holds its share of deliveries', async () => held.open >= perBot * workers);
    await world.as('hamlet').post('/messages', toVerona('fast', '@**Fast Bot** are you free?'));
    const reply = await message((m) => m.sender_id === fastBot.id);
    expect(reply.content).toBe('echo: @**Fast Bot** are you free?');
    // The slow service still holds its requests (none timed out to make room), and never more than the bot's share.
    expect({ stillOpen: held.open > 0, most: held.most }).toEqual({ stillOpen: true, most: perBot * workers });
    held.released = true;
    for (const res of held.responses) if (!res.writableEnded) res.writeHead(200).end('{}');
  });
});

describe("M1: deactivating a user deactivates their bots (Zulip's do_deactivate_user)", () => {
  it('turns off every active bot the user owns first, with Zulip events, and reactivation leaves them off', async () => {
    const bot = await createBot('cordelia', 'Cordelia Bot', 'cordelia', { bot_type: 1 });
    const botClient = world.anonymous().withCredentials(bot.email, bot.apiKey);
    expectSuccess(await botClient.get('/users/me'), 'GET', '/users/me');
    const cordelia = world.user('cordelia').id;
    const iago = await EventQueue.register(world.as('iago'), { event_types: ['realm_user', 'realm_bot'] });

    expectSuccess(await world.as('iago').delete(`/users/${cordelia}`), 'DELETE', '/users/{user_id}');
    // The bot's key no longer works, from the very next request (L7: the change is in the bot's causal log too).
    expectError(await botClient.get('/users/me'), 401, 'UNAUTHORIZED', 'Account is deactivated');
    const sent = await botClient.post('/messages', toVerona('bots', 'still here?'));
    expectError(sent, 401, 'UNAUTHORIZED', 'Account is deactivated');

    const seen = async (match: (e: ClientEvent) => boolean) => (await iago.next(match)).id;
    const botUser = await seen(
      (e) =>
        e.type === 'realm_user' && e.op === 'update' && e.person.user_id === bot.id && e.person.is_active === false,
    );
    const botBot = await seen(
      (e) => e.type === 'realm_bot' && e.op === 'update' && e.bot.user_id === bot.id && e.bot.is_active === false,
    );
    const owner = await seen(
      (e) =>
        e.type === 'realm_user' && e.op === 'update' && e.person.user_id === cordelia && e.person.is_active === false,
    );
    // The bots go first, as in Zulip.
    expect(botUser).toBeLessThan(owner);
    expect(botBot).toBeLessThan(owner);
    const events = iago.seen.filter((e) => e.type !== 'heartbeat');
    expect(events.find((e) => e.id === botBot)).toEqual({
      id: botBot,
      type: 'realm_bot',
      op: 'update',
      bot: { user_id: bot.id, is_active: false },
    });

    expectSuccess(await world.as('iago').post(`/users/${cordelia}/reactivate`), 'POST', '/users/{user_id}/reactivate');
    const read = await world.as('iago').get(`/users/${bot.id}`);
    expect(read.body.user).toMatchObject({ user_id: bot.id, is_active: false, bot_owner_id: cordelia });
    expect((await world.as('iago').get(`/users/${cordelia}`)).body.user.is_active).toBe(true);
    expectError(await botClient.get('/users/me'), 401, 'UNAUTHORIZED', 'Account is deactivated');
  });
});

describe('L3: /thumbnail redirects only to uploads', () => {
  it("answers Zulip 9's empty 403 for any other URL, and redirects an upload to itself", async () => {
    for (const url of [
      'https://evil.example/phish.png',
      '//evil.example/x.png',
      'javascript:alert(1)',
      '/user_uploads/2/ab/cat.png',
      'user_uploads/x/cat.png',
    ]) {
      const refused = await world.as('hamlet').get('/thumbnail', { url, size: 'full' });
      expect({ url, status: refused.status, text: refused.text, location: refused.headers.location }).toEqual({
        url,
        status: 403,
        text: '',
        location: undefined,
      });
    }
    const upload = await world.as('hamlet').get('/thumbnail', { url: 'user_uploads/2/ab/cat.png', size: 'thumbnail' });
    expect({ status: upload.status, location: upload.headers.location }).toEqual({
      status: 302,
      location: '/user_uploads/2/ab/cat.png',
    });
    for (const [params, text] of [
      [{ url: 'https://evil.example/phish.png', size: 'huge' }, 'Invalid size.'],
      [{ size: 'full' }, "Missing 'url' argument"],
    ] as const) {
      const refused = await world.as('hamlet').get('/thumbnail', params);
      expect({ status: refused.status, text: refused.text }).toEqual({ status: 400, text: `<p>${text}</p>` });
    }
    const anonymous = await world.anonymous().get('/thumbnail', { url: 'https://evil.example/x.png', size: 'full' });
    expect(anonymous.status).toBe(401);
  });
});

describe('L4 and L5: caching and framing headers', () => {
  const NEVER_CACHE = 'max-age=0, no-cache, no-store, must-revalidate, private';

  it('marks every REST answer never to be cached', async () => {
    const hamlet = world.as('hamlet');
    const answers = [
      await hamlet.get('/users/me'),
      await hamlet.get('/users'),
      await hamlet.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 }),
      await hamlet.get('/attachments'),
      await hamlet.post('/messages', toVerona('headers', 'cached?')),
      // An error and the gateway's own refusal too.
      await hamlet.get('/users/999999999'),
      await world.anonymous().get('/users/me'),
    ];
    expect(answers.map((a) => a.headers['cache-control'])).toEqual(answers.map(() => NEVER_CACHE));
  });

  it('forbids framing of every page: API docs, HTML error pages of uploads and thumbnails, API answers', async () => {
    const docs = await fetch(`${system().gatewayUrl}/api/docs`);
    const upload = await world.anonymous().get('/user_uploads/1/ab/none.png');
    const missing = await world.as('hamlet').get(`/user_uploads/${world.realm.realm_id}/ab/none.png`);
    const thumbnail = await world.as('hamlet').get('/thumbnail', { size: 'full' });
    const api = await world.as('hamlet').get('/users/me');
    expect({
      docs: [docs.status, docs.headers.get('x-frame-options')],
      upload: [upload.status, upload.headers['x-frame-options']],
      missing: [missing.status, missing.headers['x-frame-options']],
      thumbnail: [thumbnail.status, thumbnail.headers['x-frame-options']],
      api: [api.status, api.headers['x-frame-options']],
    }).toEqual({
      docs: [200, 'DENY'],
      upload: [401, 'DENY'],
      missing: [404, 'DENY'],
      thumbnail: [400, 'DENY'],
      api: [200, 'DENY'],
    });
  });
});

describe("L6: a key works only on its organization's host", () => {
  it("answers 401 'Account is not associated with this subdomain' elsewhere, cached or not", async () => {
    const user = world.user('othello');
    // Verified (and cached) on its own host first.
    expectSuccess(await world.as('othello').get('/users/me'), 'GET', '/users/me');
    const external = new URL(system().processes.settings?.env.CONFAB_EXTERNAL_URL ?? system().gatewayUrl);
    for (const host of [new URL(system().gatewayUrl).host, `nosuchorg.${external.host}`]) {
      const elsewhere = new ApiClient(system().gatewayUrl, { host }).withCredentials(user.email, user.apiKey);
      expectError(
        await elsewhere.get('/users/me'),
        401,
        'UNAUTHORIZED',
        'Account is not associated with this subdomain',
      );
      expectError(
        await elsewhere.post('/messages', toVerona('elsewhere', 'from another host')),
        401,
        'UNAUTHORIZED',
        'Account is not associated with this subdomain',
      );
    }
    expectSuccess(await world.as('othello').get('/users/me'), 'GET', '/users/me');
  });

  it("refuses an incoming webhook's key on another host with webhook_view's 400", async () => {
    const bot = await createHookBot(world, 'hostcheck');
    const payload = JSON.stringify({ featured_title: 'Host', featured_url: 'https://en.wikipedia.org/wiki/Host' });
    const send = (host: string) =>
      hookRequest(world, 'helloworld', {
        query: { api_key: bot.apiKey, stream: 'Verona' },
        body: payload,
        headers: { 'content-type': 'application/json', host },
      });
    expect((await send(world.host)).status).toBe(200);
    const elsewhere = await send(new URL(system().gatewayUrl).host);
    expect({ status: elsewhere.status, body: elsewhere.body }).toEqual({
      status: 400,
      body: { result: 'error', code: 'BAD_REQUEST', msg: 'Account is not associated with this subdomain' },
    });
  });
});

describe('bot storage serves any user, as Zulip does', () => {
  it('stores, reads and removes a person’s entries', async () => {
    const human = world.as('hamlet');
    expectSuccess(await human.request('PUT', '/bot_storage', { storage: { colour: 'blue' } }), 'PUT', '/bot_storage', {
      undocumented: true,
    });
    const read = await human.get('/bot_storage');
    expect({ status: read.status, storage: read.body.storage }).toEqual({ status: 200, storage: { colour: 'blue' } });
    expectSuccess(await human.delete('/bot_storage', { keys: ['colour'] }), 'DELETE', '/bot_storage', {
      undocumented: true,
    });
    expect((await human.get('/bot_storage')).body.storage).toEqual({});
    // Each user's storage is their own.
    expect((await world.as('othello').get('/bot_storage')).body.storage).toEqual({});
  });
});

describe("L7: another user's change to someone is in force for that someone's very next request", () => {
  it('a promotion, a demotion, a deactivation and a reactivation, each in the next request, on every service', async () => {
    const prosperoId = world.user('prospero').id;
    const prospero = world.as('prospero');
    const queue = await EventQueue.register(prospero, { event_types: ['message'] });
    // An administrator-only call that changes nothing: allowed to an administrator, refused to a member.
    const administer = () => prospero.patch(`/users/${world.user('hamlet').id}`, { role: 400 });
    for (let round = 0; round < 5; round++) {
      expectSuccess(
        await world.as('desdemona').patch(`/users/${prosperoId}`, { role: 200 }),
        'PATCH',
        '/users/{user_id}',
      );
      expectSuccess(await administer(), 'PATCH', '/users/{user_id}');
      expectSuccess(
        await world.as('desdemona').patch(`/users/${prosperoId}`, { role: 400 }),
        'PATCH',
        '/users/{user_id}',
      );
      expectError(await administer(), 400, 'BAD_REQUEST', 'Insufficient permission');

      expectSuccess(await world.as('iago').delete(`/users/${prosperoId}`), 'DELETE', '/users/{user_id}');
      expectError(await prospero.get('/users/me'), 401, 'UNAUTHORIZED', 'Account is deactivated');
      expectError(
        await prospero.post('/messages', toVerona('l7', `round ${round}`)),
        401,
        'UNAUTHORIZED',
        'Account is deactivated',
      );
      expectError(await queue.get({ dont_block: true }), 401, 'UNAUTHORIZED', 'Account is deactivated');
      expectSuccess(
        await world.as('iago').post(`/users/${prosperoId}/reactivate`),
        'POST',
        '/users/{user_id}/reactivate',
      );
      expectSuccess(await prospero.get('/users/me'), 'GET', '/users/me');
    }
  });
});
