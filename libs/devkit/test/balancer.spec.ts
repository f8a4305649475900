import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../src/infra';
import { LocalBalancer } from '../src/balancer';

/** A replica that answers with its name, the path, the Host header and the body it received. */
async function replica(name: string): Promise<{ server: Server; port: number }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = { name, path: req.url, host: req.headers.host, body: Buffer.concat(chunks).toString() };
      res.writeHead(201, { 'content-type': 'application/json', 'x-replica': name });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

describe('LocalBalancer (the development stack with CONFAB_REPLICAS)', () => {
  const servers: Server[] = [];
  const balancers: LocalBalancer[] = [];
  afterAll(async () => {
    await Promise.all(balancers.map((b) => b.close()));
    for (const server of servers) server.close();
  });

  async function balance(backendPorts: number[]): Promise<string> {
    const balancer = new LocalBalancer(backendPorts.map((port) => ({ host: '127.0.0.1', port })));
    balancers.push(balancer);
    return `http://127.0.0.1:${await balancer.listen(0)}`;
  }

  it('hands each request to the next replica in turn, passing method, path, Host, body and answer unchanged', async () => {
    const [a, b] = await Promise.all([replica('a'), replica('b')]);
    servers.push(a.server, b.server);
    const url = await balance([a.port, b.port]);
    const answers: { name: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${url}/api/v1/x?i=${i}`, {
        method: 'POST',
        body: `n=${i}`,
      });
      expect(response.status).toBe(201);
      expect(response.headers.get('x-replica')).toBeTruthy();
      answers.push((await response.json()) as { name: string });
    }
    expect(answers.map((answer) => answer.name)).toEqual(['a', 'b', 'a', 'b']);
    // The Host the client used (the balancer's), not the replica's address: organizations are told apart by it.
    expect(answers[2]).toEqual({ name: 'a', path: '/api/v1/x?i=2', host: new URL(url).host, body: 'n=2' });
  });

  it('sends a request without a body to the next replica when one refuses the connection', async () => {
    const up = await replica('up');
    servers.push(up.server);
    const url = await balance([await freePort(), up.port]);
    const names = [];
    for (let i = 0; i < 3; i++) names.push(((await (await fetch(`${url}/`)).json()) as { name: string }).name);
    expect(names).toEqual(['up', 'up', 'up']);
    // A body already on its way to the stopped replica cannot be sent again: the client is told.
    const statuses = [];
    for (let i = 0; i < 2; i++) statuses.push((await fetch(`${url}/`, { method: 'POST', body: 'x' })).status);
    expect(statuses.sort()).toEqual([201, 502]);
  });

  it('breaks its answer off when the replica breaks off midway, so the client is not left waiting', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(Buffer.alloc(64 * 1024, 1), () => res.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push(server);
    const url = await balance([(server.address() as AddressInfo).port]);
    const received = await new Promise<{ status: number; bytes: number; complete: boolean }>((resolve, reject) => {
      get(url, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => (bytes += c.length));
        res.on('close', () => resolve({ status: res.statusCode ?? 0, bytes, complete: res.complete }));
      }).on('error', reject);
    });
    expect(received.status).toBe(200);
    expect(received.complete).toBe(false);
    expect(received.bytes).toBeLessThanOrEqual(64 * 1024);
  });
});
