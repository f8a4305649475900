import { createHttpApp, type HttpApp } from '@confab/http';
import type { GroupsDeps } from './deps.js';
import { internalRoutes } from './routes/internal.routes.js';
import { invitationInternalRoutes } from './routes/invitations.internal.routes.js';
import { userGroupRoutes } from './routes/user_groups.routes.js';

/** The groups service's HTTP app, without listening (tests build it with their own deps). */
export function buildApp(deps: GroupsDeps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    verifier: deps.verifier,
    routes: userGroupRoutes(deps),
    internalRoutes: [...internalRoutes(deps), ...invitationInternalRoutes(deps)],
    causal: deps.causal,
    readiness: async () => ({ database: await deps.db.ping(), broker: deps.bus.isConnected() }),
  });
}
