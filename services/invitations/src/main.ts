import { listen, runProcess } from '@confab/http';
import { ServiceRuntime } from '@confab/runtime';
import { OwnersClient } from './adapters/owners-client.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { InvitationsDeps } from './deps.js';
import { registerConsumers } from './events/consumers.js';
import { PrismaInviteRepository } from './repositories/invites.repository.js';
import { createPrisma } from './repositories/prisma.js';

runProcess('invitations', loadConfig, async (config, logger) => {
  const runtime = new ServiceRuntime(config, logger);
  const prisma = runtime.database(createPrisma);
  const events = runtime.publisher();
  const repo = new PrismaInviteRepository(prisma, events.kick);
  const applied = events.causalGate(prisma, config.causalWaitMs);
  const deps: InvitationsDeps = {
    config,
    logger,
    repo,
    bus: events.bus,
    owners: new OwnersClient({ urls: config.urls, secret: config.internalSecret, joinWaitMs: config.joinWaitMs }),
    verifier: runtime.verifier,
    causal: { caughtUp: async (identity) => (await applied(identity.causal)).caughtUp },
  };
  registerConsumers(events.bus, repo);
  await events.start();
  const server = await listen(buildApp(deps), config.port, config.bindHost);
  logger.info({ port: server.port }, 'invitations service listening');
  return [['http', () => server.close()], ...runtime.shutdown()];
});
