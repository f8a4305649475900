import type { UserIdentity } from '@confab/identity';
import {
  adminActionRequired,
  failedToConnectBouncer,
  internalServerErrorOnBouncer,
  noActivePushDevice,
} from './errors.js';
import type { PushStore } from './store.js';
import type { ClientDevice, TestNotificationDispatcher, TestOutcome } from './types.js';

/** A client device the relay can deliver to: its token registered, and a key to encrypt with. */
export function hasActiveToken(device: ClientDevice): boolean {
  return device.pushTokenId !== null && device.relayDeviceId !== null && device.pushKey !== null;
}

export interface TestNotificationContext {
  store: PushStore;
  dispatcher: TestNotificationDispatcher;
  relayConfigured: boolean;
  requestId: string;
}

/**
 * POST /mobile_push/e2ee/test_notification: to one device (a client device's device_id, feature level 468, or the
 * push_account_id of a push device, level 420) or to all the user's devices the relay has registered. The job does
 * the sending; this waits for its outcome.
 */
export async function sendTestNotification(
  ctx: TestNotificationContext,
  user: UserIdentity,
  target: { deviceId?: number | undefined; pushAccountId?: number | undefined },
): Promise<void> {
  const { deviceId, pushAccountId } = target;
  const devices =
    deviceId !== undefined
      ? []
      : await ctx.store.activeDevices(user.userId, pushAccountId !== undefined ? { pushAccountId } : {});
  const clients =
    pushAccountId !== undefined && deviceId === undefined
      ? []
      : (await ctx.store.clientDevicesOf(user.userId)).filter(
          (d) => hasActiveToken(d) && (deviceId === undefined || d.id === deviceId),
        );
  if (devices.length + clients.length === 0) throw noActivePushDevice();
  if (!ctx.relayConfigured) throw adminActionRequired();
  const outcome = await ctx.dispatcher.dispatch({
    userId: user.userId,
    realmId: user.realmId,
    deviceIds: devices.map((d) => d.id),
    clientDeviceIds: clients.map((d) => d.id),
    requestId: ctx.requestId,
  });
  throwUnlessSent(outcome);
}

export function throwUnlessSent(outcome: TestOutcome): void {
  switch (outcome.result) {
    case 'sent':
      return;
    case 'NO_ACTIVE_PUSH_DEVICE':
      throw noActivePushDevice();
    case 'ADMIN_ACTION_REQUIRED':
      throw adminActionRequired();
    case 'INTERNAL_SERVER_ERROR_ON_BOUNCER':
      throw internalServerErrorOnBouncer();
    case 'FAILED_TO_CONNECT_BOUNCER':
      throw failedToConnectBouncer();
  }
}
