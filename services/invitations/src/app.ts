import { createHttpApp, type HttpApp } from '@confab/http';
import type { InvitationsDeps } from './deps.js';
import { internalRoutes } from './routes/internal.routes.js';
import { inviteRoutes } from './routes/invites.routes.js';
import { joinPageRoutes } from './routes/join.routes.js';

/** The invitations service's HTTP app, without listening (tests build it with their own deps). */
export function buildApp(deps: InvitationsDeps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    verifier: deps.verifier,
    routes: inviteRoutes(deps),
    internalRoutes: internalRoutes(deps),
    causal: deps.causal,
    pageRoutes: joinPageRoutes(deps),
    readiness: async () => ({ database: await deps.repo.ping(), broker: deps.bus.isConnected() }),
  });
}
