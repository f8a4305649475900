import { Queue, Worker } from 'bullmq';
import { EventBus, OutboxRelay } from '@confab/events';
import { closeOnSignals, exitOnStartupFailure, registerJobQueueDepth, serveWorkerMetrics } from '@confab/http';
import { createLogger, type Logger } from '@confab/logging';
import { Redis } from 'ioredis';
import { loadConfig } from './config.js';
import { buildDomain } from './domain-factory.js';
import { MAINTENANCE_QUEUE, maintenanceHandlers, type MaintenanceJobName } from './jobs/catalog.js';
import { startScheduledDelivery } from './jobs/scheduled-worker.js';

/** The messaging worker: periodic maintenance on BullMQ (one scheduler entry, whatever the number of workers). */
async function main(): Promise<void> {
  let logger: Logger | undefined;
  try {
    const loaded = loadConfig();
    // Each concurrent delivery holds a connection for its transaction.
    const config = {
      ...loaded,
      db: {
        ...loaded.db,
        poolSize: Math.max(loaded.db.poolSize, loaded.scheduled.concurrency + 2),
        sqlPoolSize: Math.max(loaded.db.sqlPoolSize, loaded.scheduled.concurrency + 2),
      },
    };
    logger = createLogger({ name: 'messaging-worker', level: config.logLevel });
    const log = logger;
    const bus = new EventBus({
      url: config.amqp.url,
      exchange: config.amqp.exchange,
      logger,
      queueExpiresMs: config.queueExpiresMs,
    });
    const relay = new OutboxRelay({ databaseUrl: config.db.url, bus, logger, pollIntervalMs: config.outboxPollMs });
    const { domain, prisma, sql } = buildDomain(config, logger, () => relay.kick());
    // BullMQ needs blocking connections that retry forever.
    const connection = new Redis(config.redis.url, { maxRetriesPerRequest: null });
    connection.on('error', (err: Error) => log.warn({ err: err.message }, 'redis error'));
    const prefix = `${config.redis.prefix}:bull`;
    const queue = new Queue(MAINTENANCE_QUEUE, { connection, prefix });
    await queue.upsertJobScheduler(
      'delete-unclaimed-uploads',
      { every: config.uploads.cleanupIntervalSeconds * 1000 },
      { name: 'delete-unclaimed-uploads', data: {}, opts: { removeOnComplete: 100, removeOnFail: 100 } },
    );
    await bus.start();
    relay.start();
    const worker = new Worker(
      MAINTENANCE_QUEUE,
      async (job) => {
        const name = job.name as MaintenanceJobName;
        const handler = maintenanceHandlers[name];
        if (!handler) throw new Error(`no handler for job ${job.name}`);
        return handler({ domain, config, logger: log }, job.data as never);
      },
      { connection, prefix, concurrency: 1 },
    );
    worker.on('failed', (job, err) => log.warn({ err: err.message, job: job?.name }, 'maintenance job failed'));
    // Redis outages are retried; without listeners BullMQ's own connections print them as unhandled errors.
    worker.on('error', (err) => log.warn({ err: err.message }, 'maintenance worker error'));
    queue.on('error', (err: Error) => log.warn({ err: err.message }, 'maintenance queue error'));
    const scheduled = await startScheduledDelivery({ domain, config, logger: log });
    registerJobQueueDepth(queue);
    const metrics = await serveWorkerMetrics('messaging-worker', config.workerMetricsPort);
    log.info({ queue: MAINTENANCE_QUEUE }, 'messaging worker started');
    closeOnSignals(logger, [
      ['scheduled delivery', () => scheduled.close()],
      ['worker', () => worker.close()],
      ['queue', () => queue.close()],
      ['outbox relay', () => relay.stop()],
      ['event bus', () => bus.close()],
      ['database', () => Promise.all([prisma.$disconnect(), sql.end()])],
      ['redis', () => connection.quit()],
      ['metrics', async () => metrics?.close()],
    ]);
  } catch (err) {
    exitOnStartupFailure(logger, err);
  }
}

void main();
