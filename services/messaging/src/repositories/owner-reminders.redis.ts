import type { RedisClient } from '@confab/runtime';
import { OWNER_NOTICE_WAIT_SECONDS, type OwnerReminders } from '../domain/webhooks.js';

/**
 * The last notice to each webhook bot's owner, in Redis (Zulip keeps it in UserProfile.last_reminder): a key per bot
 * that expires after the wait, set only if absent, so replicas send one notice between them.
 */
export class RedisOwnerReminders implements OwnerReminders {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  async claim(botId: number): Promise<boolean> {
    const key = `${this.prefix}:messaging:bot-owner-notice:${botId}`;
    return (await this.redis.set(key, '1', 'EX', OWNER_NOTICE_WAIT_SECONDS, 'NX')) === 'OK';
  }
}
