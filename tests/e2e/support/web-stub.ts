import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { GuardedHttpClient } from '@confab/http';
import { ALLOWED_TEST_HOST } from './global-setup';
import { system } from './system';

/** One request a stub site received. */
export interface SiteRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A web site of a test's own on this machine (the pages link previews fetch, the images the proxy serves): answers
 * each path with its handler (404 otherwise) and records every request, so a test can tell what the server fetched.
 */
export class StubSite {
  readonly received: SiteRequest[] = [];
  private readonly routes = new Map<string, Handler>();
  private server: Server | undefined;
  origin = '';

  constructor(private readonly host = ALLOWED_TEST_HOST) {}

  on(path: string, handler: Handler): this {
    this.routes.set(path, handler);
    return this;
  }

  /** A path answered with `body` as `type`. */
  serve(path: string, type: string, body: string | Buffer): this {
    return this.on(path, (_req, res) => res.writeHead(200, { 'Content-Type': type }).end(body));
  }

  url(path: string): string {
    return `${this.origin}${path}`;
  }

  requestsFor(path: string): SiteRequest[] {
    return this.received.filter((r) => r.path === path);
  }

  async start(): Promise<this> {
    const server = createServer((req, res) => {
      this.received.push({ path: req.url ?? '', headers: req.headers });
      const handler = this.routes.get(req.url ?? '');
      if (handler) handler(req, res);
      else res.writeHead(404, { 'Content-Type': 'text/plain' }).end('no such page');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, this.host, resolve);
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    this.origin = `http://${this.host.includes(':') ? `[${this.host}]` : this.host}:${port}`;
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * An address of this machine that the test deployment's allow-list (CONFAB_OUTGOING_ALLOWED_CIDRS) does not cover:
 * a site there stands for a private address the server must not reach. Chosen by the guarded client's own rule, so
 * the tests hold whatever the allow-list names.
 */
export function loopbackOutsideAllowList(): string {
  const configured = system().processes['messaging-worker']?.env.CONFAB_OUTGOING_ALLOWED_CIDRS ?? '';
  const client = new GuardedHttpClient({ allowedCidrs: configured.split(/[\s,]+/).filter(Boolean) });
  const address = ['127.0.0.1', '127.0.0.2', '127.45.67.89', '::1'].find((a) => client.refusal(a) !== null);
  if (!address) throw new Error(`the allow-list ${configured} covers every loopback address this test could use`);
  return address;
}
