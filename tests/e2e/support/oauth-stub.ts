import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

interface Grant {
  expiresAt: number;
  revoked: boolean;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
};

/**
 * A meeting provider on 127.0.0.1 for tests: an OAuth 2.0 authorization server (authorization code and refresh
 * token grants, client_secret_post) that approves every authorization at once, and a meetings API that needs a valid
 * bearer token. Tests can shorten token lifetimes, revoke tokens and make meeting creation fail.
 */
export class OAuthStub {
  readonly clientId = 'confab-test-client';
  readonly clientSecret = 'confab-test-secret';
  /** Lifetime, in seconds, of the access tokens issued from now on. */
  expiresIn = 3600;
  failMeetings = false;
  readonly counts = { codeExchanges: 0, refreshes: 0, meetings: 0 };
  /** Bearer tokens the meetings API was called with, in order. */
  readonly meetingTokens: string[] = [];
  private readonly codes = new Map<string, string>();
  private readonly accessTokens = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, Grant>();
  private server!: Server;
  port = 0;

  static async start(): Promise<OAuthStub> {
    const stub = new OAuthStub();
    stub.server = createServer((req, res) => {
      stub.handle(req, res).catch(() => json(res, 500, { error: 'server_error' }));
    });
    await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
    const address = stub.server.address();
    stub.port = typeof address === 'object' && address ? address.port : 0;
    return stub;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Revokes every token issued so far (what a user does by removing the app at the provider). */
  revokeAll(which: 'access' | 'refresh' | 'both' = 'both'): void {
    if (which !== 'refresh') for (const grant of this.accessTokens.values()) grant.revoked = true;
    if (which !== 'access') for (const grant of this.refreshTokens.values()) grant.revoked = true;
  }

  private issue(res: ServerResponse): void {
    const access = `at-${randomBytes(12).toString('hex')}`;
    const refresh = `rt-${randomBytes(12).toString('hex')}`;
    this.accessTokens.set(access, { expiresAt: Date.now() + this.expiresIn * 1000, revoked: false });
    this.refreshTokens.set(refresh, { expiresAt: Infinity, revoked: false });
    json(res, 200, { access_token: access, refresh_token: refresh, token_type: 'bearer', expires_in: this.expiresIn });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
      const redirect = url.searchParams.get('redirect_uri');
      if (
        url.searchParams.get('client_id') !== this.clientId ||
        url.searchParams.get('response_type') !== 'code' ||
        !redirect
      ) {
        return json(res, 400, { error: 'invalid_request' });
      }
      const code = `code-${randomBytes(8).toString('hex')}`;
      this.codes.set(code, redirect);
      const back = new URL(redirect);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.toString() }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/oauth/token') {
      const form = new URLSearchParams(await readBody(req));
      if (form.get('client_id') !== this.clientId || form.get('client_secret') !== this.clientSecret)
        return json(res, 401, { error: 'invalid_client' });
      if (form.get('grant_type') === 'authorization_code') {
        this.counts.codeExchanges++;
        const code = form.get('code') ?? '';
        const redirect = this.codes.get(code);
        this.codes.delete(code);
        if (!redirect || redirect !== form.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant' });
        return this.issue(res);
      }
      if (form.get('grant_type') === 'refresh_token') {
        this.counts.refreshes++;
        const grant = this.refreshTokens.get(form.get('refresh_token') ?? '');
        if (!grant || grant.revoked) return json(res, 400, { error: 'invalid_grant' });
        // Refresh tokens rotate: the old one stops working.
        grant.revoked = true;
        return this.issue(res);
      }
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    if (req.method === 'POST' && url.pathname === '/v2/meetings') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const grant = this.accessTokens.get(token);
      if (!grant || grant.revoked || grant.expiresAt <= Date.now())
        return json(res, 401, { code: 124, message: 'Invalid access token' });
      this.meetingTokens.push(token);
      if (this.failMeetings) return json(res, 503, { message: 'try later' });
      this.counts.meetings++;
      return json(res, 201, { id: this.counts.meetings, join_url: `https://meet.stub.test/j/${this.counts.meetings}` });
    }
    json(res, 404, { error: 'not_found' });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
