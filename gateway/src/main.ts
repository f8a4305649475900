import { contracts, internal, ServiceEvents } from '@confab/events';
import { listen, runProcess, ServiceClient } from '@confab/http';
import { IdentitySigner, type UserIdentity } from '@confab/identity';
import { openRedis } from '@confab/runtime';
import { buildGateway } from './app.js';
import { Authenticator, refusal } from './auth.js';
import { loadConfig } from './config.js';
import { ApiDocs } from './docs.js';
import { SessionStore } from './sessions.js';

runProcess('gateway', loadConfig, async (config, log) => {
  // Auto-pipelining: the lookups of requests that arrive together leave in one write (docs/architecture.md, "The
  // gateway"), so a busy gateway makes one Redis round trip per batch of requests, not per request.
  const redis = openRedis(config.redis, log, { enableAutoPipelining: true });
  const settingsUrl = config.services.settings!;
  const settingsClient = new ServiceClient({
    caller: 'gateway',
    baseUrl: settingsUrl,
    secret: config.internalSecret,
  });

  // Cached credentials are dropped when the user they belong to changes in a way that matters for access.
  const events = new ServiceEvents(config, log);
  const { bus } = events;
  const authenticator = new Authenticator(redis, {
    prefix: config.redis.prefix,
    cacheTtlSeconds: config.authCacheTtlSeconds,
    perUserPerMinute: config.rateLimit.perUserPerMinute,
    perIpPerMinute: config.rateLimit.perIpPerMinute,
    externalContentPerIpPerMinute: config.rateLimit.externalContentPerIpPerMinute,
    async verify(credentials) {
      const answer = await settingsClient.request('POST', '/authenticate', {
        // No email: a webhook's api_key alone names the user.
        body:
          credentials.email === null
            ? { api_key: credentials.apiKey, host: credentials.host }
            : { email: credentials.email, api_key: credentials.apiKey, host: credentials.host },
      });
      const identity = answer.body.identity as UserIdentity | undefined;
      if (answer.status !== 200 || !identity) throw refusal(answer.status, answer.body);
      return identity;
    },
    // A user's own change to their account (deactivation, role, key) counts before this gateway has heard of it.
    mayBeStale: {
      mark: () => bus.progress(),
      stale: (events, mark) => bus.unhandled(events).length > 0 || bus.handledSince(events, mark),
    },
  });

  const sessions = new SessionStore(redis, { prefix: config.redis.prefix, ttlSeconds: config.sessionTtlSeconds });
  const forget = async (userId: number) => authenticator.forgetUser(userId);
  const endSessions = async (userId: number, eventId: string) => {
    await Promise.all([authenticator.forgetUser(userId), sessions.endAllOf(userId, eventId)]);
  };
  bus
    .consumer('gateway.auth-cache')
    .on(contracts.userDeactivated, (e) => endSessions(e.payload.user.user_id, e.event_id))
    .on(contracts.userReactivated, (e) => forget(e.payload.user.user_id))
    .on(contracts.userRoleChanged, (e) => forget(e.payload.user.user_id))
    .on(contracts.userUpdated, (e) => forget(e.payload.user.user_id))
    .on(contracts.userApiKeyChanged, (e) => endSessions(e.payload.user_id, e.event_id))
    .on(contracts.userPasswordChanged, (e) => endSessions(e.payload.user_id, e.event_id));
  await events.start();

  const app = buildGateway({
    docs: new ApiDocs(config.services, config.internalSecret, '0.1.0', log),
    config,
    logger: log,
    authenticator,
    signer: new IdentitySigner(config.internalSecret),
    sessions,
    redeemLoginToken: (token, host) => settingsClient.send(internal.endpoints.redeemLoginToken, { token, host }),
    webDir: config.webDir,
    readiness: async () => ({
      redis: await redis.ping().then(
        () => true,
        () => false,
      ),
      broker: bus.isConnected(),
    }),
  });
  const server = await listen(app, config.port, config.bindHost);
  log.info({ host: config.bindHost, port: server.port, services: config.services }, 'gateway listening');
  return [
    ['http', () => server.close()],
    ...events.shutdown,
    ['redis', () => redis.quit().catch(() => redis.disconnect())],
  ];
});
