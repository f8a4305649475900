import type { Logger } from '@confab/logging';
import { deviceUpdatedEvent } from '../domain/devices.js';
import type { RelayClient } from '../relay/client.js';
import type { RelayFailure } from '../relay/protocol.js';
import type { PushRepository } from '../repositories/push.repository.js';
import type { JobOf } from './catalog.js';

export interface RegisterJobDeps {
  repo: PushRepository;
  relay: RelayClient;
  logger: Logger;
}

/** The error code a device shows when its registration finally failed for this reason. */
const FAILURE_CODE: Record<Exclude<RelayFailure, 'rejected'>, string> = {
  admin: 'ADMIN_ACTION_REQUIRED',
  server: 'INTERNAL_SERVER_ERROR_ON_BOUNCER',
  network: 'FAILED_TO_CONNECT_BOUNCER',
};

/**
 * Registers a pending device at the relay. The relay's refusal of the device fails the registration at once; any
 * other failure is thrown so BullMQ retries with backoff, and the last attempt records it on the device.
 */
export async function runRegistration(deps: RegisterJobDeps, job: JobOf<'push-register'>): Promise<string> {
  const { deviceId, registrationKey, requestId } = job.data;
  const device = await deps.repo.deviceById(deviceId);
  // Deleted, finished, or registered again since: this job has nothing left to do.
  if (!device || device.status !== 'pending' || device.registrationKey !== registrationKey) return 'superseded';

  const result = await deps.relay.register(
    {
      realm_id: device.realmId,
      push_account_id: device.pushAccountId,
      token_kind: device.tokenKind,
      bouncer_public_key: device.bouncerPublicKey,
      encrypted_push_registration: device.encryptedPushRegistration,
    },
    { idempotencyKey: `register-${device.id}-${registrationKey}`, attempts: 1 },
  );
  const finish = async (
    outcome: { status: 'active'; relayDeviceId: string } | { status: 'failed'; errorCode: string },
  ) => {
    await deps.repo.transaction(async (tx) => {
      const updated = await deps.repo.finishRegistration(tx, device.id, registrationKey, outcome);
      return { result: undefined, events: updated ? [deviceUpdatedEvent(updated, requestId)] : [] };
    });
    return outcome.status;
  };
  if (result.ok) return finish({ status: 'active', relayDeviceId: result.value.device_id });
  if (result.failure === 'rejected') return finish({ status: 'failed', errorCode: result.code ?? 'BAD_REQUEST' });
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  if (lastAttempt) return finish({ status: 'failed', errorCode: FAILURE_CODE[result.failure] });
  throw new Error(`push relay registration failed (${result.failure}: ${result.detail})`);
}
