import type { Logger } from '@confab/logging';
import { sealForDevice } from '../domain/sealing.js';
import type { PushDevice, TestFailure, TestOutcome } from '../domain/types.js';
import type { RelayClient } from '../relay/client.js';
import type { RelayFailure } from '../relay/protocol.js';
import type { PushRepository } from '../repositories/push.repository.js';
import type { JobOf, TestJobData } from './catalog.js';

export interface TestJobDeps {
  repo: PushRepository;
  relay: RelayClient;
  logger: Logger;
}

/** What the device decrypts: Zulip's test notification, with our realm id in place of its realm URL. */
export function testPayload(device: PushDevice, data: TestJobData, now: Date): Record<string, unknown> {
  return {
    type: 'test',
    user_id: data.userId,
    realm_id: data.realmId,
    push_account_id: device.pushAccountId,
    time: Math.floor(now.getTime() / 1000),
  };
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
  const devices = (await deps.repo.devicesByIds(data.userId, data.deviceIds)).filter(
    (d) => d.status === 'active' && d.relayDeviceId !== null,
  );
  if (devices.length === 0) return { result: 'NO_ACTIVE_PUSH_DEVICE' };
  if (!deps.relay.configured) return { result: 'ADMIN_ACTION_REQUIRED' };

  const delivered = new Set(data.delivered ?? []);
  let saving = Promise.resolve();
  const remember = (deviceId: number) => {
    delivered.add(deviceId);
    const snapshot = { ...data, delivered: [...delivered] };
    saving = saving.then(() =>
      job
        .updateData(snapshot)
        .catch((err: unknown) => deps.logger.warn({ err, job_id: job.id }, 'could not record delivery')),
    );
    return saving;
  };

  const now = new Date();
  const failures = await Promise.all(
    devices.map(async (device): Promise<RelayFailure | null> => {
      if (delivered.has(device.id)) return null;
      const encrypted = await sealForDevice(device.pushPublicKey, testPayload(device, data, now));
      const result = await deps.relay.notify(
        {
          device_id: device.relayDeviceId!,
          push_account_id: device.pushAccountId,
          encrypted_data: encrypted,
          priority: 'high',
        },
        { idempotencyKey: `${job.id}:${device.id}`, deadline: data.deadline },
      );
      if (!result.ok) {
        deps.logger.warn(
          { device_id: device.id, failure: result.failure, detail: result.detail },
          'test notification not sent',
        );
        return result.failure;
      }
      await remember(device.id);
      return null;
    }),
  );
  const worst = failures.reduce<RelayFailure | null>(
    (a, b) => (b !== null && (a === null || SEVERITY[b] > SEVERITY[a]) ? b : a),
    null,
  );
  return worst === null ? { result: 'sent', devices: devices.length } : { result: OUTCOME[worst] };
}
