import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createLogger } from '@confab/logging';
import { RelayClient } from '../src/relay/client';
import type { RelayConfig } from '../src/config';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A relay on 127.0.0.1 whose answers each test scripts. */
let server: Server;
let url: string;
let handler: Handler;
const seen: { path: string; headers: IncomingMessage['headers']; body: string; at: number }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body, at: Date.now() });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

const logger = createLogger({ name: 'test', level: 'silent' });
const reply = (status: number, body: unknown) => (_req: IncomingMessage, _body: string, res: ServerResponse) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

function client(overrides: Partial<RelayConfig> = {}): RelayClient {
  return new RelayClient(
    { url, serverId: 'srv', serverKey: 'secret', timeoutMs: 300, attempts: 3, backoffMs: 20, ...overrides },
    logger,
  );
}

const notification = { device_id: 'd1', push_account_id: 5, encrypted_data: 'AAAA', priority: 'high' as const };

describe('RelayClient', () => {
  it('posts JSON with Basic credentials and the idempotency key', async () => {
    handler = reply(200, { delivered: true });
    expect(await client().notify(notification, { idempotencyKey: 'job-1:7' })).toEqual({ ok: true, value: undefined });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.path).toBe('/api/v1/remotes/push/e2ee/notify');
    expect(seen[0]!.headers.authorization).toBe(`Basic ${Buffer.from('srv:secret').toString('base64')}`);
    expect(seen[0]!.headers['idempotency-key']).toBe('job-1:7');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body)).toEqual(notification);
  });

  it('retries a 5xx with doubling backoff and the same key, then reports a server failure', async () => {
    handler = reply(503, {});
    const result = await client().notify(notification, { idempotencyKey: 'k' });
    expect(result).toMatchObject({ ok: false, failure: 'server' });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((s) => s.headers['idempotency-key']))).toEqual(new Set(['k']));
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(18);
    expect(seen[2]!.at - seen[1]!.at).toBeGreaterThanOrEqual(38);
  });

  it('succeeds when a retry does', async () => {
    let calls = 0;
    handler = (req, body, res) =>
      ++calls === 1 ? reply(500, {})(req, body, res) : reply(200, { delivered: true })(req, body, res);
    expect(await client().notify(notification, { idempotencyKey: 'k' })).toEqual({ ok: true, value: undefined });
    expect(seen).toHaveLength(2);
  });

  it('does not retry a refusal of our credentials, nor a 400 to a notification', async () => {
    handler = reply(401, { code: 'UNAUTHORIZED' });
    expect(await client().notify(notification, { idempotencyKey: 'k' })).toMatchObject({ ok: false, failure: 'admin' });
    handler = reply(400, { code: 'BAD_REQUEST' });
    expect(await client().notify(notification, { idempotencyKey: 'k' })).toMatchObject({ ok: false, failure: 'admin' });
    expect(seen).toHaveLength(2);
  });

  it("returns the relay's device id on registration, and its code when it rejects the device", async () => {
    const registration = {
      realm_id: 1,
      push_account_id: 5,
      token_kind: 'fcm' as const,
      bouncer_public_key: 'b',
      encrypted_push_registration: 'e',
    };
    handler = reply(200, { device_id: 'relay-9' });
    expect(await client().register(registration, { idempotencyKey: 'r' })).toEqual({
      ok: true,
      value: { device_id: 'relay-9' },
    });
    handler = reply(400, { code: 'REQUEST_EXPIRED' });
    expect(await client().register(registration, { idempotencyKey: 'r' })).toMatchObject({
      ok: false,
      failure: 'rejected',
      code: 'REQUEST_EXPIRED',
    });
    handler = reply(400, { code: 'SOMETHING_ELSE' });
    expect(await client().register(registration, { idempotencyKey: 'r' })).toMatchObject({
      ok: false,
      failure: 'rejected',
      code: 'BAD_REQUEST',
    });
    handler = reply(200, {});
    expect(await client().register(registration, { idempotencyKey: 'r', attempts: 1 })).toMatchObject({
      ok: false,
      failure: 'server',
    });
  });

  it('gives up on a relay that does not answer after its attempts, each bounded by the timeout', async () => {
    handler = () => undefined;
    const started = Date.now();
    expect(await client({ attempts: 2 }).notify(notification, { idempotencyKey: 'k' })).toMatchObject({
      ok: false,
      failure: 'network',
    });
    expect(seen).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('starts no attempt and no wait past the deadline', async () => {
    handler = () => undefined;
    const started = Date.now();
    const result = await client({ timeoutMs: 5000, attempts: 5, backoffMs: 100 }).notify(notification, {
      idempotencyKey: 'k',
      deadline: started + 400,
    });
    expect(result).toMatchObject({ ok: false, failure: 'network' });
    expect(Date.now() - started).toBeLessThan(700);
    expect(seen).toHaveLength(1);
    expect(await client().notify(notification, { idempotencyKey: 'k', deadline: Date.now() - 1 })).toMatchObject({
      ok: false,
      failure: 'network',
    });
    expect(seen).toHaveLength(1);
  });

  it('reports a closed port as a network failure, and no relay at all as an admin problem without a request', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(
      await client({ url: `http://127.0.0.1:${port}` }).notify(notification, { idempotencyKey: 'k' }),
    ).toMatchObject({ ok: false, failure: 'network' });
    expect(await client({ url: '' }).notify(notification, { idempotencyKey: 'k' })).toMatchObject({
      ok: false,
      failure: 'admin',
    });
    expect(seen).toHaveLength(0);
  });
});
