import { randomUUID } from 'node:crypto';
import type { Logger } from '@confab/logging';
import type { RedisClient } from './redis.js';

/**
 * Cache invalidation across a service's replicas (docs/architecture.md, "Replicas"). A replica that changes a fact
 * it caches, or applies an event about one (only one replica of a service consumes each event), forgets its own copy
 * and announces the forgotten key on a Redis channel; every other replica forgets its copy when the notice arrives.
 * Without it another replica would answer from its copy until the copy expires.
 */
export class ReplicaForgets {
  private readonly handlers = new Map<string, (key: string) => void>();
  /** Tells this replica's own notices from the others'. */
  private readonly id = randomUUID();

  constructor(
    private readonly publisher: Pick<RedisClient, 'publish'>,
    private readonly subscriber: RedisClient | undefined,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {}

  /** What forgetting a key of `kind` means in this replica. */
  on(kind: string, forget: (key: string) => void): this {
    this.handlers.set(kind, forget);
    return this;
  }

  /** Listens for the other replicas' notices (a replica without a subscriber only announces). */
  async start(): Promise<void> {
    if (!this.subscriber) return;
    this.subscriber.on('message', (channel: string, text: string) => {
      if (channel !== this.channel) return;
      try {
        const notice = JSON.parse(text) as { from: string; kind: string; key: string };
        if (notice.from !== this.id) this.handlers.get(notice.kind)?.(notice.key);
      } catch (err) {
        this.logger.warn({ err }, 'bad cache notice');
      }
    });
    await this.subscriber.subscribe(this.channel);
  }

  /** Forgets the key here at once and tells the other replicas. */
  forget(kind: string, key: string | number): void {
    this.handlers.get(kind)?.(String(key));
    this.publisher
      .publish(this.channel, JSON.stringify({ from: this.id, kind, key: String(key) }))
      .catch((err: unknown) => this.logger.warn({ err }, 'cache notice not sent'));
  }
}
