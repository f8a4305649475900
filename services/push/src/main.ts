import { ServiceEvents } from '@confab/events';
import { listen, runProcess } from '@confab/http';
import { IdentityVerifier } from '@confab/identity';
import { openRedis } from '@confab/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { PushDeps } from './deps.js';
import { RegistrationQueue, TestNotificationQueue } from './jobs/queues.js';
import { createPrisma } from './repositories/prisma.js';
import { PushRepository } from './repositories/push.repository.js';

runProcess('push', loadConfig, async (config, logger) => {
  const prisma = createPrisma(config.db.url, config.db.poolSize);
  const redis = openRedis(config.redis.url, logger);
  // Also publishes what the worker commits (registration outcomes), which it finds by polling.
  const events = ServiceEvents.withOutbox(config, logger);
  const { bus, relay } = events;
  const repo = new PushRepository(prisma, events.kick);
  const queueOptions = {
    redisUrl: config.redis.url,
    redisPrefix: config.redis.prefix,
    testWaitMs: config.testWaitMs,
    registerAttempts: config.registerAttempts,
    registerBackoffMs: Math.max(1000, config.relay.backoffMs),
  };
  const dispatcher = new TestNotificationQueue(queueOptions, logger);
  const scheduler = new RegistrationQueue(queueOptions, logger);
  const deps: PushDeps = {
    config,
    logger,
    repo,
    redis,
    bus,
    relay,
    verifier: new IdentityVerifier(config.internalSecret),
    dispatcher,
    scheduler,
  };
  await events.start();
  await dispatcher.ready();
  const server = await listen(buildApp(deps), config.port);
  logger.info({ port: server.port, relay: config.relay.url || null }, 'push service listening');
  return [
    ['http', () => server.close()],
    ['queues', () => Promise.all([dispatcher.close(), scheduler.close()])],
    ...events.shutdown,
    ['database', () => prisma.$disconnect()],
    ['redis', () => redis.quit()],
  ];
});
