import { EventBus, OutboxRelay } from '@confab/events';
import { closeOnSignals, exitOnStartupFailure, listen } from '@confab/http';
import { IdentityVerifier } from '@confab/identity';
import { createLogger, type Logger } from '@confab/logging';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { PushDeps } from './deps.js';
import { RegistrationQueue, TestNotificationQueue } from './jobs/queues.js';
import { createPrisma } from './repositories/prisma.js';
import { PushRepository } from './repositories/push.repository.js';

async function main(): Promise<void> {
  let logger: Logger | undefined;
  try {
    const config = loadConfig();
    logger = createLogger({ name: 'push', level: config.logLevel });
    const prisma = createPrisma(config.db.url, config.db.poolSize);
    const redis = new Redis(config.redis.url, { maxRetriesPerRequest: 2, lazyConnect: false });
    redis.on('error', (err: Error) => logger?.warn({ err: err.message }, 'redis error'));
    const bus = new EventBus({
      url: config.amqp.url,
      exchange: config.amqp.exchange,
      logger,
      queueExpiresMs: config.queueExpiresMs,
    });
    // Also publishes what the worker commits (registration outcomes), which it finds by polling.
    const relay = new OutboxRelay({ databaseUrl: config.db.url, bus, logger, pollIntervalMs: config.outboxPollMs });
    const repo = new PushRepository(prisma, () => relay.kick());
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
    await bus.start();
    await dispatcher.ready();
    relay.start();
    const server = await listen(buildApp(deps), config.port);
    logger.info({ port: server.port, relay: config.relay.url || null }, 'push service listening');
    closeOnSignals(logger, [
      ['http', () => server.close()],
      ['queues', () => Promise.all([dispatcher.close(), scheduler.close()])],
      ['outbox relay', () => relay.stop()],
      ['event bus', () => bus.close()],
      ['database', () => prisma.$disconnect()],
      ['redis', () => redis.quit()],
    ]);
  } catch (err) {
    exitOnStartupFailure(logger, err);
  }
}

void main();
