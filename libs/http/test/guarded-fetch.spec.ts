import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  addressKind,
  GuardedHttpClient,
  isPublicAddress,
  OutgoingRequestError,
  type GuardedRequest,
  type Resolver,
} from '../src/guarded-fetch';

/**
 * The guarded client against real listeners on the loopback addresses. Every address the tests name is on this
 * machine: the refusals of other private networks are checked on the address rules alone, never by connecting.
 */

interface Hit {
  listener: string;
  method: string;
  url: string;
  host: string;
  body: string;
}

const hits: Hit[] = [];
let answer: (req: IncomingMessage, res: ServerResponse, body: string) => void = (_req, res) => res.end('hello');
const servers: Server[] = [];
let port = 0;

/** One port, listened on at 127.0.0.1, 127.0.0.2 and ::1: whichever form of loopback a request takes, it lands here. */
beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  for (const listener of ['127.0.0.1', '127.0.0.2', '::1']) {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        hits.push({ listener, method: req.method ?? '', url: req.url ?? '', host: req.headers.host ?? '', body });
        answer(req, res, body);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, listener, resolve);
    });
    servers.push(server);
  }
});

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

beforeEach(() => {
  hits.length = 0;
  answer = (_req, res) => res.end('hello');
});

const REQUEST: GuardedRequest = { timeoutMs: 5000, maxBytes: 1024 * 1024 };

async function failure(promise: Promise<unknown>): Promise<OutgoingRequestError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof OutgoingRequestError) return err;
    throw err;
  }
  throw new Error('the request succeeded');
}

describe('GuardedHttpClient: requests to URLs users choose', () => {
  const client = new GuardedHttpClient();

  it.each([
    '127.0.0.1',
    'localhost',
    '127.0.0.2',
    '0.0.0.0',
    '127.1',
    '2130706433',
    '0x7f.1',
    '0177.0.0.1',
    '0x7f000001',
    '[::1]',
    '[::ffff:127.0.0.1]',
    '[0:0:0:0:0:ffff:7f00:1]',
    '[::]',
  ])('refuses http://%s and never reaches the listener', async (host) => {
    const err = await failure(client.fetch(`http://${host}:${port}/secret`, { ...REQUEST, method: 'POST', body: 'x' }));
    expect(err.kind).toBe('refused');
    expect(hits).toEqual([]);
  });

  it('refuses a public-looking name that resolves to a private address (a name the tests resolve)', async () => {
    const resolve: Resolver = async (name) =>
      name === 'bots.example.com' ? [{ address: '127.0.0.1', family: 4 }] : Promise.reject(new Error('unknown'));
    const named = new GuardedHttpClient({ resolve });
    expect((await failure(named.fetch(`http://bots.example.com:${port}/`, REQUEST))).kind).toBe('refused');
    expect((await failure(named.fetch(`https://bots.example.com:${port}/`, REQUEST))).kind).toBe('refused');
    expect(hits).toEqual([]);
  });

  it('refuses a name with any disallowed address among its answers, and IPv4-mapped answers', async () => {
    const resolve: Resolver = async () => [
      { address: '::ffff:7f00:1', family: 6 },
      { address: '127.0.0.2', family: 4 },
    ];
    const named = new GuardedHttpClient({ resolve, allowedCidrs: ['127.0.0.2/32'] });
    expect((await failure(named.fetch(`http://mixed.example.com:${port}/`, REQUEST))).kind).toBe('refused');
    expect(hits).toEqual([]);
  });

  it('connects to the address it checked: one lookup per request, whatever the name answers next', async () => {
    const answers = ['127.0.0.1', '127.0.0.2'];
    let lookups = 0;
    const resolve: Resolver = async () => [{ address: answers[Math.min(lookups++, 1)]!, family: 4 }];
    const named = new GuardedHttpClient({ resolve, allowedCidrs: ['127.0.0.1/32'] });
    const got = await named.fetch(`http://rebinding.example.com:${port}/path?q=1`, {
      ...REQUEST,
      method: 'POST',
      body: 'payload',
      headers: { 'content-type': 'text/plain' },
    });
    expect(got).toMatchObject({ status: 200, truncated: false });
    expect(got.body.toString()).toBe('hello');
    expect(lookups).toBe(1);
    // It reached the checked address with the name in its Host header, not the address the name answered next.
    expect(hits).toEqual([
      {
        listener: '127.0.0.1',
        method: 'POST',
        url: '/path?q=1',
        host: `rebinding.example.com:${port}`,
        body: 'payload',
      },
    ]);
    // The next request resolves again, and the second answer is refused.
    expect((await failure(named.fetch(`http://rebinding.example.com:${port}/`, REQUEST))).kind).toBe('refused');
    expect(hits).toHaveLength(1);
  });

  it('reaches what the allow-list names, in every spelling of it, and nothing next to it', async () => {
    const allowed = new GuardedHttpClient({ allowedCidrs: ['127.0.0.1/32', '::1'] });
    for (const host of ['127.0.0.1', '127.1', '2130706433', 'localhost', '[::ffff:127.0.0.1]', '[::1]']) {
      const got = await allowed.fetch(`http://${host}:${port}/ok`, REQUEST);
      expect([host, got.status, got.body.toString()]).toEqual([host, 200, 'hello']);
    }
    expect(hits.map((h) => h.listener)).toEqual([
      '127.0.0.1',
      '127.0.0.1',
      '127.0.0.1',
      '127.0.0.1',
      '127.0.0.1',
      '::1',
    ]);
    expect((await failure(allowed.fetch(`http://127.0.0.2:${port}/`, REQUEST))).kind).toBe('refused');
    expect(hits).toHaveLength(6);
  });

  it('answers a 3xx as it is unless redirects are followed, and checks every redirect it follows', async () => {
    const allowed = new GuardedHttpClient({ allowedCidrs: ['127.0.0.1'] });
    answer = (req, res) => {
      if (req.url === '/to-private') res.writeHead(307, { location: `http://127.0.0.2:${port}/inside` }).end();
      else if (req.url === '/to-name') res.writeHead(302, { location: `http://localhost:${port}/inside` }).end();
      else if (req.url === '/post-307') res.writeHead(307, { location: '/landed' }).end();
      else if (req.url === '/post-302') res.writeHead(302, { location: '/landed' }).end();
      else if (req.url === '/loop') res.writeHead(301, { location: '/loop' }).end();
      else res.end(`landed ${req.method}`);
    };
    const post = { ...REQUEST, method: 'POST', body: 'data', headers: { 'content-type': 'text/plain' } };
    expect(await allowed.fetch(`http://127.0.0.1:${port}/to-private`, post)).toMatchObject({ status: 307 });
    const follow = { ...post, maxRedirects: 3 };
    expect((await failure(allowed.fetch(`http://127.0.0.1:${port}/to-private`, follow))).kind).toBe('refused');
    expect(hits.some((h) => h.listener === '127.0.0.2')).toBe(false);
    // localhost resolves to 127.0.0.1, which is allowed: the redirect's name is resolved and checked like the first.
    expect((await allowed.fetch(`http://127.0.0.1:${port}/to-name`, follow)).body.toString()).toBe('landed GET');
    const kept = await allowed.fetch(`http://127.0.0.1:${port}/post-307`, follow);
    expect([kept.body.toString(), kept.url]).toEqual(['landed POST', `http://127.0.0.1:${port}/landed`]);
    expect(hits.at(-1)).toMatchObject({ method: 'POST', body: 'data' });
    expect((await allowed.fetch(`http://127.0.0.1:${port}/post-302`, follow)).body.toString()).toBe('landed GET');
    expect(hits.at(-1)).toMatchObject({ method: 'GET', body: '' });
    const loop = await failure(allowed.fetch(`http://127.0.0.1:${port}/loop`, follow));
    expect([loop.kind, loop.message]).toEqual(['too-many-redirects', 'Exceeded 3 redirects.']);
  });

  it('closes the connection at the size cap instead of reading a huge answer to its end', async () => {
    const allowed = new GuardedHttpClient({ allowedCidrs: ['127.0.0.1'] });
    const total = 50 * 1024 * 1024;
    let written = 0;
    const closed = new Promise<boolean>((resolve) => {
      answer = (_req, res) => {
        const chunk = Buffer.alloc(64 * 1024, 'a');
        res.writeHead(200, { 'content-type': 'text/plain' });
        const pump = () => {
          while (written < total) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => resolve(written < total));
        pump();
      };
    });
    const got = await allowed.fetch(`http://127.0.0.1:${port}/huge`, { ...REQUEST, maxBytes: 1024 * 1024 });
    expect([got.status, got.body.length, got.truncated]).toEqual([200, 1024 * 1024, true]);
    // The peer saw its connection closed long before it could write the 50 MB.
    expect(await closed).toBe(true);
    expect(written).toBeLessThan(16 * 1024 * 1024);
  });

  it('reads an answer of exactly the cap whole, and streams with the same cap', async () => {
    const allowed = new GuardedHttpClient({ allowedCidrs: ['127.0.0.1'] });
    answer = (req, res) => res.end('x'.repeat(req.url === '/ten' ? 10 : 11));
    expect(await allowed.fetch(`http://127.0.0.1:${port}/ten`, { ...REQUEST, maxBytes: 10 })).toMatchObject({
      truncated: false,
    });
    const small = await allowed.open(`http://127.0.0.1:${port}/ten`, { ...REQUEST, maxBytes: 10 });
    const chunks: Buffer[] = [];
    for await (const chunk of small.body) chunks.push(chunk as Buffer);
    expect([small.status, Buffer.concat(chunks).toString()]).toEqual([200, 'x'.repeat(10)]);
    const big = await allowed.open(`http://127.0.0.1:${port}/eleven`, { ...REQUEST, maxBytes: 10 });
    const err = await failure(
      (async () => {
        for await (const _chunk of big.body) void _chunk;
      })(),
    );
    expect(err.kind).toBe('too-large');
  });

  it('closes the connection of a stream dropped before it was read', async () => {
    const allowed = new GuardedHttpClient({ allowedCidrs: ['127.0.0.1'] });
    const closed = new Promise<void>((resolve) => {
      answer = (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': '1000000' });
        res.write('x');
        res.on('close', () => resolve());
      };
    });
    const dropped = await allowed.open(`http://127.0.0.1:${port}/dropped`, { ...REQUEST, timeoutMs: 60_000 });
    dropped.body.destroy();
    await closed;
  });

  it('times out a peer that never answers, or stops sending half way', async () => {
    const allowed = new GuardedHttpClient({ allowedCidrs: ['127.0.0.1'] });
    answer = (req, res) => {
      if (req.url === '/half') {
        res.writeHead(200);
        res.write('begun');
      }
    };
    const started = Date.now();
    expect((await failure(allowed.fetch(`http://127.0.0.1:${port}/never`, { ...REQUEST, timeoutMs: 300 }))).kind).toBe(
      'timeout',
    );
    expect((await failure(allowed.fetch(`http://127.0.0.1:${port}/half`, { ...REQUEST, timeoutMs: 300 }))).kind).toBe(
      'timeout',
    );
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('tells connection failures and bad URLs apart', async () => {
    const allowed = new GuardedHttpClient({ allowedCidrs: ['127.0.0.1'] });
    const closedPort = createServer();
    await new Promise<void>((resolve) => closedPort.listen(0, '127.0.0.1', resolve));
    const free = (closedPort.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closedPort.close(() => resolve()));
    const refused = await failure(allowed.fetch(`http://127.0.0.1:${free}/`, REQUEST));
    expect([refused.kind, refused.code]).toEqual(['connection', 'ECONNREFUSED']);
    const unknown = new GuardedHttpClient({
      resolve: () => Promise.reject(Object.assign(new Error('nx'), { code: 'ENOTFOUND' })),
    });
    expect((await failure(unknown.fetch('http://nowhere.invalid/', REQUEST))).kind).toBe('connection');
    for (const url of ['ftp://127.0.0.1/', 'file:///etc/passwd', 'not a url', 'gopher://localhost:70/'])
      expect((await failure(allowed.fetch(url, REQUEST))).kind).toBe('invalid-url');
    expect(hits).toEqual([]);
  });
});

describe('the address rules (ipaddr.js ranges), checked without connecting anywhere', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['224.0.0.1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.10', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:2', 'reserved'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['2002:7f00:1::1', '6to4'],
    ['2001:db8::1', 'reserved'],
  ])('%s is %s, not public', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:93.184.216.34'])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('the allow-list lets its networks through, IPv4-mapped forms included, and refuses malformed entries', () => {
    const client = new GuardedHttpClient({ allowedCidrs: ['10.20.0.0/16', 'fd00::/8', '::ffff:192.168.5.0/120'] });
    expect(client.refusal('10.20.3.4')).toBeNull();
    expect(client.refusal('::ffff:10.20.3.4')).toBeNull();
    expect(client.refusal('fd00::5')).toBeNull();
    expect(client.refusal('192.168.5.9')).toBeNull();
    expect(client.refusal('10.21.0.1')).toBe('private');
    expect(client.refusal('169.254.169.254')).toBe('linkLocal');
    expect(client.refusal('8.8.8.8')).toBeNull();
    expect(() => new GuardedHttpClient({ allowedCidrs: ['10.0.0.0/33'] })).toThrow();
    expect(() => new GuardedHttpClient({ allowedCidrs: ['intranet'] })).toThrow();
  });
});
