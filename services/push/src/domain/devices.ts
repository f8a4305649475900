import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import { pushServiceNotConfigured } from './errors.js';
import { isValidPublicKey } from './sealing.js';
import type { PushStore } from './store.js';
import type { PushDevice, RegistrationScheduler, TokenKind } from './types.js';

export interface DeviceContext {
  store: PushStore;
  scheduler: RegistrationScheduler;
  relayConfigured: boolean;
  requestId: string;
}

export interface DeviceRegistrationInput {
  tokenKind: TokenKind;
  pushAccountId: number;
  pushPublicKey: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

export function deviceUpdatedEvent(device: PushDevice, requestId: string | null) {
  return outboxRecord(
    contracts.pushDeviceUpdated,
    {
      user_id: device.userId,
      realm_id: device.realmId,
      device_id: device.id,
      push_account_id: device.pushAccountId,
      status: device.status,
      error_code: device.errorCode,
    },
    { realmId: device.realmId, requestId },
  );
}

/**
 * POST /mobile_push/register: records the device as pending and queues its registration at the relay. Registering
 * the same push account again is a no-op unless the earlier registration failed (Zulip 11's idempotency rule).
 */
export async function registerDevice(
  ctx: DeviceContext,
  user: UserIdentity,
  input: DeviceRegistrationInput,
): Promise<void> {
  if (!ctx.relayConfigured) throw pushServiceNotConfigured();
  if (!isValidPublicKey(input.pushPublicKey)) throw invalid('Invalid push_public_key');
  const existing = await ctx.store.deviceByAccount(user.userId, input.pushAccountId);
  if (existing && existing.status !== 'failed') return;
  const device = await ctx.store.savePendingDevice(
    { userId: user.userId, realmId: user.realmId, ...input },
    (saved) => [deviceUpdatedEvent(saved, ctx.requestId)],
  );
  // A lost schedule is repaired by the worker's sweep of stale pending devices.
  await ctx.scheduler.schedule(device, ctx.requestId);
}

/** A device as GET /mobile_push/devices lists it. */
export function deviceRecord(device: PushDevice): Record<string, unknown> {
  return {
    device_id: device.id,
    push_account_id: device.pushAccountId,
    token_kind: device.tokenKind,
    status: device.status,
    error_code: device.errorCode,
    date_registered: Math.floor(device.createdAt.getTime() / 1000),
  };
}

/** Zulip's `push_devices` of POST /register: status by push account id. */
export function pushDevicesMap(
  devices: readonly PushDevice[],
): Record<string, { status: string; error_code: string | null }> {
  return Object.fromEntries(
    devices.map((d) => [String(d.pushAccountId), { status: d.status, error_code: d.errorCode }]),
  );
}
