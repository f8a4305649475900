import { causalGate, EventBus, processedEvents } from '@confab/events';
import { closeOnSignals, exitOnStartupFailure, listen } from '@confab/http';
import { IdentityVerifier } from '@confab/identity';
import { createLogger, type Logger } from '@confab/logging';
import { OwnersClient } from './adapters/owners-client.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { InvitationsDeps } from './deps.js';
import { registerConsumers } from './events/consumers.js';
import { PrismaInviteRepository } from './repositories/invites.repository.js';
import { createPrisma } from './repositories/prisma.js';

async function main(): Promise<void> {
  let logger: Logger | undefined;
  try {
    const config = loadConfig();
    logger = createLogger({ name: 'invitations', level: config.logLevel });
    const prisma = createPrisma(config.db.url, config.db.poolSize);
    const bus = new EventBus({
      url: config.amqp.url,
      exchange: config.amqp.exchange,
      logger,
      queueExpiresMs: config.queueExpiresMs,
    });
    const repo = new PrismaInviteRepository(prisma);
    const applied = causalGate({
      bus,
      processedElsewhere: (ids) => processedEvents(prisma, ids),
      timeoutMs: config.causalWaitMs,
    });
    const deps: InvitationsDeps = {
      config,
      logger,
      repo,
      bus,
      owners: new OwnersClient({ urls: config.urls, secret: config.internalSecret, joinWaitMs: config.joinWaitMs }),
      verifier: new IdentityVerifier(config.internalSecret),
      causal: { caughtUp: async (identity) => (await applied(identity.causal)).caughtUp },
    };
    registerConsumers(bus, repo);
    await bus.start();
    const server = await listen(buildApp(deps), config.port);
    logger.info({ port: server.port }, 'invitations service listening');
    closeOnSignals(logger, [
      ['http', () => server.close()],
      ['event bus', () => bus.close()],
      ['database', () => prisma.$disconnect()],
    ]);
  } catch (err) {
    exitOnStartupFailure(logger, err);
  }
}

void main();
