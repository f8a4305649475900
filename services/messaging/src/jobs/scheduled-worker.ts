import { Worker } from 'bullmq';
import { observeJobStart, registerJobQueueDepth } from '@confab/http';
import type { Logger } from '@confab/logging';
import { bullOptions } from '@confab/runtime';
import type { MessagingConfig } from '../config.js';
import type { Domain } from '../domain/context.js';
import { deliverAllDue } from '../domain/scheduled-drain.js';
import { BullDeliveryQueue, SCHEDULED_QUEUE, type DeliveryJobData } from './scheduled-delivery.js';

/**
 * Delivers scheduled messages from their delayed jobs. At start, and every `sweepSeconds`, pending rows whose job
 * is missing from Redis (Redis lost its data, or was down when the message was scheduled) get it back; the database
 * stays the source of truth, and the guarded update makes a second job for the same row harmless.
 */
export async function startScheduledDelivery(ctx: { domain: Domain; config: MessagingConfig; logger: Logger }) {
  const { domain, config, logger } = ctx;
  const queue = BullDeliveryQueue.open(config.redis, logger);
  registerJobQueueDepth(queue.queue);

  // One drain at a time in this process: a job whose time the running drain covers waits for it; a later one runs
  // the next drain. A drain's failure fails the job that started it (BullMQ retries it).
  let running: { startedAt: number; done: Promise<unknown> } | undefined;
  const drainFor = async (dueAt: number): Promise<number> => {
    // Never early: a delayed job may fire a few milliseconds before its time (BullMQ promotes by its own clock),
    // and a drain delivers only what is due by its start, so it waits for the due time first.
    const early = dueAt - Date.now();
    if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
    for (;;) {
      if (running) {
        const { startedAt, done } = running;
        await done.catch(() => undefined);
        // A drain delivers what was due at its start.
        if (startedAt >= dueAt) return 0;
        continue;
      }
      const startedAt = Date.now();
      const done = deliverAllDue(domain, new Date(startedAt));
      running = { startedAt, done };
      try {
        const delivered = await done;
        for (const at of delivered) observeJobStart(SCHEDULED_QUEUE, at.getTime());
        return delivered.length;
      } finally {
        running = undefined;
      }
    }
  };

  const worker = new Worker<DeliveryJobData>(SCHEDULED_QUEUE, (job) => drainFor(job.data.dueAt ?? Date.now()), {
    ...bullOptions(config.redis),
    concurrency: config.scheduled.concurrency,
    lockDuration: config.scheduled.lockMs,
    stalledInterval: config.scheduled.lockMs,
  });
  worker.on('failed', (job, err) =>
    logger.warn({ err: err.message, dueAt: job?.data.dueAt }, 'scheduled delivery failed'),
  );
  worker.on('error', (err) => logger.warn({ err: err.message }, 'scheduled delivery worker error'));

  // One sweep at a time: while Redis is down a sweep waits for it, and later ticks must not pile up behind it. A
  // sweep asked for while one runs runs once more after it (Redis came back while the running one read rows).
  let sweeping = false;
  let again = false;
  const sweep = async () => {
    if (sweeping) {
      again = true;
      return;
    }
    sweeping = true;
    try {
      do {
        again = false;
        try {
          await queue.reconcile(domain, logger);
        } catch (err) {
          logger.warn({ err }, 'could not re-enqueue pending scheduled messages; will retry');
        }
      } while (again);
    } finally {
      sweeping = false;
    }
  };
  // Redis came back (a restart, a failover to a replica): it may have lost the timers, so they are rebuilt now
  // rather than at the next sweep, which left messages late by up to its period.
  const client = await queue.queue.client;
  let connectedOnce = false;
  client.on('ready', () => {
    if (connectedOnce) {
      logger.info('redis reconnected: rebuilding the scheduled-message timers');
      void sweep();
    }
    connectedOnce = true;
  });
  if (client.status === 'ready') connectedOnce = true;
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
