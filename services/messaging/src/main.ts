import { causalGate, EventBus, OutboxRelay, processedEvents } from '@confab/events';
import { closeOnSignals, exitOnStartupFailure, listen } from '@confab/http';
import { IdentityVerifier } from '@confab/identity';
import { createLogger, type Logger } from '@confab/logging';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { buildDomain } from './domain-factory.js';
import type { MessagingDeps } from './deps.js';
import { registerConsumers } from './events/consumers.js';
import { BullDeliveryQueue } from './jobs/scheduled-delivery.js';

async function main(): Promise<void> {
  let logger: Logger | undefined;
  try {
    const config = loadConfig();
    logger = createLogger({ name: 'messaging', level: config.logLevel });
    const bus = new EventBus({
      url: config.amqp.url,
      exchange: config.amqp.exchange,
      logger,
      queueExpiresMs: config.queueExpiresMs,
    });
    const relay = new OutboxRelay({ databaseUrl: config.db.url, bus, logger, pollIntervalMs: config.outboxPollMs });
    const { domain, prisma, sql, backfill } = buildDomain(config, logger, () => relay.kick());
    registerConsumers({ bus, store: domain.store, readModel: domain.readModel, directory: domain.directory });
    const deliveries = BullDeliveryQueue.open(config.redis.url, config.redis.prefix, logger);
    const applied = causalGate({
      bus,
      processedElsewhere: (ids) => processedEvents(prisma, ids),
      timeoutMs: config.causalWaitMs,
    });
    const deps: MessagingDeps = {
      config,
      logger,
      domain,
      bus,
      relay,
      verifier: new IdentityVerifier(config.internalSecret),
      deliveries,
      causal: {
        async caughtUp(identity) {
          const outcome = await applied(identity.causal);
          if (outcome.appliedElsewhere) domain.directory.forgetPeopleOf(identity.realmId);
          return outcome.caughtUp;
        },
      },
    };
    await backfill
      .fillIfEmpty()
      .catch((err: unknown) => logger?.warn({ err }, 'backfill from settings failed; events will fill the read model'));
    await bus.start();
    relay.start();
    const server = await listen(buildApp(deps), config.port);
    logger.info({ port: server.port }, 'messaging service listening');
    closeOnSignals(logger, [
      ['http', () => server.close()],
      ['outbox relay', () => relay.stop()],
      ['event bus', () => bus.close()],
      ['delivery queue', () => deliveries.close()],
      ['database', () => Promise.all([prisma.$disconnect(), sql.end()])],
    ]);
  } catch (err) {
    exitOnStartupFailure(logger, err);
  }
}

void main();
