import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createHttpApp,
  decodeAnswer,
  decodeRequest,
  encodeAnswer,
  encodeRequest,
  FrameReader,
  listenChannel,
  p,
  RawResponse,
  route,
  type RunningChannel,
} from '@confab/http';
import { IDENTITY_HEADER, IdentityVerifier, signIdentity } from '@confab/identity';
import { createLogger } from '@confab/logging';
import { createEventsChannel, type EventsChannel } from '../src/events-channel';

const SECRET = 'test-secret-at-least-16-chars';
const log = createLogger({ name: 'test', level: 'silent' });

describe('channel frames', () => {
  it('are cut out of any split of the byte stream, several per read or one over many', () => {
    const request = encodeRequest(7, {
      method: 'GET',
      url: '/api/v1/events?a=1',
      headers: { 'x-request-id': 'r' },
      body: Buffer.from('b=2'),
    });
    const answer = encodeAnswer(8, 400, { 'content-type': 'application/json' }, '{"result":"error","msg":"é"}');
    const stream = Buffer.concat([request, answer, request]);
    for (const size of [1, 2, 5, 13, stream.length]) {
      const frames: [number, number, Buffer][] = [];
      const reader = new FrameReader((type, id, payload) => frames.push([type, id, Buffer.from(payload)]));
      for (let at = 0; at < stream.length; at += size) reader.push(stream.subarray(at, at + size));
      expect(frames.map(([type, id]) => [type, id])).toEqual([
        [1, 7],
        [3, 8],
        [1, 7],
      ]);
      const got = decodeRequest(frames[0]![2]);
      expect({ ...got, body: got.body.toString() }).toEqual({
        method: 'GET',
        url: '/api/v1/events?a=1',
        headers: { 'x-request-id': 'r' },
        body: 'b=2',
      });
      const answered = decodeAnswer(frames[1]![2]);
      expect({ ...answered, body: answered.body.toString() }).toEqual({
        status: 400,
        headers: { 'content-type': 'application/json' },
        body: '{"result":"error","msg":"é"}',
      });
    }
  });

  it('refuse a frame length no peer sends', () => {
    const reader = new FrameReader(() => undefined);
    const bad = Buffer.alloc(9);
    bad.writeUInt32BE(0xffffffff, 0);
    expect(() => reader.push(bad)).toThrow(/bad channel frame/);
  });
});

/** A service with a waiting route served on a channel listener, and a gateway-like front forwarding over the channel. */
describe('createEventsChannel', () => {
  let channelServer: RunningChannel | undefined;
  let channelPort = 0;
  let front: Server;
  let frontUrl = '';
  let channel: EventsChannel;
  const fallbacks: string[] = [];
  let released: Promise<void> = Promise.resolve();
  let arrived: () => void = () => undefined;

  const app = createHttpApp({
    logger: log,
    verifier: new IdentityVerifier(SECRET),
    routes: [
      route({
        method: 'GET',
        path: '/events',
        auth: 'user',
        params: { wait: p.bool().default(false) },
        async handler({ identity, params, res, requestId }) {
          if (params.wait) {
            released = new Promise((resolve) => res.once('close', () => resolve()));
            arrived();
            await released;
          }
          return new RawResponse(200, JSON.stringify({ user: identity.userId, requestId }), {
            'Content-Type': 'application/json',
          });
        },
      }),
    ],
    readiness: () => Promise.resolve({}),
  });
  const identity = signIdentity(
    { kind: 'user', userId: 5, realmId: 1, role: 400, email: 'a@b.c', isBot: false },
    SECRET,
  );

  function get(path: string, headers: Record<string, string> = {}) {
    return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = request(`${frontUrl}${path}`, { headers: { [IDENTITY_HEADER]: identity, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  async function until(condition: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error('condition not reached');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  beforeAll(async () => {
    channelServer = await listenChannel(app.channel, 0, '127.0.0.1', log);
    channelPort = channelServer.port;
    channel = createEventsChannel({
      url: `tcp://127.0.0.1:${channelPort}`,
      connections: 2,
      timeoutMs: 10_000,
      log,
      fallback: (req, res) => {
        fallbacks.push(req.url ?? '');
        res.writeHead(299).end('fallback');
      },
      onError: (res, err) => {
        res.writeHead(502).end(String(err.code));
      },
    });
    front = createServer((req, res) => {
      res.setHeader('X-RateLimit-Limit', '200');
      channel.forward(req, res);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    await until(() => channel.openConnections() === 2);
  });
  afterAll(async () => {
    channel.close();
    await channelServer?.close(0);
    await new Promise((resolve) => front.close(resolve));
  });

  it('runs the route over the channel with the identity and request id, keeping the front’s own headers', async () => {
    const answer = await get('/api/v1/events', { 'x-request-id': 'req-1', cookie: 'not=forwarded' });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ user: 5, requestId: 'req-1' });
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.headers['x-ratelimit-limit']).toBe('200');
    expect(answer.headers['x-request-id']).toBe('req-1');
    expect(fallbacks).toEqual([]);
  });

  it('answers what the router does not serve as the HTTP app does', async () => {
    expect((await get('/api/v1/nothing')).status).toBe(404);
    const unauthenticated = await get('/api/v1/events', { [IDENTITY_HEADER]: '' });
    expect(unauthenticated.status).toBe(401);
  });

  it('ends the service’s request when the client goes away', async () => {
    const waiting = new Promise<void>((resolve) => (arrived = resolve));
    const req = request(`${frontUrl}/api/v1/events?wait=true`, { headers: { [IDENTITY_HEADER]: identity } });
    req.on('error', () => undefined);
    req.end();
    await waiting;
    req.destroy();
    await released;
  });

  it('takes the fallback while the service is down, and reconnects when it is back', async () => {
    await channelServer!.close(0);
    await until(() => channel.openConnections() === 0);
    expect((await get('/api/v1/events')).status).toBe(299);
    expect(fallbacks).toEqual(['/api/v1/events']);
    channelServer = await listenChannel(app.channel, channelPort, '127.0.0.1', log);
    await until(() => channel.openConnections() === 2);
    expect((await get('/api/v1/events')).status).toBe(200);
    expect(fallbacks).toHaveLength(1);
  });
});
