import { createHttpApp, type HttpApp } from '@confab/http';
import type { PushDeps } from './deps.js';
import { deviceTokenRoutes } from './routes/device_tokens.routes.js';
import { internalRoutes } from './routes/internal.routes.js';
import { mobilePushRoutes } from './routes/mobile_push.routes.js';

/** The push service's HTTP app, without listening (tests build it with their own deps). */
export function buildApp(deps: PushDeps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    verifier: deps.verifier,
    routes: [...deviceTokenRoutes(deps), ...mobilePushRoutes(deps)],
    internalRoutes: internalRoutes(deps),
    readiness: async () => ({
      database: await deps.repo.ping(),
      redis: await deps.redis.ping().then(
        () => true,
        () => false,
      ),
      broker: deps.bus.isConnected(),
    }),
  });
}
