import { createHttpApp, type HttpApp } from '@confab/http';
import type { SettingsDeps } from './deps.js';
import { apiKeyRoutes } from './routes/api_keys.routes.js';
import { callRoutes } from './routes/calls.routes.js';
import { internalRoutes } from './routes/internal.routes.js';
import { invitationInternalRoutes } from './routes/invitations.internal.routes.js';
import { navigationViewRoutes } from './routes/navigation_views.routes.js';
import { pageRoutes } from './routes/pages.routes.js';
import { personalRoutes } from './routes/personal.routes.js';
import { presenceRoutes } from './routes/presence.routes.js';
import { realmRoutes } from './routes/realm.routes.js';
import { botRoutes } from './routes/bots.routes.js';
import { serverSettingsRoutes } from './routes/server_settings.routes.js';
import { settingsRoutes } from './routes/settings.routes.js';
import { userRoutes } from './routes/users.routes.js';
import { ssoInternalRoutes, ssoPageRoutes } from './routes/sso.routes.js';
import { scimRoutes } from './routes/scim.routes.js';

/** The settings service's HTTP app, without listening (tests build it with their own deps). */
export function buildApp(deps: SettingsDeps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    verifier: deps.verifier,
    routes: [
      ...serverSettingsRoutes(deps),
      ...apiKeyRoutes(deps),
      ...userRoutes(deps),
      ...settingsRoutes(deps),
      ...navigationViewRoutes(deps),
      ...callRoutes(deps),
      ...presenceRoutes(deps),
      ...personalRoutes(deps),
      ...realmRoutes(deps),
      ...botRoutes(deps),
    ],
    internalRoutes: [...internalRoutes(deps), ...invitationInternalRoutes(deps), ...ssoInternalRoutes(deps)],
    pageRoutes: [...pageRoutes(deps), ...ssoPageRoutes(deps), ...scimRoutes(deps)],
    causal: deps.causal,
    readiness: async () => ({
      database: await deps.db.ping(),
      redis: await deps.redis.ping().then(
        () => true,
        () => false,
      ),
      broker: deps.bus.isConnected(),
    }),
  });
}
