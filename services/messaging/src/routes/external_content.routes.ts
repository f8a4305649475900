import { pipeline } from 'node:stream/promises';
import type { Express, Request, Response } from 'express';
import { GuardedHttpClient, OutgoingRequestError } from '@confab/http';
import { IDENTITY_HEADER } from '@confab/identity';
import type { MessagingDeps } from '../deps.js';
import { ImageProxyUrls } from '../rendering/camo.js';

/**
 * GET /external_content/<digest>/<hex url>: the external image proxy (Zulip's camo; docs/security.md, "The external
 * image proxy"). Rendered messages show every image of another host from here, so readers' browsers load nothing
 * from elsewhere (the page's CSP stays `img-src 'self'`) and their addresses never reach those hosts. Only URLs this
 * server signed are fetched, through the guarded client, with a size cap and a timeout; only raster images pass
 * (no SVG, which can carry script), and nothing of the reader's request (cookies, credentials, referrer) goes along.
 */
export const PROXIED_IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/bmp',
  'image/avif',
  'image/apng',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

const USER_AGENT = 'Mozilla/5.0 (compatible; ConfabExternalContent)';
/** Upstream headers an answer keeps (its caching), besides the type and length this route sets itself. */
const KEPT_HEADERS = ['cache-control', 'etag', 'last-modified', 'expires'];
/** The reader's conditional headers, passed on so that a cached image is answered with 304. */
const CONDITIONAL_HEADERS = ['if-none-match', 'if-modified-since'];

function refuse(res: Response, status: number, text: string): void {
  res.status(status).type('text/plain').set('Cache-Control', 'no-store').send(text);
}

export function mountExternalContent(app: Express, deps: MessagingDeps): void {
  const urls = new ImageProxyUrls(deps.config.imageProxy.key);
  const client = new GuardedHttpClient({ allowedCidrs: deps.config.outgoingAllowedCidrs });
  const { maxBytes, timeoutMs } = deps.config.imageProxy;
  app.get(/^\/external_content\/([^/]+)\/([^/]+)$/, async (req: Request, res: Response) => {
    res.locals.route = '/external_content';
    const header = req.headers[IDENTITY_HEADER];
    // A public path of the gateway: any identity it stamped will do (anonymous included), none will not.
    if (!deps.verifier.verify(typeof header === 'string' ? header : undefined))
      return refuse(res, 401, 'Not logged in: API authentication or user session required');
    const params = req.params as Record<string, string>;
    const target = urls.target(params[0] ?? '', params[1] ?? '');
    if (target === null) return refuse(res, 403, 'Invalid signature');
    const headers: Record<string, string> = { 'User-Agent': USER_AGENT, Accept: 'image/*' };
    for (const name of CONDITIONAL_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    let upstream;
    try {
      upstream = await client.open(target, {
        headers,
        timeoutMs,
        connectTimeoutMs: Math.min(timeoutMs, 5000),
        maxBytes,
        maxRedirects: 4,
      });
    } catch (err) {
      if (!(err instanceof OutgoingRequestError)) throw err;
      deps.logger.info({ kind: err.kind, err: err.message }, 'external content not fetched');
      if (err.kind === 'refused' || err.kind === 'invalid-url') return refuse(res, 403, 'Not a public address');
      return refuse(res, err.kind === 'timeout' ? 504 : 502, 'The image could not be fetched');
    }
    const drop = (status: number, text: string) => {
      upstream.body.destroy();
      refuse(res, status, text);
    };
    if (upstream.status === 304) {
      upstream.body.destroy();
      for (const name of KEPT_HEADERS) if (upstream.headers[name]) res.set(name, String(upstream.headers[name]));
      return res.status(304).end();
    }
    if (upstream.status < 200 || upstream.status >= 300) return drop(404, 'Not found');
    const type = String(upstream.headers['content-type'] ?? '')
      .split(';', 1)[0]!
      .trim()
      .toLowerCase();
    if (!PROXIED_IMAGE_TYPES.has(type)) return drop(415, 'Not an image');
    const declared = Number(upstream.headers['content-length'] ?? Number.NaN);
    if (declared > maxBytes) return drop(502, 'The image is too large');
    res.status(200);
    res.set({
      'Content-Type': type,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'public, max-age=86400',
    });
    if (Number.isFinite(declared)) res.set('Content-Length', String(declared));
    for (const name of KEPT_HEADERS) if (upstream.headers[name]) res.set(name, String(upstream.headers[name]));
    try {
      // Past the size cap (or the timeout) the stream fails: the answer is cut off and its connection closed.
      await pipeline(upstream.body, res);
    } catch (err) {
      deps.logger.info({ err: (err as Error).message }, 'external content cut off');
      res.destroy();
    }
  });
}
