import type { ClientEvent } from '@confab/zulip';
import type { Logger } from '@confab/logging';
import type { QueueDescriptor } from '../domain/descriptor.js';
import type { QueueContext } from '../domain/shaping.js';
import type { QueueStore } from '../store/queues.js';
import type { ReadModel } from '../store/readmodel.js';

/** Client events for one queue; an empty list skips it. */
export type Builder = (ctx: QueueContext) => ClientEvent[];

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
    await this.deliverBatch([{ eventId, deliveries }]);
  }

  /**
   * Delivers several broker events together (docs/architecture.md, "Hot paths and batching"): one round trip finds every
   * queue they go to, one atomic step appends them all (each event still at most once, by its id) and sends one
   * wake-up notice. Events are appended in the order given, so each queue sees them in broker order.
   */
  async deliverBatch(batch: readonly { eventId: string; deliveries: readonly Delivery[] }[]): Promise<void> {
    const users = new Set<number>();
    const realms = new Set<number>();
    const publicRealms = new Set<number>();
    for (const { deliveries } of batch) {
      for (const d of deliveries) {
        if (d.users) for (const u of d.users) users.add(u);
        if (d.realm !== undefined) realms.add(d.realm);
        if (d.publicStreamsRealm !== undefined) publicRealms.add(d.publicStreamsRealm);
      }
    }
    const index = await this.store.indexes({
      users: [...users],
      realms: [...realms],
      publicRealms: [...publicRealms],
    });
    const targetsOf = (delivery: Delivery) => {
      const targets = new Map<string, { userId?: number; realmId?: number }>();
      const realmId = delivery.publicStreamsRealm;
      if (realmId !== undefined) for (const id of index.publicRealms.get(realmId) ?? []) targets.set(id, { realmId });
      if (delivery.realm !== undefined) {
        const realm = delivery.realm;
        for (const id of index.realms.get(realm) ?? []) targets.set(id, { realmId: realm });
      }
      if (delivery.users) {
        for (const userId of delivery.users)
          for (const id of index.users.get(userId) ?? []) targets.set(id, { userId });
      }
      return targets;
    };
    const perEvent = batch.map(({ deliveries }) => deliveries.map((d) => ({ delivery: d, targets: targetsOf(d) })));
    const allQueues = new Set<string>();
    for (const event of perEvent) for (const { targets } of event) for (const id of targets.keys()) allQueues.add(id);
    const descriptors = await this.descriptors([...allQueues]);
    const topicNames = new Map<number, string>();
    for (const d of descriptors.values()) {
      if (!topicNames.has(d.realmId)) topicNames.set(d.realmId, await this.readModel.emptyTopicDisplayName(d.realmId));
    }

    const origins = new Map<string, { userId?: number; realmId?: number }>();
    const stale = new Map<string, { userId?: number; realmId?: number }>();
    const appends = perEvent.map((event, i) => {
      const pairs: [string, string][] = [];
      // Builders hand the same object to queues that see the same thing: serialise it once.
      const serialized = new Map<object, string>();
      for (const { delivery, targets } of event) {
        for (const [queueId, origin] of targets) {
          const queue = descriptors.get(queueId);
          if (!queue) {
            stale.set(queueId, origin);
            continue;
          }
          const emptyTopicDisplayName = topicNames.get(queue.realmId)!;
          for (const built of delivery.build({ queueId, queue, emptyTopicDisplayName })) {
            let json = serialized.get(built);
            if (json === undefined) serialized.set(built, (json = JSON.stringify(built)));
            pairs.push([queueId, json]);
            origins.set(queueId, origin);
          }
        }
      }
      return { eventId: batch[i]!.eventId, pairs };
    });
    const results = await this.store.appendBatch(appends, this.dedupeTtlSeconds);
    // Queues that were cached but have expired since.
    results.forEach((appended, i) => {
      if (appended === null) return;
      const reached = new Set(appended);
      for (const [queueId] of appends[i]!.pairs) if (!reached.has(queueId)) stale.set(queueId, origins.get(queueId)!);
    });
    if (stale.size > 0) {
      for (const queueId of stale.keys()) this.descriptorCache.delete(queueId);
      await this.store.forget([...stale].map(([queueId, origin]) => ({ queueId, ...origin })));
      this.log.debug({ count: stale.size }, 'dropped expired queues from indexes');
    }
  }
}
