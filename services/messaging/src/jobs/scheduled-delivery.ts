import { Queue } from 'bullmq';
import type { RedisSettings } from '@confab/config';
import { bullOptions } from '@confab/runtime';
import type { Logger } from '@confab/logging';
import type { Domain } from '../domain/context.js';
import type { DeliveryQueue } from '../domain/scheduled-messages.js';

/**
 * The BullMQ queue of scheduled deliveries (docs/architecture.md, "Jobs"): one delayed job per delivery time, which
 * every message due at that time shares, so a burst due in the same second costs one job, not one per message.
 */
export const SCHEDULED_QUEUE = 'scheduled-messages';

export interface DeliveryJobData {
  /** The delivery time (ms since the epoch); jobs of an earlier version carried a message id and mean "now". */
  dueAt?: number;
}

/** BullMQ keeps one job per id: a second message due at the same time joins the first one's job. */
export const jobIdOf = (at: Date) => `due-${at.getTime()}`;

const jobOptions = (at: Date) => ({
  jobId: jobIdOf(at),
  delay: Math.max(0, at.getTime() - Date.now()),
  // Finished jobs leave no trace, so the same time can be scheduled again later.
  removeOnComplete: true,
  removeOnFail: true,
  // Passing trouble (database, broker) is retried; lasting refusals mark the row failed instead of throwing.
  attempts: 8,
  backoff: { type: 'exponential', delay: 500 },
});

/** The delivery queue over BullMQ. */
export class BullDeliveryQueue implements DeliveryQueue {
  constructor(readonly queue: Queue<DeliveryJobData>) {}

  static open(redis: RedisSettings, logger: Logger): BullDeliveryQueue {
    const queue = new Queue<DeliveryJobData>(SCHEDULED_QUEUE, bullOptions(redis));
    // Connection trouble is retried by ioredis; without a listener it would be printed as an unhandled error.
    queue.on('error', (err: Error) => logger.warn({ err: err.message }, 'scheduled-messages queue: redis error'));
    return new BullDeliveryQueue(queue);
  }

  async schedule(at: Date): Promise<void> {
    // The job of an older time (an edit moved the message) stays for the others due then; the message is not due
    // when it fires, so it sends nothing for it.
    await this.queue.add('deliver', { dueAt: at.getTime() }, jobOptions(at));
  }

  /**
   * Adds the job of every pending row's time; BullMQ ignores an id it already holds, so only the jobs missing from
   * Redis (lost with Redis, or never added because Redis was down) are created. Returns how many rows were looked at.
   */
  async reconcile(domain: Domain, logger: Logger): Promise<number> {
    let after = 0;
    let seen = 0;
    for (;;) {
      const rows = await domain.scheduledMessages.pending(after, 1000);
      if (rows.length === 0) break;
      const times = new Map(rows.map((r) => [r.scheduledAt.getTime(), r.scheduledAt]));
      await this.queue.addBulk(
        [...times.values()].map((at) => ({ name: 'deliver', data: { dueAt: at.getTime() }, opts: jobOptions(at) })),
      );
      seen += rows.length;
      after = rows[rows.length - 1]!.id;
    }
    if (seen > 0) logger.debug({ pending: seen }, 'pending scheduled messages checked against the queue');
    return seen;
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
