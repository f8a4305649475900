import { listen, runProcess, ServiceClient } from '@confab/http';
import { IdentityVerifier } from '@confab/identity';
import { MessagingClient } from './adapters/messaging-client.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

runProcess('integrations', loadConfig, async (config, logger) => {
  const messaging = new MessagingClient(
    new ServiceClient({
      caller: 'integrations',
      baseUrl: config.messagingUrl,
      secret: config.internalSecret,
      timeoutMs: config.messagingTimeoutMs,
    }),
  );
  const app = buildApp({
    config,
    logger,
    verifier: new IdentityVerifier([config.internalSecret, config.internalSecretPrevious]),
    messaging,
    supportEmail: config.supportEmail,
  });
  const server = await listen(app, config.port, config.bindHost);
  logger.info({ port: server.port }, 'integrations service listening');
  return [['http', () => server.close()]];
});
