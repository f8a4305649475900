import { missingArgument } from '@confab/errors';
import { p, route } from '@confab/http';
import type { PushDeps } from '../deps.js';
import { registerClientDevice, registerPushDevice, removeClientDevice } from '../domain/client-devices.js';
import { deviceRecord, registerDevice } from '../domain/devices.js';
import { sendTestNotification } from '../domain/test_notifications.js';
import { testLegacyTokens } from '../domain/tokens.js';

const accountId = () => p.int({ min: 0, max: Number.MAX_SAFE_INTEGER });

/** A parameter the form of the request in use needs. */
function required<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw missingArgument(name);
  return value;
}

/** A group of parameters, when every one of them was sent. */
function whole<T extends Record<string, unknown>>(group: T): { [K in keyof T]: Exclude<T[K], undefined> } | null {
  return Object.values(group).every((v) => v !== undefined) ? (group as never) : null;
}

/**
 * End-to-end-encrypted push: client devices and their registration (feature levels 468 and 470), the earlier
 * device registration by push account (level 406), the device list, test notifications.
 */
export function mobilePushRoutes(deps: PushDeps) {
  const relayConfigured = deps.config.relay.url !== '';
  const context = (requestId: string) => ({ store: deps.repo, scheduler: deps.scheduler, relayConfigured, requestId });
  return [
    route({
      method: 'POST',
      path: '/register_client_device',
      auth: 'user',
      async handler({ identity, requestId }) {
        return { device_id: await registerClientDevice(context(requestId), identity) };
      },
    }),
    route({
      method: 'POST',
      path: '/remove_client_device',
      auth: 'user',
      params: { device_id: p.int() },
      async handler({ identity, params, requestId }) {
        await removeClientDevice(context(requestId), identity, params.device_id);
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/mobile_push/register',
      auth: 'human',
      params: {
        // Feature level 468: the client device, and its key and/or its token.
        device_id: p.int().optional(),
        push_key_id: p.int({ min: 0, max: 2 ** 32 - 1 }).optional(),
        push_key: p.string().optional(),
        token_kind: p.enum('fcm', 'apns').optional(),
        token_id: p.string().optional(),
        bouncer_public_key: p.string().optional(),
        encrypted_push_registration: p.string().optional(),
        // Feature level 406: a push account and the device's public key.
        push_account_id: accountId().optional(),
        push_public_key: p.string().optional(),
      },
      async handler({ identity, params, requestId }) {
        if (params.device_id !== undefined) {
          const key = whole({ pushKeyId: params.push_key_id, pushKey: params.push_key });
          const token = whole({
            tokenKind: params.token_kind,
            tokenId: params.token_id,
            bouncerPublicKey: params.bouncer_public_key,
            encryptedPushRegistration: params.encrypted_push_registration,
          });
          await registerPushDevice(context(requestId), identity, { deviceId: params.device_id, key, token });
          return {};
        }
        await registerDevice(context(requestId), identity, {
          tokenKind: required(params.token_kind, 'token_kind'),
          pushAccountId: required(params.push_account_id, 'push_account_id'),
          pushPublicKey: required(params.push_public_key, 'push_public_key'),
          bouncerPublicKey: required(params.bouncer_public_key, 'bouncer_public_key'),
          encryptedPushRegistration: required(params.encrypted_push_registration, 'encrypted_push_registration'),
        });
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/mobile_push/devices',
      auth: 'human',
      async handler({ identity }) {
        const devices = await deps.repo.devicesOfUser(identity.userId);
        return { devices: devices.map(deviceRecord) };
      },
    }),
    route({
      method: 'POST',
      path: '/mobile_push/test_notification',
      auth: 'human',
      params: { token: p.string().optional() },
      async handler({ identity, params }) {
        await testLegacyTokens(deps.repo, identity, params.token);
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/mobile_push/e2ee/test_notification',
      auth: 'human',
      // device_id since feature level 468; push_account_id is what level-420 clients send.
      params: { device_id: p.int().optional(), push_account_id: accountId().optional() },
      async handler({ identity, params, requestId }) {
        await sendTestNotification(
          { store: deps.repo, dispatcher: deps.dispatcher, relayConfigured, requestId },
          identity,
          {
            deviceId: params.device_id,
            pushAccountId: params.push_account_id,
          },
        );
        return {};
      },
    }),
  ];
}
