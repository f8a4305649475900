import { retireConsumersInBackground } from '@confab/events';
import { listen, runProcess } from '@confab/http';
import { mailConfigured, ServiceRuntime } from '@confab/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { PushDeps } from './deps.js';
import { startSettingsBackfill } from './events/backfill.js';
import { registerConsumers, registerEmailConsumer, RETIRED_CONSUMERS } from './events/consumers.js';
import { EmailQueue, NotificationQueue, RegistrationQueue, TestNotificationQueue } from './jobs/queues.js';
import { EmailRepository } from './repositories/email.repository.js';
import { NotificationsRepository } from './repositories/notifications.repository.js';
import { createPrisma } from './repositories/prisma.js';
import { PushRepository } from './repositories/push.repository.js';

runProcess('push', loadConfig, async (config, logger) => {
  const runtime = new ServiceRuntime(config, logger);
  const prisma = runtime.database(createPrisma);
  const redis = runtime.redis();
  // Also publishes what the worker commits (registration outcomes), which it finds by polling.
  const events = runtime.publisher();
  const repo = new PushRepository(prisma, events.kick);
  const queueOptions = {
    redis: config.redis,
    testWaitMs: config.testWaitMs,
    registerAttempts: config.registerAttempts,
    registerBackoffMs: Math.max(1000, config.relay.backoffMs),
  };
  const dispatcher = new TestNotificationQueue(queueOptions, logger);
  const scheduler = new RegistrationQueue(queueOptions, logger);
  const notifications = new NotificationsRepository(prisma);
  const notificationQueue = new NotificationQueue({ redis: config.redis, ...config.notify }, logger);
  // Without a relay nothing is notified: the notification events are left to the deployment's processes that have
  // one (replicas configured alike share the queue).
  const relayConfigured = config.relay.url !== '';
  if (relayConfigured) {
    registerConsumers(events.bus, { store: notifications, scheduler: notificationQueue, relayConfigured });
  }
  // Likewise missed-message email: only processes that can send mail (SMTP, or the development capture) take it.
  const mailOn = mailConfigured(config.mail);
  const emailQueue = new EmailQueue({ redis: config.redis, ...config.notify }, logger);
  if (mailOn) registerEmailConsumer(events.bus, { store: new EmailRepository(prisma), scheduler: emailQueue });
  retireConsumersInBackground(config.amqp, RETIRED_CONSUMERS, logger);
  const deps: PushDeps = {
    config,
    logger,
    repo,
    redis,
    bus: events.bus,
    relay: events.relay,
    verifier: runtime.verifier,
    dispatcher,
    scheduler,
  };
  await events.start();
  await dispatcher.ready();
  const backfill =
    relayConfigured || mailOn
      ? startSettingsBackfill(notifications, config.settingsUrl, config.internalSecret, logger)
      : { stop: () => undefined };
  const server = await listen(buildApp(deps), config.port, config.bindHost);
  logger.info({ port: server.port, relay: config.relay.url || null, mail: mailOn }, 'push service listening');
  return [
    ['http', () => server.close()],
    ['backfill', async () => backfill.stop()],
    [
      'queues',
      () => Promise.all([dispatcher.close(), scheduler.close(), notificationQueue.close(), emailQueue.close()]),
    ],
    ...runtime.shutdown(),
  ];
});
