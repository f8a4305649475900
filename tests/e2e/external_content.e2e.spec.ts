import { request, type IncomingHttpHeaders } from 'node:http';
import type { World } from '@confab/devkit';
import { expectSuccess } from './support/expect';
import { newWorld, system, useExtraProcesses } from './support/system';
import { StubSite } from './support/web-stub';

// The external image proxy (docs/security.md, "The external image proxy"): GET /external_content/<digest>/<hex url>
// through the gateway, for images of a site of the test's own on ALLOWED_TEST_HOST (the test deployment's allow-list).
jest.setTimeout(180_000);

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
/** The proxy's default cap (MESSAGING_EXTERNAL_CONTENT_MAX_MIB). */
const CAP = 25 * 1024 * 1024;

const site = new StubSite();
const start = useExtraProcesses();
let world: World;

beforeAll(async () => {
  site
    .on('/cat.png', (req, res) => {
      const caching = { 'Cache-Control': 'public, max-age=600', ETag: '"cat1"' };
      if (req.headers['if-none-match'] === '"cat1"') res.writeHead(304, caching).end();
      else res.writeHead(200, { 'Content-Type': 'image/png', ...caching }).end(PNG);
    })
    .serve('/page.png', 'text/html', '<html><body>not an image</body></html>')
    .serve('/vector.png', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
    .on('/declared.png', (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(CAP + 1) });
      res.write(PNG);
    })
    .on('/endless.png', (_req, res) => {
      // Chunked, no length: the proxy learns it is too large only while passing it on.
      res.writeHead(200, { 'Content-Type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024, 1);
      let sent = 0;
      const more = () => {
        while (sent <= CAP + chunk.length) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => (sent = Number.MAX_SAFE_INTEGER));
      more();
    })
    .on('/moved.png', (_req, res) => res.writeHead(302, { Location: '/cat.png' }).end());
  await site.start();
  world = await newWorld();
});

afterAll(() => site.stop());

/** The proxy URL the server renders for an image link (the digest is the server's; a test cannot make one). */
async function proxyUrl(url: string): Promise<string> {
  const rendered = await world.as('hamlet').post('/messages/render', { content: url });
  expectSuccess(rendered, 'POST', '/messages/render');
  const src = /<img src="(\/external_content\/[0-9a-f]{40}\/[0-9a-f]+)">/.exec(rendered.body.rendered as string)?.[1];
  if (!src) throw new Error(`no proxied image in ${String(rendered.body.rendered)}`);
  return src;
}

interface Fetched {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The answer ended before its end (the connection was closed). */
  cut: boolean;
}

/** A GET as a browser makes it: the organization's host, the reader's cookie and referrer, no API credentials. */
function fetchImage(
  path: string,
  gatewayUrl = system().gatewayUrl,
  headers: Record<string, string> = {},
): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, gatewayUrl),
      {
        headers: {
          host: world.host,
          'x-forwarded-for': world.anonymous().options.forwardedFor ?? '',
          cookie: 'confab_session=the-readers-session',
          referer: `http://${world.host}/#narrow/channel/1-general`,
          ...headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= CAP + 4 * 1024 * 1024) chunks.push(c);
        });
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            cut: !res.complete,
          });
        res.on('end', done);
        res.on('aborted', done);
        res.on('error', done);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the external image proxy', () => {
  it('serves an image of another host from this host, with its caching and nothing of the reader', async () => {
    const path = await proxyUrl(site.url('/cat.png'));
    const image = await fetchImage(path, system().gatewayUrl, { authorization: 'Basic aGFtbGV0OnNlY3JldA==' });
    expect({ status: image.status, type: image.headers['content-type'], cut: image.cut }).toEqual({
      status: 200,
      type: 'image/png',
      cut: false,
    });
    expect(image.body.equals(PNG)).toBe(true);
    expect(image.headers['cache-control']).toBe('public, max-age=600');
    expect(image.headers.etag).toBe('"cat1"');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['set-cookie']).toBeUndefined();
    const [asked] = site.requestsFor('/cat.png');
    expect(asked!.headers.cookie).toBeUndefined();
    expect(asked!.headers.referer).toBeUndefined();
    expect(asked!.headers.authorization).toBeUndefined();
    expect(asked!.headers['user-agent']).toMatch(/ConfabExternalContent/);
    // The reader's cached copy is checked with the image's host: 304.
    const again = await fetchImage(path, system().gatewayUrl, { 'if-none-match': '"cat1"' });
    expect({ status: again.status, etag: again.headers.etag, body: again.body.length }).toEqual({
      status: 304,
      etag: '"cat1"',
      body: 0,
    });
    // Redirects are followed (each hop checked like the first).
    const moved = await fetchImage(await proxyUrl(site.url('/moved.png')));
    expect({ status: moved.status, same: moved.body.equals(PNG) }).toEqual({ status: 200, same: true });
  });

  it('refuses a URL it did not sign: it is no open proxy', async () => {
    const path = await proxyUrl(site.url('/cat.png'));
    const [, , digest] = path.split('/');
    const forged = `/external_content/${digest}/${Buffer.from('http://127.0.0.1:1/internal').toString('hex')}`;
    const before = site.received.length;
    for (const attempt of [
      forged,
      `/external_content/${'0'.repeat(40)}/${path.split('/')[3]}`,
      '/external_content/x/y',
    ]) {
      const refused = await fetchImage(attempt);
      expect({ status: refused.status, text: refused.body.toString() }).toEqual({
        status: 403,
        text: 'Invalid signature',
      });
    }
    expect(site.received.length).toBe(before);
  });

  it('passes only raster images: no HTML, no SVG', async () => {
    for (const name of ['/page.png', '/vector.png']) {
      const refused = await fetchImage(await proxyUrl(site.url(name)));
      expect({ status: refused.status, text: refused.body.toString() }).toEqual({ status: 415, text: 'Not an image' });
    }
  });

  it('refuses an image larger than its cap, and cuts off one that turns out larger', async () => {
    const declared = await fetchImage(await proxyUrl(site.url('/declared.png')));
    expect({ status: declared.status, text: declared.body.toString() }).toEqual({
      status: 502,
      text: 'The image is too large',
    });
    const endless = await fetchImage(await proxyUrl(site.url('/endless.png')));
    expect(endless.status).toBe(200);
    expect(endless.cut).toBe(true);
    expect(endless.body.length).toBeLessThanOrEqual(CAP);
  });

  it('does not reach a private address when the allow-list does not name it', async () => {
    const path = await proxyUrl(site.url('/cat.png'));
    // A messaging process of the same deployment without the test allowance, behind a gateway of its own.
    const messaging = await start('messaging', { CONFAB_OUTGOING_ALLOWED_CIDRS: '' });
    const gateway = await start('gateway', { MESSAGING_URL: messaging.url });
    const before = site.requestsFor('/cat.png').length;
    const refused = await fetchImage(path, gateway.url);
    expect({ status: refused.status, text: refused.body.toString() }).toEqual({
      status: 403,
      text: 'Not a public address',
    });
    expect(site.requestsFor('/cat.png')).toHaveLength(before);
  });
});
