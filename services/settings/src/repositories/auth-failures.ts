import type { RedisClient } from '@confab/runtime';
import type { FailureLimiter } from '../domain/auth.js';

/** Attempt counters in Redis, one fixed window per key: failed logins per username, email changes per user. */
export class RedisFailureLimiter implements FailureLimiter {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
    private readonly allowed: number,
    private readonly windowSeconds: number,
    private readonly name = 'authfail',
  ) {}

  private key(username: string): string {
    return `${this.prefix}:${this.name}:${username}`;
  }

  async retryAfter(username: string): Promise<number> {
    const [count, ttl] = await this.redis
      .multi()
      .get(this.key(username))
      .ttl(this.key(username))
      .exec()
      .then((r) => [r?.[0]?.[1], r?.[1]?.[1]]);
    if (Number(count ?? 0) < this.allowed) return 0;
    return Math.max(1, Number(ttl ?? this.windowSeconds));
  }

  async recordFailure(username: string): Promise<void> {
    const key = this.key(username);
    const result = await this.redis.multi().incr(key).expire(key, this.windowSeconds, 'NX').exec();
    if (!result) throw new Error('redis transaction failed');
  }
}
