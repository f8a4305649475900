import { createHttpApp, type HttpApp } from '@confab/http';
import type { IdentityVerifier } from '@confab/identity';
import type { IntegrationsConfig } from './config.js';
import type { WebhookDeps } from './domain/webhooks.js';
import { externalRoutes } from './routes/external.routes.js';

export interface IntegrationsDeps extends WebhookDeps {
  config: IntegrationsConfig;
  verifier: IdentityVerifier;
}

/** The integrations service's HTTP app, without listening (tests build it with their own deps). */
export function buildApp(deps: IntegrationsDeps): HttpApp {
  return createHttpApp({
    logger: deps.logger,
    verifier: deps.verifier,
    routes: externalRoutes(deps),
    bodyLimits: { maxFieldBytes: deps.config.maxBodyBytes, maxFileBytes: deps.config.maxBodyBytes },
    // Stateless: nothing of its own to be ready for; messaging's refusals answer per request.
    readiness: async () => ({}),
  });
}
