import { Queue, Worker } from 'bullmq';
import { registerJobQueueDepth, runProcess } from '@confab/http';
import { bullOptions, ServiceRuntime } from '@confab/runtime';
import { loadConfig, workerPoolSize } from './config.js';
import { buildDomain } from './domain-factory.js';
import { MAINTENANCE_QUEUE, maintenanceHandlers, type MaintenanceJobName } from './jobs/catalog.js';
import { startLinkPreviews } from './jobs/link-previews.js';
import { startOutgoingWebhooks } from './jobs/outgoing-webhooks.js';
import { startScheduledDelivery } from './jobs/scheduled-worker.js';
import { COMPLETED_IN_SQL } from './repositories/send-sql.js';

/** The configuration, with the worker's pool size (config.ts, `workerPoolSize`). */
function loadWorkerConfig() {
  const loaded = loadConfig();
  return { ...loaded, db: { ...loaded.db, poolSize: workerPoolSize(loaded.db, loaded.scheduled.concurrency) } };
}

/**
 * The messaging worker: scheduled delivery, outgoing webhooks, link previews, and periodic maintenance on BullMQ (one scheduler
 * entry, whatever the number of workers).
 */
runProcess('messaging-worker', loadWorkerConfig, async (config, log) => {
  const runtime = new ServiceRuntime(config, log);
  const events = runtime.publisher(COMPLETED_IN_SQL);
  const forgets = runtime.replicaForgets('messaging');
  const { domain, store, close } = buildDomain(config, log, events.kick, forgets);
  runtime.closeWithDatabase('database', close);
  const bull = bullOptions(config.redis);
  const queue = new Queue(MAINTENANCE_QUEUE, bull);
  await queue.upsertJobScheduler(
    'delete-unclaimed-uploads',
    { every: config.uploads.cleanupIntervalSeconds * 1000 },
    { name: 'delete-unclaimed-uploads', data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } },
  );
  await queue.upsertJobScheduler(
    'forget-sent-local-ids',
    { every: 60_000 },
    { name: 'forget-sent-local-ids', data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } },
  );
  // Daily, at one time for every replica (a cron pattern in UTC): one scheduler entry whatever the number of workers.
  await queue.upsertJobScheduler(
    'archive-messages',
    { pattern: config.retention.cron, tz: 'UTC' },
    { name: 'archive-messages', data: {}, opts: { removeOnComplete: 30, removeOnFail: 30 } },
  );
  // Registered before the bus starts: its consumer is on this bus.
  const webhooks = startOutgoingWebhooks({ domain, bus: events.bus, config, logger: log });
  const previews = startLinkPreviews({ domain, bus: events.bus, config, redis: runtime.redis(), logger: log });
  await forgets.start();
  await events.start();
  const worker = new Worker(
    MAINTENANCE_QUEUE,
    async (job) => {
      const name = job.name as MaintenanceJobName;
      const handler = maintenanceHandlers[name];
      if (!handler) throw new Error(`no handler for job ${job.name}`);
      return handler({ domain, store, config, logger: log }, job.data as never);
    },
    { ...bull, concurrency: 1 },
  );
  worker.on('failed', (job, err) => log.warn({ err: err.message, job: job?.name }, 'maintenance job failed'));
  // Redis outages are retried; without listeners BullMQ's own connections print them as unhandled errors.
  worker.on('error', (err) => log.warn({ err: err.message }, 'maintenance worker error'));
  queue.on('error', (err: Error) => log.warn({ err: err.message }, 'maintenance queue error'));
  const scheduled = await startScheduledDelivery({ domain, config, logger: log });
  registerJobQueueDepth(queue);
  log.info({ queue: MAINTENANCE_QUEUE }, 'messaging worker started');
  return [
    ['scheduled delivery', () => scheduled.close()],
    ['outgoing webhooks', () => webhooks.close()],
    ['link previews', () => previews.close()],
    ['worker', () => worker.close()],
    ['queue', () => queue.close()],
    ...runtime.shutdown(),
  ];
});
