import { p, route } from '@confab/http';
import type { PushDeps } from '../deps.js';
import { deviceRecord, registerDevice } from '../domain/devices.js';
import { sendTestNotification } from '../domain/test_notifications.js';

const accountId = () => p.int({ min: 0, max: Number.MAX_SAFE_INTEGER });

/** End-to-end-encrypted push: device registration (feature level 406), the device list, test notifications. */
export function mobilePushRoutes(deps: PushDeps) {
  const relayConfigured = deps.config.relay.url !== '';
  return [
    route({
      method: 'POST',
      path: '/mobile_push/register',
      auth: 'human',
      params: {
        token_kind: p.enum('fcm', 'apns'),
        push_account_id: accountId(),
        push_public_key: p.string(),
        bouncer_public_key: p.string(),
        encrypted_push_registration: p.string(),
      },
      async handler({ identity, params, requestId }) {
        await registerDevice({ store: deps.repo, scheduler: deps.scheduler, relayConfigured, requestId }, identity, {
          tokenKind: params.token_kind,
          pushAccountId: params.push_account_id,
          pushPublicKey: params.push_public_key,
          bouncerPublicKey: params.bouncer_public_key,
          encryptedPushRegistration: params.encrypted_push_registration,
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
