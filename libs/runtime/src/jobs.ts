import { redisConnectionOptions, type RedisSettings } from '@confab/config';
import type { Cluster, Redis } from 'ioredis';
import { connectRedis } from './redis.js';

/** Cluster connections handed to BullMQ, which never closes a connection it was given: `closeBullConnections` does. */
const clusterConnections = new Set<Cluster | Redis>();

/**
 * Where a service's BullMQ queues and workers live (docs/architecture.md "Jobs"): Redis connections that block and
 * retry forever, and the deployment's prefix (`CONFAB_REDIS_PREFIX`) so that several deployments or test runs share
 * one Redis. The prefix carries the hash tag `{bull}`: BullMQ's scripts use a queue's keys together, which on a
 * Redis Cluster must share a slot. Spread into `new Queue(name, …)` and `new Worker(name, fn, …)`.
 */
export function bullOptions(redis: Pick<RedisSettings, 'url' | 'cluster' | 'prefix' | 'sentinel'>) {
  const prefix = `${redis.prefix}:{bull}`;
  if (redis.sentinel) {
    // A client that asks the sentinels for the master (BullMQ duplicates it for its blocking connections).
    const connection = connectRedis(redis, { maxRetriesPerRequest: null }) as Redis;
    clusterConnections.add(connection);
    return { connection, prefix };
  }
  if (!redis.cluster) {
    return { connection: { ...redisConnectionOptions(redis.url), maxRetriesPerRequest: null }, prefix };
  }
  // BullMQ only reaches a cluster through a client it is given (it duplicates it for its blocking connections).
  const connection = connectRedis(redis, { maxRetriesPerRequest: null }) as Cluster;
  clusterConnections.add(connection);
  return { connection, prefix };
}

/** Closes the cluster connections `bullOptions` made, after the queues and workers that used them closed. */
export async function closeBullConnections(): Promise<void> {
  const open = [...clusterConnections];
  clusterConnections.clear();
  await Promise.all(open.map((connection) => connection.quit().catch(() => connection.disconnect())));
}
