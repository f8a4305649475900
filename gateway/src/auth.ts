import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ConfabError, unauthorized } from '@confab/errors';
import { causalLogKey, causalLogPrefix, parseCausalEntries } from '@confab/events';
import type { CausalEvent, UserIdentity } from '@confab/identity';
import type { BasicCredentials } from './credentials.js';

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
export type VerifyCredentials = (credentials: BasicCredentials) => Promise<UserIdentity>;

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

// Cache hit, rate-limit count and the user's recent causal events in one round trip: the user id comes out of the
// cached identity.
const LOOKUP_AND_COUNT = `
local v = redis.call('GET', KEYS[1])
if not v then return nil end
local ok, identity = pcall(cjson.decode, v)
if not ok then return nil end
local rk = ARGV[1] .. identity.userId .. ':' .. ARGV[2]
local c = redis.call('INCR', rk)
if c == 1 then redis.call('EXPIRE', rk, ARGV[3]) end
return {v, c, redis.call('LRANGE', ARGV[4] .. identity.userId, 0, -1)}
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
    private readonly redis: Redis,
    private readonly options: {
      prefix: string;
      cacheTtlSeconds: number;
      perUserPerMinute: number;
      perIpPerMinute: number;
      verify: VerifyCredentials;
      mayBeStale?: MayBeStale;
    },
  ) {
    redis.defineCommand('confabAuthLookup', { numberOfKeys: 1, lua: LOOKUP_AND_COUNT });
  }

  private cacheKey(credentials: BasicCredentials): string {
    const digest = createHash('sha256')
      .update(`${credentials.email.toLowerCase()}\0${credentials.apiKey}`)
      .digest('hex');
    return `${this.options.prefix}:auth:${digest}`;
  }

  private userKeysSet(userId: number): string {
    return `${this.options.prefix}:authkeys:${userId}`;
  }

  async authenticate(
    credentials: BasicCredentials,
    nowMs = Date.now(),
  ): Promise<{ identity: UserIdentity; rate: RateLimitState }> {
    if (credentials.apiKey === '') throw unauthorized('Invalid API key');
    const cacheKey = this.cacheKey(credentials);
    const { index } = windowOf(nowMs);
    const rlPrefix = `${this.options.prefix}:rl:user:`;
    const mark = this.options.mayBeStale?.mark() ?? 0;
    const hit = await (
      this.redis as unknown as {
        confabAuthLookup(key: string, ...args: (string | number)[]): Promise<[string, number, string[]] | null>;
      }
    ).confabAuthLookup(cacheKey, rlPrefix, index, WINDOW_SECONDS + 1, causalLogPrefix(this.options.prefix));
    if (hit) {
      const causal = parseCausalEntries(hit[2]);
      const rate = rateLimitState(this.options.perUserPerMinute, hit[1], nowMs);
      if (!this.options.mayBeStale?.stale(causal, mark)) {
        return { identity: withCausal(JSON.parse(hit[0]) as UserIdentity, causal), rate };
      }
      // The user changed their own account a moment ago: ask the owner rather than trust the cache.
      const identity = await this.options.verify(credentials);
      await this.cache(cacheKey, identity).exec();
      return { identity: withCausal(identity, causal), rate };
    }
    const identity = await this.options.verify(credentials);
    const rateKey = `${rlPrefix}${identity.userId}:${index}`;
    const results = await this.cache(cacheKey, identity)
      .incr(rateKey)
      .expire(rateKey, WINDOW_SECONDS + 1, 'NX')
      .lrange(causalLogKey(this.options.prefix, identity.userId), 0, -1)
      .exec();
    const count = Number(results?.[3]?.[1] ?? 1);
    const causal = parseCausalEntries((results?.[5]?.[1] as string[] | undefined) ?? []);
    return {
      identity: withCausal(identity, causal),
      rate: rateLimitState(this.options.perUserPerMinute, count, nowMs),
    };
  }

  /** Caches a verified identity, listed under its user so that `forgetUser` finds it. */
  private cache(cacheKey: string, identity: UserIdentity) {
    return this.redis
      .multi()
      .set(cacheKey, JSON.stringify(identity), 'EX', this.options.cacheTtlSeconds)
      .sadd(this.userKeysSet(identity.userId), cacheKey)
      .expire(this.userKeysSet(identity.userId), this.options.cacheTtlSeconds * 2);
  }

  /** Counts an unauthenticated request against its client address. */
  async countAnonymous(ip: string, nowMs = Date.now()): Promise<RateLimitState> {
    const { index } = windowOf(nowMs);
    const key = `${this.options.prefix}:rl:ip:${ip}:${index}`;
    const results = await this.redis
      .multi()
      .incr(key)
      .expire(key, WINDOW_SECONDS + 1, 'NX')
      .exec();
    return rateLimitState(this.options.perIpPerMinute, Number(results?.[0]?.[1] ?? 1), nowMs);
  }

  /** Drops every cached key of a user (deactivated, role or key changed). */
  async forgetUser(userId: number): Promise<void> {
    const set = this.userKeysSet(userId);
    const keys = await this.redis.smembers(set);
    await this.redis.del(set, ...keys);
  }
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
