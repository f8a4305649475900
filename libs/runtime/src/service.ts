import type { CommonConfig } from '@confab/config';
import { ServiceEvents, type EventContract, type OutboxRelay } from '@confab/events';
import { IdentityVerifier } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { RedisOptions } from 'ioredis';
import { ReplicaForgets } from './forgets.js';
import { closeBullConnections } from './jobs.js';
import { openRedis, type RedisClient } from './redis.js';

type ShutdownStep = readonly [name: string, close: () => Promise<unknown>];

/** What a service's configuration holds for its runtime: the shared settings, and its database when it has one. */
export type RuntimeConfig = CommonConfig & { db?: { url: string; poolSize: number } };

/**
 * The resources every service process opens the same way (docs/architecture.md "Processes"): its database client,
 * its Redis connections, its event plumbing and the verifier of internal identities. Each is opened on request and
 * closed by `shutdown()` in a fixed order after the process's own steps: events first (the relay stops publishing,
 * the bus stops consuming), then the database, then Redis.
 */
export class ServiceRuntime<C extends RuntimeConfig> {
  readonly verifier: IdentityVerifier;
  private events: ServiceEvents | undefined;
  private readonly databases: ShutdownStep[] = [];
  private readonly redisConnections: RedisClient[] = [];

  constructor(
    readonly config: C,
    readonly logger: Logger,
  ) {
    this.verifier = new IdentityVerifier([config.internalSecret, config.internalSecretPrevious]);
  }

  /** The service's database client, from its factory (the generated Prisma client through `openPrisma`). */
  database<Db extends { $disconnect(): Promise<void> }>(open: (url: string, poolSize: number) => Db): Db {
    const db = this.config.db;
    if (!db) throw new Error('this process has no database configured');
    const client = open(db.url, db.poolSize);
    this.databases.push(['database', () => client.$disconnect()]);
    return client;
  }

  /** Another resource closed with the databases (a plain pg pool beside the Prisma client). */
  closeWithDatabase(name: string, close: () => Promise<unknown>): void {
    this.databases.push([name, close]);
  }

  /** A Redis connection of this process (`openRedis`), closed at shutdown. */
  redis(options: RedisOptions = {}): RedisClient {
    const redis = openRedis(this.config.redis, this.logger, options);
    this.redisConnections.push(redis);
    return redis;
  }

  /**
   * Cache invalidation shared by the replicas of `service` (its processes: API and worker), on a Redis channel of
   * the deployment; `start()` it before serving.
   */
  replicaForgets(service: string): ReplicaForgets {
    const channel = `${this.config.redis.prefix}:${service}:forget`;
    return new ReplicaForgets(this.redis(), this.redis({ maxRetriesPerRequest: null }), channel, this.logger);
  }

  /** The event bus of a service that only consumes events. */
  consumer(): ServiceEvents {
    this.events ??= new ServiceEvents(this.config, this.logger);
    return this.events;
  }

  /**
   * The event bus and outbox relay of a service that writes events: its database holds the outbox, and `validate`
   * are the contracts the relay checks in the form they are published.
   */
  publisher(validate?: readonly EventContract<unknown>[]): ServiceEvents & { relay: OutboxRelay } {
    const db = this.config.db;
    if (!db) throw new Error('a service that writes events needs its database');
    this.events ??= ServiceEvents.withOutbox({ ...this.config, db }, this.logger, validate);
    return this.events as ServiceEvents & { relay: OutboxRelay };
  }

  /** The steps that close what was opened, to follow the process's own (its HTTP server, its workers). */
  shutdown(): ShutdownStep[] {
    const redis = this.redisConnections;
    return [
      ...(this.events?.shutdown ?? []),
      ...this.databases,
      [
        'redis',
        () => Promise.all([...redis.map((r) => r.quit().catch(() => r.disconnect())), closeBullConnections()]),
      ] as const,
    ];
  }
}
