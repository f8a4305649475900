import { createHash, randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { ApiClient, freePort, serviceToken, type LdapValues, type World } from '@confab/devkit';
import { system, useExtraProcesses } from './system';

/**
 * The sign-in tests' own settings service (configured with an identity provider of the test's) and a gateway in
 * front of it; the rest of the system is the suite's. Both are stopped after the file's tests.
 */
export function useSsoStack(): (env: Record<string, string>, port?: number) => Promise<SsoStack> {
  const extra = useExtraProcesses();
  return async (env, chosenPort) => {
    // The organizations' URLs (where the identity providers send browsers back) are this gateway's.
    const port = chosenPort ?? (await freePort());
    const externalUrl = `http://localhost:${port}`;
    const settings = await extra('settings', { CONFAB_EXTERNAL_URL: externalUrl, ...env });
    const gateway = await extra('gateway', { SETTINGS_URL: settings.url, CONFAB_PORT: String(port) });
    return new SsoStack(gateway.url, settings.url, externalUrl);
  };
}

export class SsoStack {
  constructor(
    readonly gatewayUrl: string,
    readonly settingsUrl: string,
    readonly externalUrl: string,
  ) {}

  /** The organization's URL on this stack (where its flows start and end). */
  realmUrl(world: World): string {
    const url = new URL(this.externalUrl);
    url.hostname = `${world.realm.string_id}.${url.hostname}`;
    return url.origin;
  }

  /**
   * What a browser at the organization's URL sends (no redirect followed): the path and query of `url` to this gateway
   * with the organization's Host header.
   */
  browse(
    world: World,
    url: string,
    options: { cookie?: string; form?: Record<string, string> } = {},
  ): Promise<RawAnswer> {
    const target = new URL(url, this.realmUrl(world));
    return rawRequest(new URL(`${target.pathname}${target.search}`, this.gatewayUrl).href, {
      host: world.host,
      forwardedFor: world.clientAddress,
      ...options,
    });
  }

  /** An anonymous client of `world` through this stack's gateway. */
  anonymous(world: World): ApiClient {
    return new ApiClient(this.gatewayUrl, { host: world.host, forwardedFor: world.clientAddress });
  }

  as(world: World, name: Parameters<World['user']>[0]): ApiClient {
    return this.anonymous(world).withCredentials(world.user(name).email, world.user(name).apiKey);
  }

  /** This settings service's part of /register for a user (the suite's events service asks the suite's settings). */
  async initialState(userId: number): Promise<Record<string, any>> {
    const response = await fetch(`${this.settingsUrl}/internal/users/${userId}/initial-state`, {
      headers: { 'x-confab-identity': serviceToken(system()) },
    });
    return (await response.json()) as Record<string, any>;
  }
}

/** The cookies a response sets, as the Cookie header a browser would send back. */
export function cookiesOf(response: { headers: IncomingHttpHeaders }, previous = ''): string {
  const jar = new Map(
    previous
      .split('; ')
      .filter(Boolean)
      .map((c) => [c.split('=')[0]!, c] as const),
  );
  for (const c of ([] as string[]).concat(response.headers['set-cookie'] ?? [])) {
    const pair = c.split(';')[0]!;
    jar.set(pair.split('=')[0]!, pair);
  }
  return [...jar.values()].filter((c) => !c.endsWith('=')).join('; ');
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  location: string;
}

/** One HTTP request, no redirect followed: GET, or POST of a form. */
export function rawRequest(
  url: string,
  options: { host?: string; forwardedFor?: string; cookie?: string; form?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const body = options.form ? Buffer.from(new URLSearchParams(options.form).toString()) : undefined;
  const headers: Record<string, string> = {};
  if (options.host) headers.host = options.host;
  if (options.forwardedFor) headers['x-forwarded-for'] = options.forwardedFor;
  if (options.cookie) headers.cookie = options.cookie;
  if (body) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(body.length);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: body ? 'POST' : 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
          location: res.headers.location ?? '',
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The reason a refused flow shows on the sign-in page (`/?login_error=…`), or null when it was not refused. */
export function loginError(location: string): string | null {
  if (!location) return null;
  return new URL(location, 'http://x').searchParams.get('login_error');
}

/** The API key of a `zulip://login` redirect: `otp_encrypted_api_key` XOR the app's one-time pad (hex digits). */
export function decryptOtp(encrypted: string, otp: string): string {
  let hex = '';
  for (let i = 0; i < encrypted.length; i++) hex += (parseInt(encrypted[i]!, 16) ^ parseInt(otp[i]!, 16)).toString(16);
  return Buffer.from(hex, 'hex').toString('utf8');
}

/** The OpenID provider of the tests (support/oidc-idp.mjs, the oidc-provider package) in a process of its own. */
export interface TestIdp {
  issuer: string;
  /** The account the next sign-in at the provider is made as. */
  nextLogin(account: string): Promise<void>;
  /** Whether the token endpoint answers forged id_tokens (signed with a key outside the JWKS). */
  forge(on: boolean): Promise<void>;
  stop(): Promise<void>;
}

export async function startOidcIdp(options: {
  clients: Array<Record<string, unknown>>;
  accounts: Record<string, Record<string, unknown>>;
}): Promise<TestIdp> {
  const script = join(__dirname, 'oidc-idp.mjs');
  const child = spawn(process.execPath, [script, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /READY (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the test OpenID provider exited (${code}): ${log}`)));
  });
  const issuer = `http://127.0.0.1:${port}`;
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${issuer}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (response.status !== 204) throw new Error(`${path}: ${response.status}`);
  };
  return {
    issuer,
    nextLogin: (account) => post('/test/next-login', { account }),
    forge: (on) => post('/test/forge', { on }),
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000).unref())]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Follows a browser through the provider: from its authorization URL to the redirect back to us (the first
 * Location outside the provider), keeping the provider's cookies as a browser does.
 */
export async function throughIdp(issuer: string, authorizationUrl: string): Promise<string> {
  let url = authorizationUrl;
  let cookie = '';
  for (let hop = 0; hop < 12; hop++) {
    if (!url.startsWith(issuer)) return url;
    const answer = await rawRequest(url, { cookie });
    cookie = cookiesOf(answer, cookie);
    if (!answer.location)
      throw new Error(`the provider answered ${answer.status} at ${url}: ${answer.text.slice(0, 300)}`);
    url = new URL(answer.location, url).href;
  }
  throw new Error('too many redirects at the provider');
}

/** A key and a self-signed certificate (PEM), made with the machine's openssl for the test's SAML parties. */
export function keyAndCertificate(commonName: string): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'confab-saml-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '2',
        '-subj',
        `/CN=${commonName}`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `node services/settings/dist/cli.js sync-ldap` with the settings service's environment; its JSON report. */
export function runLdapSync(ldapEnv: Record<string, string>, subdomain: string): Promise<Record<string, number>> {
  const env = { ...process.env, ...system().processes.settings!.env, ...ldapEnv };
  const cli = join(__dirname, '..', '..', '..', 'services', 'settings', 'dist', 'cli.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'sync-ldap', '--realm', subdomain], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0) reject(new Error(`sync-ldap exited ${code}: ${err}${out}`));
      else resolve(JSON.parse(line) as Record<string, number>);
    });
  });
}

/** Where the test directories keep people (slapd's suffix dc=example,dc=com). */
export const LDAP_PEOPLE = 'ou=people,dc=example,dc=com';
export const ldapDn = (uid: string) => `uid=${uid},${LDAP_PEOPLE}`;

/** A person's entry, as the LDAP tests add them: uid, cn and sn from the name, mail at example.com. */
export function ldapPerson(uid: string, name: string, password: string, extra: Record<string, LdapValues> = {}) {
  return {
    objectClass: ['inetOrgPerson', 'confabAccount'],
    uid,
    cn: name,
    sn: name.split(' ').pop()!,
    mail: `${uid}@example.com`,
    userPassword: password,
    ...extra,
  };
}

/** A person at the GitHub test server: their profile (GET /user) and addresses (GET /user/emails). */
export interface GithubPerson {
  id: number;
  login: string;
  name: string | null;
  emails: Array<{ email: string; primary: boolean; verified: boolean }>;
}

/**
 * A small GitHub for the tests, on 127.0.0.1 in the test's process: GitHub's OAuth2 web flow (GET
 * /login/oauth/authorize answers at once as the person named last, POST /login/oauth/access_token checks the client's
 * Basic credentials, the code, its redirect URI and the PKCE verifier) and the two API calls Confab makes with the
 * access token, GET /user and GET /user/emails. Not part of the product: GitHub itself cannot be run here.
 */
export class TestGithub {
  private readonly codes = new Map<string, { person: string; challenge: string; redirectUri: string }>();
  private readonly tokens = new Map<string, string>();
  private next = '';

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly client: { id: string; secret: string },
    private readonly people: Record<string, GithubPerson>,
  ) {}

  static async start(client: { id: string; secret: string }, people: Record<string, GithubPerson>) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    const github = new TestGithub(server, `http://127.0.0.1:${address.port}`, client, people);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const answer = github.answer(
          req.method ?? 'GET',
          req.url ?? '/',
          req.headers,
          Buffer.concat(chunks).toString(),
        );
        res.writeHead(answer.status, answer.headers).end(answer.body);
      });
    });
    return github;
  }

  /** The person the next sign-in is made as. */
  nextLogin(person: string): void {
    this.next = person;
  }

  /** The provider's entry of CONFAB_OIDC_PROVIDERS (the preset, pointed at this server). */
  config(autoSignup: boolean): Record<string, unknown> {
    return {
      name: 'github',
      client_id: this.client.id,
      client_secret: this.client.secret,
      auto_signup: autoSignup,
      authorization_url: `${this.url}/login/oauth/authorize`,
      token_url: `${this.url}/login/oauth/access_token`,
      api_url: `${this.url}/api`,
    };
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private answer(
    method: string,
    rawUrl: string,
    headers: IncomingHttpHeaders,
    body: string,
  ): { status: number; headers: Record<string, string>; body: string } {
    const url = new URL(rawUrl, this.url);
    const json = (status: number, value: unknown) => ({
      status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify(value),
    });
    if (method === 'GET' && url.pathname === '/login/oauth/authorize') {
      const q = url.searchParams;
      if (q.get('client_id') !== this.client.id || q.get('code_challenge_method') !== 'S256')
        return json(400, { error: 'invalid_request' });
      const code = randomBytes(16).toString('hex');
      this.codes.set(code, {
        person: this.next,
        challenge: q.get('code_challenge') ?? '',
        redirectUri: q.get('redirect_uri') ?? '',
      });
      const back = new URL(q.get('redirect_uri') ?? '');
      back.searchParams.set('code', code);
      back.searchParams.set('state', q.get('state') ?? '');
      return { status: 302, headers: { location: back.href }, body: '' };
    }
    if (method === 'POST' && url.pathname === '/login/oauth/access_token') {
      // RFC 6749 2.3.1: the id and secret are form-urlencoded before they are joined and base64-encoded.
      const basic = Buffer.from((headers.authorization ?? '').replace(/^Basic /, ''), 'base64').toString();
      const [id, key] = basic.split(':').map((part) => decodeURIComponent(part.replace(/\+/g, ' ')));
      if (id !== this.client.id || key !== this.client.secret) return json(401, { error: 'invalid_client' });
      const form = new URLSearchParams(body);
      const grant = this.codes.get(form.get('code') ?? '');
      this.codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (!grant || grant.redirectUri !== form.get('redirect_uri') || grant.challenge !== challenge)
        return json(400, { error: 'bad_verification_code' });
      const token = `gho_${randomBytes(18).toString('hex')}`;
      this.tokens.set(token, grant.person);
      return json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const person = this.people[this.tokens.get((headers.authorization ?? '').replace(/^Bearer /i, '')) ?? ''];
    if (method === 'GET' && url.pathname.startsWith('/api/')) {
      if (!person) return json(401, { message: 'Bad credentials' });
      if (url.pathname === '/api/user') return json(200, { id: person.id, login: person.login, name: person.name });
      if (url.pathname === '/api/user/emails')
        return json(
          200,
          person.emails.map((e) => ({ ...e, visibility: e.primary ? 'private' : null })),
        );
    }
    return json(404, { message: 'Not Found' });
  }
}
