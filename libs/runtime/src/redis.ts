import { redisConnectionOptions, type RedisSettings } from '@confab/config';
import type { Logger } from '@confab/logging';
import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';

/** A connection to the deployment's Redis: one server, or a Redis Cluster (README, "Redis Cluster"). */
export type RedisClient = Redis | Cluster;

/** Where the Redis is; `cluster` decides between a server and a Redis Cluster (`redisSettings` of @confab/config). */
export type RedisTarget = Pick<RedisSettings, 'url' | 'cluster' | 'sentinel'>;

/**
 * ioredis options for a server that Redis Sentinel watches: the client asks the sentinels for the master, and
 * reconnects to the new one after a failover (`failoverDetector` listens for the sentinels' +switch-master, so a
 * master that was cut off rather than killed is left at once, not after a TCP timeout).
 */
export function sentinelOptions(sentinel: NonNullable<RedisSettings['sentinel']>): RedisOptions {
  return {
    sentinels: sentinel.sentinels,
    name: sentinel.name,
    db: sentinel.db,
    failoverDetector: true,
    ...(sentinel.username ? { username: sentinel.username } : {}),
    ...(sentinel.password ? { password: sentinel.password, sentinelPassword: sentinel.password } : {}),
    ...(sentinel.tls ? { tls: {}, enableTLSForSentinelMode: true } : {}),
  };
}

/**
 * The one way Confab opens Redis: a server's client, or for a Redis Cluster an ioredis Cluster that discovers the
 * other nodes from the one the URL names. Options are those of a server's client; for a cluster, the few that
 * belong to the cluster client (auto-pipelining, lazy connect, offline queue) go to it and the rest to each node's.
 * Keys a command or script uses together carry one hash tag (docs/architecture.md, "Redis keys").
 */
export function connectRedis(target: RedisTarget, options: RedisOptions = {}): RedisClient {
  if (target.sentinel) return releasingSentinels(new Redis({ ...sentinelOptions(target.sentinel), ...options }));
  if (!target.cluster) return new Redis(target.url, options);
  const { host, port, db: _db, ...auth } = redisConnectionOptions(target.url);
  const { enableAutoPipelining, lazyConnect, enableOfflineQueue, ...nodeOptions } = options;
  const clusterOptions: ClusterOptions = {
    redisOptions: { ...auth, ...nodeOptions },
    ...(enableAutoPipelining === undefined ? {} : { enableAutoPipelining }),
    ...(lazyConnect === undefined ? {} : { lazyConnect }),
    ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
  };
  return new Cluster([{ host, port }], clusterOptions);
}

/**
 * A client of a Sentinel-watched server closes its connections to the sentinels when it ends. ioredis's failover
 * detector keeps one subscriber connection per sentinel, and `quit()` ends only the connection to the master: the
 * sentinels' stayed open, so a process that quit its Redis never exited (`cli.js sync-ldap` on the three hosts).
 * `disconnect()` after the end releases them (its connector's cleanup); the client's duplicates (BullMQ's blocking
 * connections) get the same.
 */
function releasingSentinels(redis: Redis): Redis {
  redis.on('end', () => redis.disconnect());
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (override?: Partial<RedisOptions>) => releasingSentinels(duplicate(override));
  return redis;
}

/**
 * A Redis connection whose errors are logged rather than thrown at the process (ioredis reconnects by itself).
 * Commands fail after two retries by default, so a request does not hang on a Redis that is down; connections that
 * block (BullMQ, subscriptions) pass `maxRetriesPerRequest: null`.
 */
export function openRedis(target: RedisTarget, logger: Logger, options: RedisOptions = {}): RedisClient {
  const redis = connectRedis(target, { maxRetriesPerRequest: 2, ...options });
  redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis error'));
  if (options.maxRetriesPerRequest !== null) failFastWhenDisconnected(redis);
  return redis;
}

/**
 * Once connected, a command sent while the connection is down fails at once (a 503 with Retry-After for the request
 * behind it) instead of waiting in the offline queue for reconnection attempts, which held each request 5–6 s
 * before a 500 while Redis was down. Until the first connection commands wait, so a process may start before its
 * Redis. Connections that block or subscribe (`maxRetriesPerRequest: null`) keep waiting.
 */
function failFastWhenDisconnected(redis: RedisClient): void {
  redis.once('ready', () => {
    redis.options.enableOfflineQueue = false;
  });
}
