import type { Role } from '@confab/zulip';
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { CausalEvent } from './causal.js';

export * from './causal.js';

/** Name of the header the gateway stamps on every request it forwards. */
export const IDENTITY_HEADER = 'x-confab-identity';

// Zulip's roles live in @confab/zulip; re-exported here for the services that read them from the identity.
export { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER, type Role } from '@confab/zulip';

/** An authenticated user or bot, as established by the gateway. */
export interface UserIdentity {
  kind: 'user';
  userId: number;
  realmId: number;
  role: Role;
  email: string;
  isBot: boolean;
  /** Events of the user's own recent writes that may not have reached every service yet (newest first). */
  causal?: readonly CausalEvent[];
}

/** A request to a public endpoint that passed through the gateway without credentials. */
export interface AnonymousIdentity {
  kind: 'anonymous';
}

/** Another Confab process calling an /internal endpoint. */
export interface ServiceIdentity {
  kind: 'service';
  service: string;
}

export type Identity = UserIdentity | AnonymousIdentity | ServiceIdentity;

interface Claims {
  typ: 'user' | 'anon' | 'svc';
  sub?: string;
  realm_id?: number;
  role?: Role;
  email?: string;
  is_bot?: boolean;
  /** Causal events as [routing key, event id] pairs. */
  cz?: [string, string][];
  svc?: string;
  exp?: number;
}

const ISSUER = 'confab';
const AUDIENCE = 'confab-internal';
const ALGORITHM = 'HS256';

function toClaims(identity: Identity): Claims {
  switch (identity.kind) {
    case 'user':
      return {
        typ: 'user',
        sub: String(identity.userId),
        realm_id: identity.realmId,
        role: identity.role,
        email: identity.email,
        is_bot: identity.isBot,
        ...(identity.causal?.length ? { cz: identity.causal.map((e): [string, string] => [e.type, e.id]) } : {}),
      };
    case 'anonymous':
      return { typ: 'anon' };
    case 'service':
      return { typ: 'svc', svc: identity.service };
  }
}

function fromClaims(claims: Claims): Identity | null {
  if (claims.typ === 'user') {
    const userId = Number(claims.sub);
    if (
      !Number.isSafeInteger(userId) ||
      typeof claims.realm_id !== 'number' ||
      typeof claims.role !== 'number' ||
      typeof claims.email !== 'string' ||
      typeof claims.is_bot !== 'boolean'
    ) {
      return null;
    }
    return {
      kind: 'user',
      userId,
      realmId: claims.realm_id,
      role: claims.role,
      email: claims.email,
      isBot: claims.is_bot,
      ...(Array.isArray(claims.cz) ? { causal: causalFromClaims(claims.cz) } : {}),
    };
  }
  if (claims.typ === 'anon') return { kind: 'anonymous' };
  if (claims.typ === 'svc' && typeof claims.svc === 'string') return { kind: 'service', service: claims.svc };
  return null;
}

function causalFromClaims(pairs: unknown[]): CausalEvent[] {
  return pairs.flatMap((pair) =>
    Array.isArray(pair) && typeof pair[0] === 'string' && typeof pair[1] === 'string'
      ? [{ type: pair[0], id: pair[1] }]
      : [],
  );
}

/**
 * The secret as a key object, made once per secret. Given a string, jsonwebtoken first tries to read it as a PEM
 * key (createPrivateKey / createPublicKey, which throws) before taking it as an HMAC secret: about a millisecond of
 * CPU on every signature and verification, which a key object skips.
 */
const keyObjects = new Map<string, KeyObject>();
function hmacKey(secret: string): KeyObject {
  let key = keyObjects.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret));
    if (keyObjects.size >= 64) keyObjects.clear();
    keyObjects.set(secret, key);
  }
  return key;
}

/** Signs a short-lived identity token (HS256; 60 s unless told otherwise). */
export function signIdentity(identity: Identity, secret: string, ttlSeconds = 60): string {
  return jwt.sign(toClaims(identity), hmacKey(secret), {
    algorithm: ALGORITHM,
    expiresIn: ttlSeconds,
    issuer: ISSUER,
    audience: AUDIENCE,
  });
}

/**
 * Verifies identity tokens with the algorithm pinned, caching successful verifications until the token
 * expires: one client's burst of requests reuses the same token, and HMAC verification is then paid once.
 * Several secrets: a token signed with any of them is accepted (a rotation, docs/security.md); the first is tried
 * first.
 */
export class IdentityVerifier {
  private readonly cache = new Map<string, { identity: Identity; expiresAtMs: number }>();
  private readonly secrets: readonly KeyObject[];

  constructor(
    secrets: string | readonly (string | undefined)[],
    private readonly maxCacheEntries = 10_000,
  ) {
    this.secrets = (typeof secrets === 'string' ? [secrets] : secrets)
      .filter((s): s is string => typeof s === 'string' && s.length > 0)
      .map(hmacKey);
    if (this.secrets.length === 0) throw new Error('IdentityVerifier needs a secret');
  }

  verify(token: string | undefined): Identity | null {
    if (!token) return null;
    const now = Date.now();
    const hit = this.cache.get(token);
    if (hit) {
      if (hit.expiresAtMs > now) return hit.identity;
      this.cache.delete(token);
    }
    let claims: Claims | undefined;
    for (const secret of this.secrets) {
      try {
        claims = jwt.verify(token, secret, { algorithms: [ALGORITHM], issuer: ISSUER, audience: AUDIENCE }) as Claims;
        break;
      } catch {
        // not signed with this one (or expired, malformed): try the next
      }
    }
    if (!claims) return null;
    const identity = fromClaims(claims);
    if (!identity || typeof claims.exp !== 'number') return null;
    if (this.cache.size >= this.maxCacheEntries) this.cache.clear();
    this.cache.set(token, { identity, expiresAtMs: claims.exp * 1000 });
    return identity;
  }
}

/**
 * Reuses a signed token for the same identity for half its lifetime, so the gateway signs about once per user
 * per 30 s instead of once per request.
 */
export class IdentitySigner {
  private readonly cache = new Map<string, { token: string; renewAtMs: number }>();

  constructor(
    private readonly secret: string,
    private readonly ttlSeconds = 60,
    private readonly maxCacheEntries = 10_000,
  ) {}

  sign(identity: Identity): string {
    const key = cacheKey(identity);
    const now = Date.now();
    const hit = this.cache.get(key);
    if (hit && hit.renewAtMs > now) return hit.token;
    const token = signIdentity(identity, this.secret, this.ttlSeconds);
    if (this.cache.size >= this.maxCacheEntries) this.cache.clear();
    this.cache.set(key, { token, renewAtMs: now + (this.ttlSeconds * 1000) / 2 });
    return token;
  }
}

function cacheKey(identity: Identity): string {
  switch (identity.kind) {
    case 'user':
      return `u:${identity.userId}:${identity.realmId}:${identity.role}:${identity.isBot ? 1 : 0}:${identity.email}:${identity.causal?.map((e) => e.id).join(',') ?? ''}`;
    case 'anonymous':
      return 'anon';
    case 'service':
      return `svc:${identity.service}`;
  }
}
