import { execFile } from 'node:child_process';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

const PROBE = join(__dirname, '..', '..', 'scripts', 'probe.mjs');

function probe(args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    // Only the variables given: the probe must not pick up this machine's REDIS_URL and the like.
    execFile(
      process.execPath,
      [PROBE, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env } },
      (err, out, errOut) => resolve({ code: err ? Number(err.code) : 0, output: `${out}${errOut}` }),
    );
  });
}

const listen = <S extends Server | HttpServer>(server: S) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const close = (server: Server | HttpServer) => new Promise((resolve) => server.close(resolve));

/** A port nothing listens on: taken, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await close(server);
  return port;
}

describe('scripts/probe.mjs', () => {
  it('http: succeeds on 2xx and fails on 503 or when nothing answers', async () => {
    const server = createHttpServer((req, res) => res.writeHead(req.url === '/readyz' ? 200 : 503).end());
    const port = await listen(server);
    try {
      expect((await probe(['http', `http://127.0.0.1:${port}/readyz`])).code).toBe(0);
      expect(await probe(['http', `http://127.0.0.1:${port}/other`])).toEqual({
        code: 1,
        output: expect.stringContaining('answered 503'),
      });
    } finally {
      await close(server);
    }
    expect((await probe(['http', `http://127.0.0.1:${await closedPort()}/readyz`])).code).toBe(1);
  });

  it('reach: checks every dependency variable that is set, and fails when one does not accept connections', async () => {
    const server = createServer((socket) => socket.destroy());
    const port = await listen(server);
    const down = await closedPort();
    try {
      const up = { REDIS_URL: `redis://127.0.0.1:${port}`, GROUPS_DATABASE_URL: `postgresql://u@127.0.0.1:${port}/g` };
      expect((await probe(['reach'], up)).code).toBe(0);
      const failed = await probe(['reach'], { ...up, AMQP_URL: `amqp://127.0.0.1:${down}` });
      expect(failed).toEqual({ code: 1, output: expect.stringContaining(`AMQP_URL (127.0.0.1:${down})`) });
      expect((await probe(['reach', 'REDIS_URL'], { REDIS_URL: `redis://127.0.0.1:${down}` })).code).toBe(1);
      expect((await probe(['reach', 'REDIS_URL'])).output).toContain('REDIS_URL is not set');
    } finally {
      await close(server);
    }
  });

  it('connected: succeeds only while a connection to the port of the variable is established', async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    const port = await listen(server);
    const env = { REDIS_URL: `redis://127.0.0.1:${port}` };
    try {
      expect((await probe(['connected', 'REDIS_URL'], env)).code).toBe(1);
      const client = connect(port, '127.0.0.1');
      await new Promise((resolve) => client.once('connect', resolve));
      expect((await probe(['connected', 'REDIS_URL'], env)).code).toBe(0);
      client.destroy();
      sockets.forEach((s) => s.destroy());
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await probe(['connected', 'REDIS_URL'], env)).toEqual({
        code: 1,
        output: expect.stringContaining(`no established connection to port ${port}`),
      });
    } finally {
      await close(server);
    }
  });

  it('refuses an unknown mode with a usage line', async () => {
    expect(await probe(['status'])).toEqual({ code: 2, output: expect.stringContaining('usage:') });
  });
});
