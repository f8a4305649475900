import { CausalLog, causalGate, EventBus, OutboxRelay, processedEvents } from '@confab/events';
import { closeOnSignals, exitOnStartupFailure, listen } from '@confab/http';
import { IdentityVerifier } from '@confab/identity';
import { createLogger, type Logger } from '@confab/logging';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { GroupsDeps } from './deps.js';
import { promoteFullMembers } from './domain/sync.js';
import { startBackfill } from './events/backfill.js';
import { registerConsumers } from './events/consumers.js';
import { PrismaGroupsDatabase } from './repositories/groups-database.js';
import { createPrisma } from './repositories/prisma.js';

async function main(): Promise<void> {
  let logger: Logger | undefined;
  try {
    const config = loadConfig();
    logger = createLogger({ name: 'groups', level: config.logLevel });
    const log = logger;
    const prisma = createPrisma(config.db.url, config.db.poolSize);
    const bus = new EventBus({
      url: config.amqp.url,
      exchange: config.amqp.exchange,
      logger,
      queueExpiresMs: config.queueExpiresMs,
    });
    const relay = new OutboxRelay({ databaseUrl: config.db.url, bus, logger, pollIntervalMs: config.outboxPollMs });
    const db = new PrismaGroupsDatabase(prisma, () => relay.kick());
    const redis = new Redis(config.redis.url, { maxRetriesPerRequest: 2 });
    redis.on('error', (err: Error) => log.warn({ err: err.message }, 'redis error'));
    const causalLog = new CausalLog(redis, config.redis.prefix);
    const applied = causalGate({
      bus,
      processedElsewhere: (ids) => processedEvents(prisma, ids),
      timeoutMs: config.causalWaitMs,
    });
    const deps: GroupsDeps = {
      config,
      logger,
      db,
      bus,
      relay,
      verifier: new IdentityVerifier(config.internalSecret),
      causal: {
        record: (userId, events) => causalLog.record(userId, events),
        caughtUp: async (identity) => (await applied(identity.causal)).caughtUp,
      },
    };
    registerConsumers(bus, db);
    await bus.start();
    relay.start();
    const backfill = startBackfill(db, config.settingsUrl, config.internalSecret, logger);
    const sweep = setInterval(() => {
      promoteFullMembers(db).catch((err: unknown) => log.warn({ err }, 'promoting full members failed'));
    }, config.fullMemberSweepSeconds * 1000);
    sweep.unref();
    const server = await listen(buildApp(deps), config.port);
    logger.info({ port: server.port }, 'groups service listening');
    closeOnSignals(logger, [
      ['http', () => server.close()],
      [
        'workers',
        async () => {
          clearInterval(sweep);
          backfill.stop();
        },
      ],
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
