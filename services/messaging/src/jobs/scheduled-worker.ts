import { DelayedError, Worker } from 'bullmq';
import { observeJobStart, registerJobQueueDepth } from '@confab/http';
import type { Logger } from '@confab/logging';
import { bullOptions } from '@confab/runtime';
import type { MessagingConfig } from '../config.js';
import type { Domain } from '../domain/context.js';
import { deliverDueBatch, DELIVERY_BATCH } from '../domain/scheduled-batch.js';
import { deliverScheduled } from '../domain/scheduled-send.js';
import { BullDeliveryQueue, SCHEDULED_QUEUE, type DeliveryJobData } from './scheduled-delivery.js';

/**
 * Delivers scheduled messages from their delayed jobs. At start, and every `sweepSeconds`, pending rows whose job
 * is missing from Redis (Redis lost its data, or was down when the message was scheduled) get it back; the database
 * stays the source of truth, and the guarded update makes a second job for the same row harmless.
 */
export async function startScheduledDelivery(ctx: { domain: Domain; config: MessagingConfig; logger: Logger }) {
  const { domain, config, logger } = ctx;
  const queue = BullDeliveryQueue.open(config.redis.url, config.redis.prefix, logger);
  registerJobQueueDepth(queue.queue);

  // Jobs that fire together share batched deliveries: one batch at a time in this process (others wait for it, and
  // most find their row delivered); it repeats while batches come back full. Each job then delivers its own row if it
  // is still pending (not due yet, refused, or skipped by the batch), as before.
  let batching: Promise<void> | undefined;
  const deliverDue = () => {
    batching ??= (async () => {
      try {
        for (;;) {
          const due = await deliverDueBatch(domain);
          for (const at of due) observeJobStart(SCHEDULED_QUEUE, at.getTime());
          if (due.length < DELIVERY_BATCH) break;
        }
      } catch (err) {
        logger.warn({ err }, 'batched scheduled delivery failed; jobs deliver their own rows');
      } finally {
        batching = undefined;
      }
    })();
    return batching;
  };

  const worker = new Worker<DeliveryJobData>(
    SCHEDULED_QUEUE,
    async (job, token) => {
      const id = job.data.scheduledMessageId;
      await deliverDue();
      // A delivery superseded by an edit is tried again with the row as it is now.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const result = await deliverScheduled(domain, id);
        if (result.outcome === 'not-due') {
          await job.moveToDelayed(result.at.getTime(), token);
          throw new DelayedError();
        }
        if (result.outcome === 'delivered') observeJobStart(SCHEDULED_QUEUE, result.dueAt.getTime());
        if (result.outcome !== 'superseded') return result.outcome;
      }
      return 'superseded';
    },
    {
      ...bullOptions(config.redis.url, config.redis.prefix),
      concurrency: config.scheduled.concurrency,
      lockDuration: config.scheduled.lockMs,
      stalledInterval: config.scheduled.lockMs,
    },
  );
  worker.on('failed', (job, err) =>
    logger.warn({ err: err.message, scheduledMessageId: job?.data.scheduledMessageId }, 'scheduled delivery failed'),
  );
  worker.on('error', (err) => logger.warn({ err: err.message }, 'scheduled delivery worker error'));

  // One sweep at a time: while Redis is down a sweep waits for it, and later ticks must not pile up behind it.
  let sweeping = false;
  const sweep = async () => {
    if (sweeping) return;
    sweeping = true;
    try {
      await queue.reconcile(domain, logger);
    } catch (err) {
      logger.warn({ err }, 'could not re-enqueue pending scheduled messages; will retry');
    } finally {
      sweeping = false;
    }
  };
  await sweep();
  const timer = setInterval(() => void sweep(), config.scheduled.sweepSeconds * 1000);
  timer.unref();
  logger.info({ queue: SCHEDULED_QUEUE, concurrency: config.scheduled.concurrency }, 'scheduled delivery started');
  return {
    async close() {
      clearInterval(timer);
      await worker.close();
      await queue.close();
    },
  };
}
