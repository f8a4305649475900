import { Queue } from 'bullmq';
import { bullOptions } from '@confab/runtime';
import type { Logger } from '@confab/logging';
import type { Domain } from '../domain/context.js';
import type { DeliveryQueue } from '../domain/scheduled-messages.js';

/** The BullMQ queue of scheduled deliveries (docs/architecture.md): one delayed job per scheduled message. */
export const SCHEDULED_QUEUE = 'scheduled-messages';

export interface DeliveryJobData {
  scheduledMessageId: number;
}

/** BullMQ refuses integer custom ids, and the prefix keeps the key readable. */
export const jobIdOf = (id: number) => `sm-${id}`;

const jobOptions = (id: number, at: Date) => ({
  jobId: jobIdOf(id),
  delay: Math.max(0, at.getTime() - Date.now()),
  // Finished jobs leave no trace, so the same id can be scheduled again (a failed message given a new time).
  removeOnComplete: true,
  removeOnFail: true,
  // Passing trouble (database, broker) is retried; lasting refusals mark the row failed instead of throwing.
  attempts: 8,
  backoff: { type: 'exponential', delay: 500 },
});

/** The delivery queue over BullMQ. */
export class BullDeliveryQueue implements DeliveryQueue {
  constructor(readonly queue: Queue<DeliveryJobData>) {}

  static open(redisUrl: string, redisPrefix: string, logger: Logger): BullDeliveryQueue {
    const queue = new Queue<DeliveryJobData>(SCHEDULED_QUEUE, bullOptions(redisUrl, redisPrefix));
    // Connection trouble is retried by ioredis; without a listener it would be printed as an unhandled error.
    queue.on('error', (err: Error) => logger.warn({ err: err.message }, 'scheduled-messages queue: redis error'));
    return new BullDeliveryQueue(queue);
  }

  async schedule(id: number, at: Date): Promise<void> {
    // A job of the same id (an older time) is replaced; a job running now cannot be removed, and finds the row
    // changed (the version guard) when it tries to deliver.
    await this.queue.remove(jobIdOf(id)).catch(() => 0);
    await this.queue.add('deliver', { scheduledMessageId: id }, jobOptions(id, at));
  }

  async cancel(id: number): Promise<void> {
    await this.queue.remove(jobIdOf(id));
  }

  /**
   * Adds a job for every pending row; BullMQ ignores an id it already holds, so only the jobs missing from Redis
   * (lost with Redis, or never added because Redis was down) are created. Returns how many rows were looked at.
   */
  async reconcile(domain: Domain, logger: Logger): Promise<number> {
    let after = 0;
    let seen = 0;
    for (;;) {
      const rows = await domain.scheduledMessages.pending(after, 1000);
      if (rows.length === 0) break;
      await this.queue.addBulk(
        rows.map((r) => ({
          name: 'deliver',
          data: { scheduledMessageId: r.id },
          opts: jobOptions(r.id, r.scheduledAt),
        })),
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
