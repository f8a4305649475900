import type { IncomingMessage, ServerResponse } from 'node:http';
import { request } from 'node:http';
import { ConfabError, rateLimited } from '@confab/errors';
import { sendError } from '@confab/http';
import type { IdentitySigner } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { Authenticator, RateLimitState } from './auth.js';
import {
  checkOrigin,
  clearedCookies,
  endingEventIds,
  isSecure,
  sessionCookies,
  sessionCredentials,
  withoutChallenge,
  type SessionStore,
} from './sessions.js';

export const LOGIN_PATH = '/accounts/login';
export const LOGOUT_PATH = '/accounts/logout';
/** Where a finished sign-in flow (LDAP, OpenID Connect, SAML) sends the browser with a one-time login token. */
export const LOGIN_TOKEN_PREFIX = '/accounts/login/subdomain/';

const MAX_LOGIN_BODY = 16 * 1024;

export interface SessionRoutesDeps {
  sessions: SessionStore;
  authenticator: Authenticator;
  signer: IdentitySigner;
  settingsUrl: string;
  logger: Logger;
  clientIp: (req: IncomingMessage) => string;
  setRateLimitHeaders: (res: ServerResponse, rate: RateLimitState) => void;
  /** The settings service's side of a login token (internal.endpoints.redeemLoginToken); throws its refusal. */
  redeemLoginToken?: (token: string, host: string) => Promise<{ email: string; api_key: string; next: string }>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_LOGIN_BODY) {
        reject(new ConfabError('Request body too large', { status: 413, code: 'BAD_REQUEST' }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** username and password from a form or JSON body. */
async function loginFields(req: IncomingMessage): Promise<URLSearchParams> {
  const text = await readBody(req);
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return new URLSearchParams(text);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConfabError('Malformed JSON');
  }
  const fields = new URLSearchParams();
  if (typeof parsed === 'object' && parsed !== null) {
    for (const [key, value] of Object.entries(parsed as Record<string, unknown>))
      if (typeof value === 'string') fields.set(key, value);
  }
  return fields;
}

/** The settings service's own password check (POST /fetch_api_key), for the organization the Host names. */
function fetchApiKey(
  deps: SessionRoutesDeps,
  req: IncomingMessage,
  fields: URLSearchParams,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const form = new URLSearchParams();
  for (const name of ['username', 'password']) {
    const value = fields.get(name);
    if (value !== null) form.set(name, value);
  }
  const body = Buffer.from(form.toString());
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(body.length),
    'x-confab-identity': deps.signer.sign({ kind: 'anonymous' }),
    host: req.headers.host ?? '',
  };
  const forwarded = req.headers['x-forwarded-for'];
  if (typeof forwarded === 'string') headers['x-forwarded-for'] = forwarded;
  return new Promise((resolve, reject) => {
    const out = request(new URL('/api/v1/fetch_api_key', deps.settingsUrl), { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => {
        try {
          const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
          resolve({ status: response.statusCode ?? 502, body: parsed });
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
      response.on('error', reject);
    });
    out.on('error', reject);
    out.end(body);
  });
}

function redirect(res: ServerResponse, location: string, cookies?: string[]): void {
  if (cookies) res.setHeader('Set-Cookie', cookies);
  res.setHeader('Cache-Control', 'no-store');
  res.writeHead(302, { Location: location });
  res.end();
}

function writeJson(res: ServerResponse, status: number, body: unknown, cookies?: string[]): void {
  if (cookies) res.setHeader('Set-Cookie', cookies);
  res.setHeader('Cache-Control', 'no-store');
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

/**
 * POST /accounts/login (email and password → session cookie + CSRF token) and POST /accounts/logout (ends the
 * session). Sign-ins count against the client address's limit like other unauthenticated requests; the password
 * check, its failure throttling and its errors are the settings service's (those of POST /fetch_api_key).
 */
export function sessionRoutes(deps: SessionRoutesDeps) {
  async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    checkOrigin(req);
    const rate = await deps.authenticator.countAnonymous(deps.clientIp(req));
    deps.setRateLimitHeaders(res, rate);
    if (rate.retryAfter > 0) throw rateLimited(rate.retryAfter);
    const fields = await loginFields(req);
    const answer = await fetchApiKey(deps, req, fields);
    if (answer.status !== 200 || answer.body.result !== 'success') {
      writeJson(res, answer.status === 200 ? 502 : answer.status, answer.body);
      return;
    }
    const email = String(answer.body.email);
    const apiKey = String(answer.body.api_key);
    const { identity, session, cookies } = await startSession(req, email, apiKey);
    writeJson(
      res,
      200,
      { result: 'success', msg: '', email, user_id: identity.userId, csrf_token: session.csrf },
      cookies,
    );
  }

  /** A session for a user whose key is known: the same steps, cookies and token as the password sign-in. */
  async function startSession(req: IncomingMessage, email: string, apiKey: string) {
    // The key just fetched is checked the way every request's is, which also reads the user's causal log: events
    // that would end a session but happened before this sign-in do not end it.
    const { identity } = await deps.authenticator.authenticate({ email, apiKey });
    const { id, session } = await deps.sessions.create({
      userId: identity.userId,
      email,
      apiKey,
      seen: endingEventIds(identity.causal),
    });
    return { identity, session, cookies: sessionCookies(id, session.csrf, isSecure(req), deps.sessions.ttlSeconds) };
  }

  /**
   * GET /accounts/login/subdomain/<token>: the end of a browser's sign-in flow. The settings service spends the token
   * (once, on its own organization's host) and answers the user's key; the session is made exactly as the password
   * sign-in makes it, and the browser goes on to `next`. A refused token sends it back to the sign-in page with the
   * reason.
   */
  async function loginWithToken(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
    const rate = await deps.authenticator.countAnonymous(deps.clientIp(req));
    deps.setRateLimitHeaders(res, rate);
    if (rate.retryAfter > 0) throw rateLimited(rate.retryAfter);
    let answer: { email: string; api_key: string; next: string };
    try {
      if (!deps.redeemLoginToken) throw new ConfabError('Single sign-on is not available on this server');
      answer = await deps.redeemLoginToken(token, req.headers.host ?? '');
    } catch (err) {
      const reason =
        err instanceof ConfabError && err.status < 500 ? err.message : 'The sign-in could not be finished.';
      redirect(res, `/?login_error=${encodeURIComponent(reason)}`);
      return;
    }
    const { cookies } = await startSession(req, answer.email, answer.api_key);
    const next = answer.next.startsWith('/') && !answer.next.startsWith('//') ? answer.next : '/';
    redirect(res, next, cookies);
  }

  async function logout(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { id, session } = await sessionCredentials(req, deps.sessions);
    await deps.sessions.end(id, session.userId);
    writeJson(res, 200, { result: 'success', msg: '' }, clearedCookies(isSecure(req)));
  }

  /** Whether the request is one of these routes (then it is answered). */
  return function handle(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (path.startsWith(LOGIN_TOKEN_PREFIX)) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET');
        writeJson(res, 405, { result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST' });
        return true;
      }
      const token = decodeURIComponent(path.slice(LOGIN_TOKEN_PREFIX.length).replace(/\/+$/, ''));
      loginWithToken(req, res, token).catch((err: unknown) => sendError(res, withoutChallenge(err), deps.logger));
      return true;
    }
    const handler = path === LOGIN_PATH ? login : path === LOGOUT_PATH ? logout : undefined;
    if (!handler) return false;
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      writeJson(res, 405, { result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST' });
      return true;
    }
    handler(req, res).catch((err: unknown) => sendError(res, withoutChallenge(err), deps.logger));
    return true;
  };
}
