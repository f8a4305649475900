import type { Logger } from '@confab/logging';
import type { QueueDescriptor } from '../domain/descriptor.js';
import type { QueueContext } from '../domain/shaping.js';
import type { QueueStore } from '../store/queues.js';
import type { ReadModel } from '../store/readmodel.js';

/** Client events for one queue; an empty list skips it. */
export type Builder = (ctx: QueueContext) => Record<string, unknown>[];

/** Whose queues an event goes to, and how it looks to each of them. */
export interface Delivery {
  /** Queues of these users. */
  users?: readonly number[];
  /** Every queue of this realm. */
  realm?: number;
  /** Queues of this realm that follow all public channels (or have a narrow): public-channel messages. */
  publicStreamsRealm?: number;
  build: Builder;
}

const DESCRIPTOR_CACHE_MAX = 50_000;

/**
 * Turns one broker event into entries of the right queues: finds the queues (users' and realms' indexes), shapes
 * the event for each queue, and appends everything in one atomic step guarded by the event id, so a redelivered
 * event is never delivered twice; the same step wakes the polls waiting on those queues, on any replica.
 */
export class Fanout {
  /** Descriptors never change after registration, so each replica keeps the ones it has seen. */
  private readonly descriptorCache = new Map<string, QueueDescriptor>();

  constructor(
    private readonly store: QueueStore,
    private readonly readModel: ReadModel,
    private readonly dedupeTtlSeconds: number,
    private readonly log: Logger,
  ) {}

  private async descriptors(queueIds: readonly string[]): Promise<Map<string, QueueDescriptor>> {
    const out = new Map<string, QueueDescriptor>();
    const missing: string[] = [];
    for (const id of queueIds) {
      const cached = this.descriptorCache.get(id);
      if (cached) out.set(id, cached);
      else missing.push(id);
    }
    if (missing.length > 0) {
      if (this.descriptorCache.size + missing.length > DESCRIPTOR_CACHE_MAX) this.descriptorCache.clear();
      for (const [id, d] of await this.store.descriptors(missing)) {
        out.set(id, d);
        this.descriptorCache.set(id, d);
      }
    }
    return out;
  }

  /** Marks an event handled without delivering anything (events only kept for read models). */
  async record(eventId: string): Promise<void> {
    await this.store.append([], { eventId, ttlSeconds: this.dedupeTtlSeconds });
  }

  async deliver(eventId: string, deliveries: readonly Delivery[]): Promise<void> {
    const pairs: [string, string][] = [];
    // Builders hand the same object to queues that see the same thing: serialise it once.
    const serialized = new Map<object, string>();
    const origins = new Map<string, { userId?: number; realmId?: number }>();
    const stale: { queueId: string; userId?: number; realmId?: number }[] = [];
    for (const delivery of deliveries) {
      const targets = new Map<string, { userId?: number; realmId?: number }>();
      if (delivery.publicStreamsRealm !== undefined) {
        const realmId = delivery.publicStreamsRealm;
        for (const id of await this.store.queuesOfRealm(realmId, true)) targets.set(id, { realmId });
      }
      if (delivery.realm !== undefined) {
        const realmId = delivery.realm;
        for (const id of await this.store.queuesOfRealm(realmId)) targets.set(id, { realmId });
      }
      if (delivery.users) {
        for (const [id, userId] of await this.store.queuesOfUsers(delivery.users)) targets.set(id, { userId });
      }
      const descriptors = await this.descriptors([...targets.keys()]);
      const topicNames = new Map<number, string>();
      for (const d of descriptors.values()) {
        if (!topicNames.has(d.realmId))
          topicNames.set(d.realmId, await this.readModel.emptyTopicDisplayName(d.realmId));
      }
      for (const [queueId, origin] of targets) {
        const queue = descriptors.get(queueId);
        if (!queue) {
          stale.push({ queueId, ...origin });
          continue;
        }
        const emptyTopicDisplayName = topicNames.get(queue.realmId)!;
        for (const event of delivery.build({ queueId, queue, emptyTopicDisplayName })) {
          let json = serialized.get(event);
          if (json === undefined) serialized.set(event, (json = JSON.stringify(event)));
          pairs.push([queueId, json]);
          origins.set(queueId, origin);
        }
      }
    }
    const appended = await this.store.append(pairs, { eventId, ttlSeconds: this.dedupeTtlSeconds });
    if (appended === null) return;
    const reached = new Set(appended);
    // Queues that were cached but have expired since.
    for (const [queueId, origin] of origins) if (!reached.has(queueId)) stale.push({ queueId, ...origin });
    if (stale.length > 0) {
      for (const { queueId } of stale) this.descriptorCache.delete(queueId);
      await this.store.forget(stale);
      this.log.debug({ count: stale.length }, 'dropped expired queues from indexes');
    }
  }
}
