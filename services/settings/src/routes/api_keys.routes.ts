import { contracts } from '@confab/events';
import { p, route } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { regenerateBotApiKey, regenerateOwnApiKey } from '../domain/api-keys.js';
import { fetchApiKeyByJwt, fetchApiKeyByPassword, fetchApiKeyForDevelopment } from '../domain/auth.js';
import { realmForHost } from '../domain/directory.js';
import { apiUserRecord } from '../domain/users.js';
import { directoryLoginOf } from '../sso-wiring.js';

export function apiKeyRoutes(deps: SettingsDeps) {
  const realmOf = (host: string | undefined) => realmForHost(deps.db, host, deps.config.externalUrl);
  const directory = directoryLoginOf(deps);

  return [
    route({
      method: 'POST',
      path: '/fetch_api_key',
      auth: 'public',
      params: { username: p.string(), password: p.string() },
      async handler({ params, req }) {
        const realm = await realmOf(req.headers.host);
        return fetchApiKeyByPassword(deps.db, deps.failures, realm, params.username, params.password, directory);
      },
    }),
    route({
      method: 'POST',
      path: '/jwt/fetch_api_key',
      auth: 'public',
      params: { include_profile: p.bool().default(false), token: p.string().default('') },
      async handler({ params, req }) {
        const realm = await realmOf(req.headers.host);
        const { api_key, user } = await fetchApiKeyByJwt(deps.db, realm, params.token);
        const result: Record<string, unknown> = { api_key, email: user.deliveryEmail };
        if (params.include_profile) {
          result.user = apiUserRecord(user, { clientGravatar: false, includeCustomProfileFields: false });
        }
        return result;
      },
    }),
    route({
      method: 'POST',
      path: '/dev_fetch_api_key',
      auth: 'public',
      params: { username: p.string() },
      async handler({ params, req }) {
        const realm = await realmOf(req.headers.host);
        return fetchApiKeyForDevelopment(deps.db, realm, params.username, deps.config.devEndpoints);
      },
    }),
    route({
      method: 'POST',
      path: '/users/me/api_key/regenerate',
      auth: 'human',
      async handler({ identity, requestId }) {
        const { apiKey } = await regenerateOwnApiKey(deps.db, identity, requestId);
        return { api_key: apiKey };
      },
    }),
    route({
      method: 'POST',
      path: '/bots/{bot_id:int}/api_key/regenerate',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        const { apiKey, eventId, bot } = await regenerateBotApiKey(deps.db, identity, path.bot_id, requestId);
        // The bot's old key must fail on its very next request, even through a gateway that has not yet heard of
        // the change: the bot's own causal log makes the gateway re-check a cached key (docs/architecture.md).
        await deps.causal?.record?.(bot.id, [{ type: contracts.userApiKeyChanged.type, id: eventId }]);
        return { api_key: apiKey };
      },
    }),
  ];
}
