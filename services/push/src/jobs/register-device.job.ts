import type { Logger } from '@confab/logging';
import { finishClientRegistration } from '../domain/client-devices.js';
import { deviceUpdatedEvent } from '../domain/devices.js';
import type { RelayClient } from '../relay/client.js';
import type { RegisterRequest, RelayFailure } from '../relay/protocol.js';
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

type Outcome = { status: 'active'; relayDeviceId: string } | { status: 'failed'; errorCode: string };

/**
 * Registers a pending device (a push device, or a client device's new token) at the relay. The relay's refusal of
 * the device fails the registration at once; any other failure is thrown so BullMQ retries with backoff, and the
 * last attempt records it on the device.
 */
export async function runRegistration(deps: RegisterJobDeps, job: JobOf<'push-register'>): Promise<string> {
  const { kind, deviceId, registrationKey, requestId } = job.data;
  let body: RegisterRequest;
  let finish: (outcome: Outcome) => Promise<boolean>;
  if (kind === 'client') {
    const device = await deps.repo.clientDevice(deviceId);
    if (!device || device.registrationKey !== registrationKey || device.errorCode !== null) return 'superseded';
    if (device.pendingPushTokenId === null || device.tokenKind === null) return 'superseded';
    body = {
      realm_id: device.realmId,
      token_id: device.pendingPushTokenId,
      token_kind: device.tokenKind,
      bouncer_public_key: device.bouncerPublicKey ?? '',
      encrypted_push_registration: device.encryptedPushRegistration ?? '',
    };
    finish = (outcome) => finishClientRegistration(deps.repo, deviceId, registrationKey, outcome, requestId);
  } else {
    const device = await deps.repo.deviceById(deviceId);
    // Deleted, finished, or registered again since: this job has nothing left to do.
    if (!device || device.status !== 'pending' || device.registrationKey !== registrationKey) return 'superseded';
    body = {
      realm_id: device.realmId,
      push_account_id: device.pushAccountId,
      token_kind: device.tokenKind,
      bouncer_public_key: device.bouncerPublicKey,
      encrypted_push_registration: device.encryptedPushRegistration,
    };
    finish = (outcome) =>
      deps.repo.transaction(async (tx) => {
        const updated = await deps.repo.finishRegistration(tx, device.id, registrationKey, outcome);
        return { result: updated !== null, events: updated ? [deviceUpdatedEvent(updated, requestId)] : [] };
      });
  }

  const result = await deps.relay.register(body, {
    idempotencyKey: `register-${kind ? `${kind}-` : ''}${deviceId}-${registrationKey}`,
    attempts: 1,
  });
  const done = async (outcome: Outcome) => {
    await finish(outcome);
    return outcome.status;
  };
  if (result.ok) return done({ status: 'active', relayDeviceId: result.value.device_id });
  if (result.failure === 'rejected') return done({ status: 'failed', errorCode: result.code ?? 'BAD_REQUEST' });
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  if (lastAttempt) return done({ status: 'failed', errorCode: FAILURE_CODE[result.failure] });
  throw new Error(`push relay registration failed (${result.failure}: ${result.detail})`);
}
