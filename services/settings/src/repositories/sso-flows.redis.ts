import { createHash } from 'node:crypto';
import type { RedisClient } from '@confab/runtime';
import type { SsoFlowStore } from '../domain/sso/ports.js';

/**
 * The identity flows' short-lived state in Redis (every replica sees it): OIDC and SAML flows by their state, login
 * tokens, SAML assertion IDs already used. Keys are hashes of the secrets, so a copy of Redis hands out nothing.
 */
export class RedisSsoFlowStore implements SsoFlowStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  private key(kind: string, key: string): string {
    return `${this.prefix}:sso:${kind}:${createHash('sha256').update(key).digest('hex')}`;
  }

  async put(kind: string, key: string, value: Record<string, unknown>, ttlSeconds: number): Promise<void> {
    await this.redis.set(this.key(kind, key), JSON.stringify(value), 'EX', ttlSeconds);
  }

  async take(kind: string, key: string): Promise<Record<string, unknown> | null> {
    const raw = await this.redis.getdel(this.key(kind, key));
    if (raw === null) return null;
    try {
      return JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return null;
    }
  }

  async claimOnce(kind: string, key: string, ttlSeconds: number): Promise<boolean> {
    return (await this.redis.set(this.key(kind, key), '1', 'EX', Math.max(1, ttlSeconds), 'NX')) === 'OK';
  }
}
