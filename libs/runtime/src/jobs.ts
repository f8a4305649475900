import { redisConnectionOptions } from '@confab/config';

/**
 * Where a service's BullMQ queues and workers live (docs/architecture.md "Jobs"): Redis connections that block and
 * retry forever, and the deployment's prefix (`CONFAB_REDIS_PREFIX`) so that several deployments or test runs share
 * one Redis. Spread into `new Queue(name, …)` and `new Worker(name, fn, …)`.
 */
export function bullOptions(redisUrl: string, redisPrefix: string) {
  return { connection: redisConnectionOptions(redisUrl), prefix: `${redisPrefix}:bull` };
}
