import { ServiceEvents } from '@confab/events';
import { listen, runProcess } from '@confab/http';
import { IdentityVerifier } from '@confab/identity';
import { OwnersClient } from './adapters/owners-client.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { InvitationsDeps } from './deps.js';
import { registerConsumers } from './events/consumers.js';
import { PrismaInviteRepository } from './repositories/invites.repository.js';
import { createPrisma } from './repositories/prisma.js';

runProcess('invitations', loadConfig, async (config, logger) => {
  const prisma = createPrisma(config.db.url, config.db.poolSize);
  const events = new ServiceEvents(config, logger);
  const { bus } = events;
  const repo = new PrismaInviteRepository(prisma);
  const applied = events.causalGate(prisma, config.causalWaitMs);
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
  await events.start();
  const server = await listen(buildApp(deps), config.port);
  logger.info({ port: server.port }, 'invitations service listening');
  return [['http', () => server.close()], ...events.shutdown, ['database', () => prisma.$disconnect()]];
});
