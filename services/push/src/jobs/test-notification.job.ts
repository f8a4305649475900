import type { Logger } from '@confab/logging';
import { encryptWithPushKey, sealForDevice } from '../domain/sealing.js';
import { hasActiveToken } from '../domain/test_notifications.js';
import type { TestFailure, TestOutcome } from '../domain/types.js';
import type { RelayClient } from '../relay/client.js';
import type { NotifyRequest, RelayFailure } from '../relay/protocol.js';
import type { PushRepository } from '../repositories/push.repository.js';
import type { JobOf, TestJobData } from './catalog.js';

export interface TestJobDeps {
  repo: PushRepository;
  relay: RelayClient;
  logger: Logger;
}

/**
 * What the device decrypts: Zulip's test notification, with our realm id in place of its realm URL; a push device
 * (feature level 406) also finds its push account id in it.
 */
export function testPayload(data: TestJobData, now: Date, pushAccountId?: number): Record<string, unknown> {
  return {
    type: 'test',
    user_id: data.userId,
    realm_id: data.realmId,
    ...(pushAccountId === undefined ? {} : { push_account_id: pushAccountId }),
    time: Math.floor(now.getTime() / 1000),
  };
}

/** One device to notify: its key in `delivered`, its id in logs, and the relay request for it. */
interface Target {
  key: number | string;
  deviceId: number;
  request: () => Promise<NotifyRequest>;
}

const SEVERITY: Record<RelayFailure, number> = { admin: 3, rejected: 3, server: 2, network: 1 };
const OUTCOME: Record<RelayFailure, TestFailure> = {
  admin: 'ADMIN_ACTION_REQUIRED',
  rejected: 'ADMIN_ACTION_REQUIRED',
  server: 'INTERNAL_SERVER_ERROR_ON_BOUNCER',
  network: 'FAILED_TO_CONNECT_BOUNCER',
};

/**
 * Seals a test payload for each device and hands it to the relay, each device with its own idempotency key
 * (job id + device id), so neither a retry after a lost answer nor a re-run of the job notifies a device twice.
 * Reports the most serious failure, if any.
 */
export async function runTestNotification(deps: TestJobDeps, job: JobOf<'push-test'>): Promise<TestOutcome> {
  const data = job.data;
  // The request stopped waiting and answered already; sending now would contradict that answer.
  if (Date.now() >= data.deadline) return { result: 'FAILED_TO_CONNECT_BOUNCER' };
  const now = new Date();
  const devices = (await deps.repo.devicesByIds(data.userId, data.deviceIds)).filter(
    (d) => d.status === 'active' && d.relayDeviceId !== null,
  );
  const clientIds = new Set(data.clientDeviceIds ?? []);
  const clients = (clientIds.size ? await deps.repo.clientDevicesOf(data.userId) : []).filter(
    (d) => clientIds.has(d.id) && hasActiveToken(d),
  );
  const targets: Target[] = [
    ...devices.map((device) => ({
      key: device.id,
      deviceId: device.id,
      request: async (): Promise<NotifyRequest> => ({
        device_id: device.relayDeviceId!,
        push_account_id: device.pushAccountId,
        encrypted_data: await sealForDevice(device.pushPublicKey, testPayload(data, now, device.pushAccountId)),
        priority: 'high',
      }),
    })),
    ...clients.map((device) => ({
      key: `c${device.id}`,
      deviceId: device.id,
      request: async (): Promise<NotifyRequest> => ({
        device_id: device.relayDeviceId!,
        push_key_id: device.pushKeyId!,
        encrypted_data: await encryptWithPushKey(device.pushKey!, testPayload(data, now)),
        priority: 'high',
      }),
    })),
  ];
  if (targets.length === 0) return { result: 'NO_ACTIVE_PUSH_DEVICE' };
  if (!deps.relay.configured) return { result: 'ADMIN_ACTION_REQUIRED' };

  const delivered = [...(data.delivered ?? [])];
  let saving = Promise.resolve();
  const remember = (key: number | string) => {
    delivered.push(key);
    const snapshot = { ...data, delivered: [...delivered] };
    saving = saving.then(() =>
      job
        .updateData(snapshot)
        .catch((err: unknown) => deps.logger.warn({ err, job_id: job.id }, 'could not record delivery')),
    );
    return saving;
  };

  const failures = await Promise.all(
    targets.map(async (target): Promise<RelayFailure | null> => {
      if (delivered.includes(target.key)) return null;
      const result = await deps.relay.notify(await target.request(), {
        // A push device's key is its id alone, as before client devices existed.
        idempotencyKey: `${job.id}:${target.key}`,
        deadline: data.deadline,
      });
      if (!result.ok) {
        deps.logger.warn(
          { device_id: target.deviceId, failure: result.failure, detail: result.detail },
          'test notification not sent',
        );
        return result.failure;
      }
      await remember(target.key);
      return null;
    }),
  );
  const worst = failures.reduce<RelayFailure | null>(
    (a, b) => (b !== null && (a === null || SEVERITY[b] > SEVERITY[a]) ? b : a),
    null,
  );
  return worst === null ? { result: 'sent', devices: targets.length } : { result: OUTCOME[worst] };
}
