import { p, route } from '@confab/http';
import type { PushDeps } from '../deps.js';
import { addToken, removeToken } from '../domain/tokens.js';

/**
 * Legacy (not end-to-end-encrypted) push tokens, deprecated but used by Zulip's mobile apps: APNs under Zulip's path
 * and docs/api.md's `pushservice_device_token`, FCM under `android_gcm_reg_id`.
 */
export function deviceTokenRoutes(deps: PushDeps) {
  const apns = (path: string) => [
    route({
      method: 'POST',
      path,
      auth: 'human',
      params: { appid: p.string(), token: p.string() },
      async handler({ identity, params }) {
        await addToken(deps.repo, identity, 'apns', params.token, params.appid);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path,
      auth: 'human',
      params: { token: p.string() },
      async handler({ identity, params }) {
        await removeToken(deps.repo, identity, 'apns', params.token);
        return {};
      },
    }),
  ];
  return [
    ...apns('/users/me/apns_device_token'),
    ...apns('/users/me/pushservice_device_token'),
    route({
      method: 'POST',
      path: '/users/me/android_gcm_reg_id',
      auth: 'human',
      params: { token: p.string() },
      async handler({ identity, params }) {
        await addToken(deps.repo, identity, 'fcm', params.token, null);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/users/me/android_gcm_reg_id',
      auth: 'human',
      params: { token: p.string() },
      async handler({ identity, params }) {
        await removeToken(deps.repo, identity, 'fcm', params.token);
        return {};
      },
    }),
  ];
}
