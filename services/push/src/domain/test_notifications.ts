import type { UserIdentity } from '@confab/identity';
import {
  adminActionRequired,
  failedToConnectBouncer,
  internalServerErrorOnBouncer,
  noActivePushDevice,
} from './errors.js';
import type { PushStore } from './store.js';
import type { TestNotificationDispatcher, TestOutcome } from './types.js';

export interface TestNotificationContext {
  store: PushStore;
  dispatcher: TestNotificationDispatcher;
  relayConfigured: boolean;
  requestId: string;
}

/**
 * POST /mobile_push/e2ee/test_notification: to one device (device_id, or the push_account_id of feature level 420)
 * or to all the user's devices the relay has registered. The job does the sending; this waits for its outcome.
 */
export async function sendTestNotification(
  ctx: TestNotificationContext,
  user: UserIdentity,
  target: { deviceId?: number | undefined; pushAccountId?: number | undefined },
): Promise<void> {
  const only =
    target.deviceId !== undefined
      ? { deviceId: target.deviceId }
      : target.pushAccountId !== undefined
        ? { pushAccountId: target.pushAccountId }
        : {};
  const devices = await ctx.store.activeDevices(user.userId, only);
  if (devices.length === 0) throw noActivePushDevice();
  if (!ctx.relayConfigured) throw adminActionRequired();
  const outcome = await ctx.dispatcher.dispatch({
    userId: user.userId,
    realmId: user.realmId,
    deviceIds: devices.map((d) => d.id),
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
