import { listen, runProcess } from '@confab/http';
import { ServiceRuntime } from '@confab/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { buildDomain } from './domain-factory.js';
import type { MessagingDeps } from './deps.js';
import { registerConsumers } from './events/consumers.js';
import { COMPLETED_IN_SQL } from './repositories/send-sql.js';
import { BullDeliveryQueue } from './jobs/scheduled-delivery.js';

runProcess('messaging', loadConfig, async (config, logger) => {
  const runtime = new ServiceRuntime(config, logger);
  const events = runtime.publisher(COMPLETED_IN_SQL);
  const { domain, store, readModel, directory, prisma, backfill, close } = buildDomain(config, logger, events.kick);
  runtime.closeWithDatabase('database', close);
  registerConsumers({ bus: events.bus, store, readModel, directory });
  const deliveries = BullDeliveryQueue.open(config.redis.url, config.redis.prefix, logger);
  const applied = events.causalGate(prisma, config.causalWaitMs);
  const deps: MessagingDeps = {
    config,
    logger,
    domain,
    store,
    bus: events.bus,
    relay: events.relay,
    verifier: runtime.verifier,
    deliveries,
    causal: {
      async caughtUp(identity) {
        const outcome = await applied(identity.causal);
        if (outcome.appliedElsewhere) directory.forgetPeopleOf(identity.realmId);
        return outcome.caughtUp;
      },
    },
  };
  await backfill
    .fillIfEmpty()
    .catch((err: unknown) => logger.warn({ err }, 'backfill from settings failed; events will fill the read model'));
  await events.start();
  const server = await listen(buildApp(deps), config.port);
  logger.info({ port: server.port }, 'messaging service listening');
  return [['http', () => server.close()], ['delivery queue', () => deliveries.close()], ...runtime.shutdown()];
});
