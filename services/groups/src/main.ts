import { CausalLog, ServiceEvents } from '@confab/events';
import { listen, runProcess } from '@confab/http';
import { IdentityVerifier } from '@confab/identity';
import { openRedis } from '@confab/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { GroupsDeps } from './deps.js';
import { promoteFullMembers } from './domain/sync.js';
import { startBackfill } from './events/backfill.js';
import { registerConsumers } from './events/consumers.js';
import { PrismaGroupsDatabase } from './repositories/groups-database.js';
import { createPrisma } from './repositories/prisma.js';

runProcess('groups', loadConfig, async (config, logger) => {
  const prisma = createPrisma(config.db.url, config.db.poolSize);
  const events = ServiceEvents.withOutbox(config, logger);
  const { bus, relay } = events;
  const db = new PrismaGroupsDatabase(prisma, events.kick);
  const redis = openRedis(config.redis.url, logger);
  const causalLog = new CausalLog(redis, config.redis.prefix);
  const applied = events.causalGate(prisma, config.causalWaitMs);
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
  await events.start();
  const backfill = startBackfill(db, config.settingsUrl, config.internalSecret, logger);
  const sweep = setInterval(() => {
    promoteFullMembers(db).catch((err: unknown) => logger.warn({ err }, 'promoting full members failed'));
  }, config.fullMemberSweepSeconds * 1000);
  sweep.unref();
  const server = await listen(buildApp(deps), config.port);
  logger.info({ port: server.port }, 'groups service listening');
  return [
    ['http', () => server.close()],
    [
      'workers',
      async () => {
        clearInterval(sweep);
        backfill.stop();
      },
    ],
    ...events.shutdown,
    ['database', () => prisma.$disconnect()],
    ['redis', () => redis.quit()],
  ];
});
