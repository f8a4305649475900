import { createHash } from 'node:crypto';
import type { RedisClient } from '@confab/runtime';
import { ConfabError, unauthorized } from '@confab/errors';
import {
  authKeyPrefix,
  causalLogKey,
  causalLogPrefix,
  causalRealmLogKey,
  causalRealmLogPrefix,
  parseCausalEntries,
} from '@confab/events';
import type { CausalEvent, UserIdentity } from '@confab/identity';
import type { ApiCredentials } from './credentials.js';

/** One request's standing against its rate limit, for the X-RateLimit-* headers. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix time (seconds) when the window resets. */
  reset: number;
  /** Seconds until a request is allowed again; 0 when this one is allowed. */
  retryAfter: number;
}

/** Asks the settings service who owns a key (only on cache misses). */
export type VerifyCredentials = (credentials: ApiCredentials) => Promise<UserIdentity>;

/**
 * Whether a cached identity may predate the user's own recent change (docs/architecture.md, read-your-writes): while
 * this gateway has not yet applied one of their events that drops cached credentials, or applied it only after the
 * cache was read.
 */
export interface MayBeStale {
  /** A mark of the process's progress in applying events, taken before the cache is read. */
  mark(): number;
  /**
   * Whether a cached identity read after `mark` may predate the user's own events: one not applied yet, or one
   * applied since the mark (its handler may have dropped the entry after it was read).
   */
  stale(events: readonly CausalEvent[], mark: number): boolean;
}

// Cache hit, rate-limit count and the user's recent causal events, then their organization's, in one round trip:
// the user and organization ids come out of the cached identity. Every answer also carries the count of forgets so
// far, which a verification that follows passes to CACHE_VERIFIED. KEYS: cache key, forget count. The rate key and
// causal logs are named from the ids the cache holds (ARGV[1], ARGV[4] and ARGV[5] are their prefixes): all carry
// the hash tag {auth}, so on a Redis Cluster they share the slot of KEYS (docs/architecture.md, "Redis keys").
const LOOKUP_AND_COUNT = `
local forgets = tonumber(redis.call('GET', KEYS[2]) or '0')
local v = redis.call('GET', KEYS[1])
if not v then return {false, 0, {}, forgets} end
local ok, identity = pcall(cjson.decode, v)
if not ok then return {false, 0, {}, forgets} end
local rk = ARGV[1] .. identity.userId .. ':' .. ARGV[2]
local c = redis.call('INCR', rk)
if c == 1 then redis.call('EXPIRE', rk, ARGV[3]) end
local causal = redis.call('LRANGE', ARGV[4] .. identity.userId, 0, -1)
for _, e in ipairs(redis.call('LRANGE', ARGV[5] .. identity.realmId, 0, -1)) do causal[#causal + 1] = e end
return {v, c, causal, forgets}
`;

// Caches an identity that settings just verified, unless the user's cached keys were forgotten after the lookup
// that preceded the verification (ARGV[3], the forget count it saw): settings may have answered from before the
// change that made the gateway forget them. Optionally counts the request and reads the causal logs (the user's,
// then their organization's) as well. KEYS: cache key, the user's key set, the user's last-forget mark, rate key,
// the user's causal log, the organization's.
const CACHE_VERIFIED = `
local forgotten = tonumber(redis.call('GET', KEYS[3]) or '0')
if forgotten <= tonumber(ARGV[3]) then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
  redis.call('SADD', KEYS[2], KEYS[1])
  redis.call('EXPIRE', KEYS[2], tonumber(ARGV[2]) * 2)
end
if ARGV[4] == '0' then return {0, {}} end
local c = redis.call('INCR', KEYS[4])
if c == 1 then redis.call('EXPIRE', KEYS[4], ARGV[4]) end
local causal = redis.call('LRANGE', KEYS[5], 0, -1)
for _, e in ipairs(redis.call('LRANGE', KEYS[6], 0, -1)) do causal[#causal + 1] = e end
return {c, causal}
`;

// Drops every cached key of a user in one step (a cache write cannot slip between reading the set and deleting it),
// and marks when, so that a verification already in flight does not cache what it read before. ARGV[1]: how long
// the mark outlives a verification (seconds).
const FORGET_USER = `
local n = redis.call('INCR', KEYS[3])
redis.call('SET', KEYS[2], n, 'EX', ARGV[1])
local keys = redis.call('SMEMBERS', KEYS[1])
redis.call('DEL', KEYS[1], unpack(keys))
return n
`;

const WINDOW_SECONDS = 60;

function windowOf(nowMs: number): { index: number; reset: number } {
  const index = Math.floor(nowMs / 1000 / WINDOW_SECONDS);
  return { index, reset: (index + 1) * WINDOW_SECONDS };
}

export function rateLimitState(limit: number, count: number, nowMs: number): RateLimitState {
  const { reset } = windowOf(nowMs);
  const exceeded = count > limit;
  return {
    limit,
    remaining: Math.max(0, limit - count),
    reset,
    retryAfter: exceeded ? Math.max(0.001, reset - nowMs / 1000) : 0,
  };
}

/**
 * Authentication and rate limiting for the gateway: verified keys are cached in Redis (keyed by a hash of the
 * credentials, dropped on user events), and each user's requests are counted in fixed one-minute windows.
 */
export class Authenticator {
  constructor(
    private readonly redis: RedisClient,
    private readonly options: {
      prefix: string;
      cacheTtlSeconds: number;
      perUserPerMinute: number;
      perIpPerMinute: number;
      /** Images through the external image proxy, per client IP per minute (a count of their own). */
      externalContentPerIpPerMinute?: number;
      verify: VerifyCredentials;
      mayBeStale?: MayBeStale;
    },
  ) {
    redis.defineCommand('confabAuthLookup', { numberOfKeys: 2, lua: LOOKUP_AND_COUNT });
    redis.defineCommand('confabAuthCache', { numberOfKeys: 6, lua: CACHE_VERIFIED });
    redis.defineCommand('confabAuthForget', { numberOfKeys: 3, lua: FORGET_USER });
  }

  private get scripts(): AuthScripts {
    return this.redis as unknown as AuthScripts;
  }

  /** Every key of the gateway's starts with this: the deployment's prefix and the hash tag {auth}. */
  private get keyPrefix(): string {
    return authKeyPrefix(this.options.prefix);
  }

  private cacheKey(credentials: ApiCredentials): string {
    // A key verified without an email (a webhook's api_key) is cached apart from any email:key pair.
    if (credentials.email === null) {
      const digest = createHash('sha256')
        .update(`${credentials.apiKey}\0${credentials.host?.toLowerCase() ?? ''}`)
        .digest('hex');
      return `${this.keyPrefix}webhook-key:${digest}`;
    }
    const digest = createHash('sha256')
      .update(`${credentials.email.toLowerCase()}\0${credentials.apiKey}\0${credentials.host?.toLowerCase() ?? ''}`)
      .digest('hex');
    return `${this.keyPrefix}key:${digest}`;
  }

  private userKeysSet(userId: number): string {
    return `${this.keyPrefix}keys:${userId}`;
  }

  private forgottenKey(userId: number): string {
    return `${this.keyPrefix}forgot:${userId}`;
  }

  private forgetsKey(): string {
    return `${this.keyPrefix}forgets`;
  }

  async authenticate(
    credentials: ApiCredentials,
    nowMs = Date.now(),
  ): Promise<{ identity: UserIdentity; rate: RateLimitState }> {
    if (credentials.apiKey === '') throw unauthorized('Invalid API key');
    const cacheKey = this.cacheKey(credentials);
    const { index } = windowOf(nowMs);
    const rlPrefix = `${this.keyPrefix}rl:user:`;
    const mark = this.options.mayBeStale?.mark() ?? 0;
    const [cached, count, causalEntries, forgets] = await this.scripts.confabAuthLookup(
      cacheKey,
      this.forgetsKey(),
      rlPrefix,
      index,
      WINDOW_SECONDS + 1,
      causalLogPrefix(this.options.prefix),
      causalRealmLogPrefix(this.options.prefix),
    );
    if (cached) {
      const causal = parseCausalEntries(causalEntries);
      const rate = rateLimitState(this.options.perUserPerMinute, count, nowMs);
      if (!this.options.mayBeStale?.stale(causal, mark)) {
        return { identity: withCausal(JSON.parse(cached) as UserIdentity, causal), rate };
      }
      // The user changed their own account a moment ago: ask the owner rather than trust the cache.
      const identity = await this.options.verify(credentials);
      await this.cache(cacheKey, identity, forgets, rlPrefix, index, false);
      return { identity: withCausal(identity, causal), rate };
    }
    const identity = await this.options.verify(credentials);
    const [counted, entries] = await this.cache(cacheKey, identity, forgets, rlPrefix, index, true);
    const causal = parseCausalEntries(entries);
    return {
      identity: withCausal(identity, causal),
      rate: rateLimitState(this.options.perUserPerMinute, counted, nowMs),
    };
  }

  /**
   * Caches a verified identity, listed under its user so that `forgetUser` finds it, unless the user was forgotten
   * since the lookup that saw `forgets`; with `count`, also counts the request and reads the user's causal log.
   */
  private cache(
    cacheKey: string,
    identity: UserIdentity,
    forgets: number,
    rlPrefix: string,
    windowIndex: number,
    count: boolean,
  ): Promise<[number, string[]]> {
    const userId = identity.userId;
    return this.scripts.confabAuthCache(
      cacheKey,
      this.userKeysSet(userId),
      this.forgottenKey(userId),
      `${rlPrefix}${userId}:${windowIndex}`,
      causalLogKey(this.options.prefix, userId),
      causalRealmLogKey(this.options.prefix, identity.realmId),
      JSON.stringify(identity),
      this.options.cacheTtlSeconds,
      forgets,
      count ? WINDOW_SECONDS + 1 : 0,
    );
  }

  /** Counts an unauthenticated request against its client address. */
  async countAnonymous(ip: string, nowMs = Date.now(), bucket?: 'external_content'): Promise<RateLimitState> {
    const { index } = windowOf(nowMs);
    const key = `${this.keyPrefix}rl:ip:${bucket ? `${bucket}:` : ''}${ip}:${index}`;
    const results = await this.redis
      .multi()
      .incr(key)
      .expire(key, WINDOW_SECONDS + 1, 'NX')
      .exec();
    const limit = bucket ? (this.options.externalContentPerIpPerMinute ?? 1200) : this.options.perIpPerMinute;
    return rateLimitState(limit, Number(results?.[0]?.[1] ?? 1), nowMs);
  }

  /**
   * Drops every cached key of a user (deactivated, role or key changed), and keeps a verification that is in flight
   * meanwhile from caching what settings told it before the change.
   */
  async forgetUser(userId: number): Promise<void> {
    await this.scripts.confabAuthForget(
      this.userKeysSet(userId),
      this.forgottenKey(userId),
      this.forgetsKey(),
      this.options.cacheTtlSeconds,
    );
  }
}

/** The Lua scripts above, as the ioredis commands `defineCommand` adds. */
interface AuthScripts {
  confabAuthLookup(...keysAndArgs: (string | number)[]): Promise<[string | null, number, string[], number]>;
  confabAuthCache(...keysAndArgs: (string | number)[]): Promise<[number, string[]]>;
  confabAuthForget(...keysAndArgs: (string | number)[]): Promise<number>;
}

function withCausal(identity: UserIdentity, causal: CausalEvent[]): UserIdentity {
  return causal.length > 0 ? { ...identity, causal } : identity;
}

/** Turns the settings service's refusal into the same error for the client. */
export function refusal(status: number, body: { msg?: unknown; code?: unknown }): ConfabError {
  const msg = typeof body.msg === 'string' ? body.msg : 'Invalid API key';
  if (status === 401) return unauthorized(msg, typeof body.code === 'string' ? body.code : 'UNAUTHORIZED');
  return new ConfabError(msg, { status, code: typeof body.code === 'string' ? body.code : 'BAD_REQUEST' });
}
