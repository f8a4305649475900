import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { RedisClient } from '@confab/runtime';
import { ConfabError, unauthorized } from '@confab/errors';
import type { CausalEvent, UserIdentity } from '@confab/identity';
import type { BasicCredentials } from './credentials.js';

/**
 * Browser sessions (docs/architecture.md, "Browser sessions"): the web client signs in with email and password, the
 * gateway keeps an opaque session id in an HttpOnly SameSite=Strict cookie and the session in Redis. A session holds
 * the API key the sign-in fetched, so each request through it is authenticated, rate limited and stamped exactly as
 * a Basic-auth request with that key is (same cache, same limits, same read-your-writes causal log).
 */

export const SESSION_COOKIE = 'confab_session';
/** Readable by the page (not HttpOnly): the client echoes it in X-CSRFToken (double submit). */
export const CSRF_COOKIE = 'confab_csrftoken';
export const CSRF_HEADER = 'x-csrftoken';

/** Events after which a user's sessions end (the gateway's consumer deletes them; the causal log covers the gap). */
export const SESSION_ENDING_EVENTS = new Set(['user.password_changed', 'user.api_key_changed', 'user.deactivated']);

export interface Session {
  userId: number;
  email: string;
  apiKey: string;
  csrf: string;
  /** Session-ending events of this user that happened before the sign-in (ids), so they do not end it. */
  seen: string[];
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfFailure(reason: string): ConfabError {
  return new ConfabError(`CSRF error: ${reason}`, { status: 403, code: 'CSRF_FAILED' });
}

/** Cookie header → name → value (first occurrence wins). */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    const name = part.slice(0, eq).trim();
    if (name && !cookies.has(name)) cookies.set(name, part.slice(eq + 1).trim());
  }
  return cookies;
}

function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Whether the request came over TLS (directly, or per the ingress's X-Forwarded-Proto). */
export function isSecure(req: IncomingMessage): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const proto = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

/**
 * A state-changing request from another site is refused: its Origin (when the browser sent one) must be this host.
 * SameSite=Strict already keeps the cookie off such requests; this holds for browsers that send it anyway.
 */
export function checkOrigin(req: IncomingMessage): void {
  if (SAFE_METHODS.has(req.method ?? 'GET')) return;
  const origin = req.headers.origin;
  if (origin === undefined) return;
  const expected = `${isSecure(req) ? 'https' : 'http'}://${req.headers.host ?? ''}`;
  if (origin !== expected) throw csrfFailure(`Origin checking failed - ${origin} does not match any trusted origins.`);
}

/** The CSRF check of a state-changing request through a session: X-CSRFToken must be the session's token. */
export function checkCsrf(req: IncomingMessage, session: Session): void {
  checkOrigin(req);
  if (SAFE_METHODS.has(req.method ?? 'GET')) return;
  const header = req.headers[CSRF_HEADER];
  const token = Array.isArray(header) ? header[0] : header;
  if (!token) throw csrfFailure('CSRF token missing.');
  if (!sameString(token, session.csrf)) throw csrfFailure('CSRF token incorrect.');
}

export function sessionCookies(id: string, csrf: string, secure: boolean, maxAgeSeconds: number): string[] {
  const attrs = `Path=/; SameSite=Strict; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
  return [`${SESSION_COOKIE}=${id}; HttpOnly; ${attrs}`, `${CSRF_COOKIE}=${csrf}; ${attrs}`];
}

export function clearedCookies(secure: boolean): string[] {
  const attrs = `Path=/; SameSite=Strict; Max-Age=0${secure ? '; Secure' : ''}`;
  return [`${SESSION_COOKIE}=; HttpOnly; ${attrs}`, `${CSRF_COOKIE}=; ${attrs}`];
}

/** Sessions in Redis under a hash of their id (a copy of Redis does not hand out live cookies), with an expiry. */
export class SessionStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly options: { prefix: string; ttlSeconds: number },
  ) {}

  get ttlSeconds(): number {
    return this.options.ttlSeconds;
  }

  /**
   * Sessions and their users' sets carry the hash tag {sessions}: one transaction writes a session and its user's
   * set, which on a Redis Cluster must share a slot.
   */
  private key(id: string): string {
    return `${this.options.prefix}:{sessions}:session:${createHash('sha256').update(id).digest('hex')}`;
  }

  private userSet(userId: number): string {
    return `${this.options.prefix}:{sessions}:user:${userId}`;
  }

  async create(fields: Omit<Session, 'csrf'>): Promise<{ id: string; session: Session }> {
    const id = randomBytes(32).toString('base64url');
    const session: Session = { ...fields, csrf: randomBytes(32).toString('base64url') };
    const ttl = this.options.ttlSeconds;
    await this.redis
      .multi()
      .set(this.key(id), JSON.stringify(session), 'EX', ttl)
      .sadd(this.userSet(fields.userId), this.key(id))
      .expire(this.userSet(fields.userId), ttl, 'GT')
      .expire(this.userSet(fields.userId), ttl, 'NX')
      .exec();
    return { id, session };
  }

  /** The session a cookie names, or null when there is none (never issued, expired, ended). */
  async find(id: string | undefined): Promise<Session | null> {
    if (!id || !/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const raw = await this.redis.get(this.key(id));
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as Session;
    } catch {
      return null;
    }
  }

  async end(id: string, userId?: number): Promise<void> {
    const key = this.key(id);
    const multi = this.redis.multi().del(key);
    if (userId !== undefined) multi.srem(this.userSet(userId), key);
    await multi.exec();
  }

  /**
   * Ends the sessions of a user that a session-ending event (deactivated, password or API key changed) ends: every
   * one that has not seen it. A session signed in after the event saw it in the causal log, and keeps going: e.g. the
   * web client signing in again with the password it has just set, before this consumer heard of the change.
   */
  async endAllOf(userId: number, eventId?: string): Promise<void> {
    const set = this.userSet(userId);
    const keys = await this.redis.smembers(set);
    if (keys.length === 0) return;
    const values = eventId === undefined ? [] : await this.redis.mget(...keys);
    const ended = keys.filter((_, i) => {
      const raw = values[i];
      if (raw === null || raw === undefined) return true;
      try {
        return !(JSON.parse(raw) as Session).seen.includes(eventId!);
      } catch {
        return true;
      }
    });
    if (ended.length === 0) return;
    await this.redis
      .multi()
      .del(...ended)
      .srem(set, ...ended)
      .exec();
  }
}

/**
 * Whether the user's recent events (the causal log) end a session that predates them: their own password change,
 * key change or deactivation, not an administrator's deactivation of someone else that is in the administrator's log.
 */
export function endedByRecentEvents(session: Session, causal: readonly CausalEvent[] | undefined): boolean {
  return (causal ?? []).some(
    (event) =>
      SESSION_ENDING_EVENTS.has(event.type) &&
      (event.subject === undefined || event.subject === session.userId) &&
      !session.seen.includes(event.id),
  );
}

/** The session-ending events already in a user's causal log at sign-in. */
export function endingEventIds(causal: readonly CausalEvent[] | undefined): string[] {
  return (causal ?? []).filter((event) => SESSION_ENDING_EVENTS.has(event.type)).map((event) => event.id);
}

/** The credentials a request's session cookie stands for; 401 without a live session, 403 on a CSRF failure. */
export async function sessionCredentials(
  req: IncomingMessage,
  sessions: SessionStore,
): Promise<{ credentials: BasicCredentials; session: Session; id: string }> {
  const id = parseCookies(req.headers.cookie).get(SESSION_COOKIE);
  const session = await sessions.find(id);
  if (!session || !id) throw unauthorized();
  checkCsrf(req, session);
  return { credentials: { email: session.email, apiKey: session.apiKey }, session, id };
}

/** After authenticating a session's key: a session older than a password change or deactivation is over. */
export async function checkSessionLive(
  sessions: SessionStore,
  id: string,
  session: Session,
  identity: UserIdentity,
): Promise<void> {
  if (identity.userId !== session.userId || endedByRecentEvents(session, identity.causal)) {
    await sessions.end(id, session.userId);
    throw unauthorized();
  }
}

/**
 * A 401 on the session path carries no Basic challenge (as Zulip's /json): a browser would answer one with its own
 * credentials prompt and hold the page's request until someone dismisses it.
 */
export function withoutChallenge(err: unknown): unknown {
  if (err instanceof ConfabError && err.status === 401) {
    return new ConfabError(err.message, { status: 401, code: err.code, data: err.data });
  }
  return err;
}
