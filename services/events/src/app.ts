import { createHttpApp, type HttpApp } from '@confab/http';
import type { EventsDeps } from './deps.js';
import { eventRoutes } from './routes/events.routes.js';
import { internalRoutes } from './routes/internal.routes.js';

/** The events service's HTTP app, without listening (tests build it with their own deps). */
export function buildApp(deps: EventsDeps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    verifier: deps.verifier,
    routes: eventRoutes(deps),
    internalRoutes: internalRoutes(deps),
    readiness: async () => ({
      redis: await deps.redis.ping().then(
        () => true,
        () => false,
      ),
      broker: deps.bus.isConnected(),
    }),
  });
}
