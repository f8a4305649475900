import { CausalLog } from '@confab/events';
import { listen, runProcess } from '@confab/http';
import { ServiceRuntime } from '@confab/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { GroupsDeps } from './deps.js';
import { promoteFullMembers } from './domain/sync.js';
import { startBackfill } from './events/backfill.js';
import { registerConsumers } from './events/consumers.js';
import { PrismaGroupsDatabase } from './repositories/groups-database.js';
import { createPrisma } from './repositories/prisma.js';

runProcess('groups', loadConfig, async (config, logger) => {
  const runtime = new ServiceRuntime(config, logger);
  const prisma = runtime.database(createPrisma);
  const events = runtime.publisher();
  const db = new PrismaGroupsDatabase(prisma, events.kick);
  const causalLog = new CausalLog(runtime.redis(), config.redis.prefix);
  const applied = events.causalGate(prisma, config.causalWaitMs);
  const deps: GroupsDeps = {
    config,
    logger,
    db,
    bus: events.bus,
    relay: events.relay,
    verifier: runtime.verifier,
    causal: {
      record: (userId, events) => causalLog.record(userId, events),
      caughtUp: async (identity) => (await applied(identity.causal)).caughtUp,
    },
  };
  registerConsumers(events.bus, db);
  await events.start();
  const backfill = startBackfill(db, config.settingsUrl, config.internalSecret, logger);
  const sweep = setInterval(() => {
    promoteFullMembers(db).catch((err: unknown) => logger.warn({ err }, 'promoting full members failed'));
  }, config.fullMemberSweepSeconds * 1000);
  sweep.unref();
  const server = await listen(buildApp(deps), config.port, config.bindHost);
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
    ...runtime.shutdown(),
  ];
});
