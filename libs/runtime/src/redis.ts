import type { Logger } from '@confab/logging';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * A Redis connection whose errors are logged rather than thrown at the process (ioredis reconnects by itself).
 * Commands fail after two retries by default, so a request does not hang on a Redis that is down; connections that
 * block (BullMQ, subscriptions) pass `maxRetriesPerRequest: null`.
 */
export function openRedis(url: string, logger: Logger, options: RedisOptions = {}): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: 2, ...options });
  redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis error'));
  return redis;
}
