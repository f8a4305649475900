import { closeOnSignals, exitOnStartupFailure, listen } from '@confab/http';
import { IdentityVerifier } from '@confab/identity';
import { createLogger, type Logger } from '@confab/logging';
import { OwnersClient } from './adapters/owners-client.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { InvitationsDeps } from './deps.js';
import { PrismaInviteRepository } from './repositories/invites.repository.js';
import { createPrisma } from './repositories/prisma.js';

async function main(): Promise<void> {
  let logger: Logger | undefined;
  try {
    const config = loadConfig();
    logger = createLogger({ name: 'invitations', level: config.logLevel });
    const prisma = createPrisma(config.db.url, config.db.poolSize);
    const deps: InvitationsDeps = {
      config,
      logger,
      repo: new PrismaInviteRepository(prisma),
      owners: new OwnersClient({ urls: config.urls, secret: config.internalSecret, joinWaitMs: config.joinWaitMs }),
      verifier: new IdentityVerifier(config.internalSecret),
    };
    const server = await listen(buildApp(deps), config.port);
    logger.info({ port: server.port }, 'invitations service listening');
    closeOnSignals(logger, [
      ['http', () => server.close()],
      ['database', () => prisma.$disconnect()],
    ]);
  } catch (err) {
    exitOnStartupFailure(logger, err);
  }
}

void main();
