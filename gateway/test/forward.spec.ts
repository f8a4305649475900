import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createForwarder } from '../src/forward';

/** A stub service on 127.0.0.1 and a gateway-like front that forwards every request to it. */
async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<Server> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

describe('createForwarder', () => {
  const servers: Server[] = [];
  let seen: { method?: string; url?: string; headers?: IncomingMessage['headers']; body?: string } = {};
  let closedEarly: Promise<void> = Promise.resolve();
  let arrived: () => void = () => undefined;
  let front = '';
  let errors: string[] = [];

  beforeAll(async () => {
    let onClose: () => void = () => undefined;
    const service = await serve((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() };
        if (req.url === '/wait') {
          closedEarly = new Promise((resolve) => (onClose = resolve));
          res.once('close', () => onClose());
          arrived();
          return;
        }
        if (req.url === '/big') {
          res.setHeader('Content-Type', 'text/plain');
          res.end('x'.repeat(1024 * 1024));
          return;
        }
        if (req.url === '/chunked') {
          res.write('one,');
          res.end('two');
          return;
        }
        if (req.url === '/cookies') res.setHeader('Set-Cookie', ['a=1', 'b=2']);
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ ok: true }));
      });
    });
    const forward = createForwarder({
      target: urlOf(service),
      maxSockets: 10,
      timeoutMs: 10_000,
      onError: (res, err) => {
        errors.push(String(err.code));
        res.statusCode = 502;
        res.end();
      },
    });
    const refused = createForwarder({
      target: 'http://127.0.0.1:1',
      maxSockets: 10,
      timeoutMs: 10_000,
      onError: (res, err) => {
        errors.push(String(err.code));
        res.statusCode = 503;
        res.end();
      },
    });
    const gateway = await serve((req, res) => {
      res.setHeader('X-Gateway', 'yes');
      (req.url === '/refused' ? refused : forward)(req, res);
    });
    servers.push(service, gateway);
    front = urlOf(gateway);
  });
  afterAll(async () => {
    for (const s of servers) {
      s.closeAllConnections();
      await new Promise((resolve) => s.close(resolve));
    }
  });
  beforeEach(() => {
    errors = [];
  });

  it('forwards method, path, query, body and headers, and adds the X-Forwarded headers', async () => {
    const response = await fetch(`${front}/api/v1/messages?x=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-custom': 'kept' },
      body: 'content=hello',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gateway')).toBe('yes');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toMatchObject({ method: 'POST', url: '/api/v1/messages?x=1', body: 'content=hello' });
    expect(seen.headers).toMatchObject({
      'x-custom': 'kept',
      'x-forwarded-for': '127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': new URL(front).host,
      'x-forwarded-port': new URL(front).port,
    });
  });

  it('gives a bodiless DELETE a zero length, and keeps every Set-Cookie', async () => {
    const response = await fetch(`${front}/cookies`, { method: 'DELETE' });
    expect(seen.method).toBe('DELETE');
    expect(seen.headers?.['content-length']).toBe('0');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('streams large and chunked answers whole', async () => {
    expect((await (await fetch(`${front}/big`)).text()).length).toBe(1024 * 1024);
    expect(await (await fetch(`${front}/chunked`)).text()).toBe('one,two');
  });

  it('reports a service it cannot reach', async () => {
    expect((await fetch(`${front}/refused`)).status).toBe(503);
    expect(errors).toEqual(['ECONNREFUSED']);
  });

  it("ends the service's request when the client goes away, without reporting an error", async () => {
    const waiting = new Promise<void>((resolve) => (arrived = resolve));
    const client = request(`${front}/wait`);
    client.on('error', () => undefined);
    client.end();
    await waiting;
    client.destroy();
    await closedEarly;
    expect(errors).toEqual([]);
  });
});
