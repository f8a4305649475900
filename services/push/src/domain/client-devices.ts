import { contracts, outboxRecord, type OutboxRecord, type PayloadOf } from '@confab/events';
import { invalid } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import { pushServiceNotConfigured } from './errors.js';
import { PUSH_KEY_TAG_SECRETBOX, strictBase64 } from './sealing.js';
import type { ClientDeviceChange, PushStore } from './store.js';
import type { ClientDevice, ClientDevicePatch, RegistrationScheduler, TokenKind } from './types.js';

/**
 * Client devices (Zulip's feature levels 468 and 470): a logged-in install of a mobile app registers itself
 * (POST /register_client_device), then sets the key its notifications are encrypted with and the token the push
 * relay delivers to (POST /mobile_push/register with device_id), and is forgotten at logout
 * (POST /remove_client_device). Each change reaches the user's clients as a `device` event.
 */
export interface ClientDeviceContext {
  store: PushStore;
  scheduler: RegistrationScheduler;
  relayConfigured: boolean;
  requestId: string;
}

type Changes = PayloadOf<typeof contracts.clientDeviceChanged>['changes'];

function deviceEvent(
  device: Pick<ClientDevice, 'id' | 'userId' | 'realmId'>,
  op: 'add' | 'remove' | 'update',
  changes: Changes,
  requestId: string | null,
): OutboxRecord {
  return outboxRecord(
    contracts.clientDeviceChanged,
    { user_id: device.userId, realm_id: device.realmId, device_id: device.id, op, changes },
    { realmId: device.realmId, requestId },
  );
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Zulip's `devices` of POST /register: each device's push registration, by device id. */
export function devicesMap(devices: readonly ClientDevice[]): Record<string, Required<Changes>> {
  return Object.fromEntries(
    devices.map((d) => [
      String(d.id),
      {
        push_key_id: d.pushKeyId,
        push_token_id: d.pushTokenId,
        pending_push_token_id: d.pendingPushTokenId,
        push_token_last_updated_timestamp: d.tokenUpdatedAt === null ? null : seconds(d.tokenUpdatedAt),
        push_registration_error_code: d.errorCode,
      },
    ]),
  );
}

export async function registerClientDevice(ctx: ClientDeviceContext, user: UserIdentity): Promise<number> {
  const device = await ctx.store.addClientDevice({ userId: user.userId, realmId: user.realmId }, (saved) => [
    deviceEvent(saved, 'add', {}, ctx.requestId),
  ]);
  return device.id;
}

const invalidDeviceId = () => invalid('Invalid `device_id`');

/** The user's own device, or Zulip's error for any other id. */
function own(device: ClientDevice | null, user: UserIdentity): ClientDevice {
  if (!device || device.userId !== user.userId) throw invalidDeviceId();
  return device;
}

export async function removeClientDevice(
  ctx: ClientDeviceContext,
  user: UserIdentity,
  deviceId: number,
): Promise<void> {
  await ctx.store.changeClientDevice(deviceId, (found) => {
    const device = own(found, user);
    return { remove: true, events: [deviceEvent(device, 'remove', {}, ctx.requestId)], result: undefined };
  });
}

/** Zulip's check_push_key: standard base64 of 33 bytes, the first of them the secretbox tag. */
export function checkPushKey(text: string): string {
  const bytes = strictBase64(text);
  if (!bytes || bytes.length !== 33 || bytes[0] !== PUSH_KEY_TAG_SECRETBOX) throw invalid('Invalid `push_key`');
  return text;
}

/**
 * A token id as Zulip keeps it: the base64 text read as a signed big-endian integer, written back as its 8 bytes
 * (the apps send exactly 8 bytes, so their text comes back unchanged).
 */
export function canonicalTokenId(text: string): string {
  const bytes = strictBase64(text);
  if (!bytes) throw invalid('`token_id` is not Base64 encoded');
  if (bytes.length > 8) throw invalid('Invalid `token_id`');
  const negative = bytes.length > 0 && (bytes[0]! & 0x80) !== 0;
  return Buffer.concat([Buffer.alloc(8 - bytes.length, negative ? 0xff : 0), bytes]).toString('base64');
}

export interface PushKeyInput {
  pushKeyId: number;
  pushKey: string;
}

export interface PushTokenInput {
  tokenKind: TokenKind;
  tokenId: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

/** Both groups of POST /mobile_push/register: each is all there or absent. */
export interface PushRegistrationInput {
  deviceId: number;
  key: PushKeyInput | null;
  token: PushTokenInput | null;
}

/**
 * POST /mobile_push/register with device_id (feature level 468), as Zulip decides it: a key alone rotates the
 * key of a registered device; a token alone rotates its token; both (re-)register it. A new token is registered at
 * the relay by a job; until then it is the device's pending token, and a second token is refused meanwhile.
 */
export async function registerPushDevice(
  ctx: ClientDeviceContext,
  user: UserIdentity,
  input: PushRegistrationInput,
): Promise<void> {
  if (!ctx.relayConfigured) throw pushServiceNotConfigured();
  const queued = await ctx.store.changeClientDevice(input.deviceId, (found) =>
    decideRegistration(own(found, user), input, new Date(), ctx.requestId),
  );
  // A lost schedule is repaired by the worker's sweep of stale pending registrations.
  if (queued) await ctx.scheduler.schedule({ kind: 'client', ...queued }, ctx.requestId);
}

type Queued = { id: number; registrationKey: string } | null;

function decideRegistration(
  device: ClientDevice,
  input: PushRegistrationInput,
  now: Date,
  requestId: string,
): ClientDeviceChange<Queued> {
  const { key, token } = input;
  const nothing: ClientDeviceChange<Queued> = { events: [], result: null };
  const apply = (update: ClientDevicePatch, changes: Changes, queued: Queued): ClientDeviceChange<Queued> => ({
    update,
    events: [deviceEvent(device, 'update', changes, requestId)],
    result: queued,
  });

  if (!key && !token) {
    throw invalid('Missing parameters: must provide either all push key fields, all token fields, or both.');
  }
  if (key && !token) {
    if (device.pushKeyId === null) throw invalid('No push registration exists to rotate key for.');
    const pushKey = checkPushKey(key.pushKey);
    if (device.pushKeyId === key.pushKeyId && device.pushKey === pushKey) return nothing;
    return apply({ pushKeyId: key.pushKeyId, pushKey }, { push_key_id: key.pushKeyId }, null);
  }
  const t = token!;
  if (device.errorCode === null && device.pendingPushTokenId !== null) {
    throw invalid('A registration for the device already in progress.');
  }
  const tokenId = canonicalTokenId(t.tokenId);
  const registrationKey = crypto.randomUUID();
  const tokenFields: ClientDevicePatch = {
    tokenKind: t.tokenKind,
    pendingPushTokenId: tokenId,
    tokenUpdatedAt: now,
    errorCode: null,
    bouncerPublicKey: t.bouncerPublicKey,
    encryptedPushRegistration: t.encryptedPushRegistration,
    registrationKey,
  };
  const tokenChanges: Changes = {
    pending_push_token_id: tokenId,
    push_token_last_updated_timestamp: seconds(now),
    push_registration_error_code: null,
  };
  const queued = { id: device.id, registrationKey };
  if (!key) {
    if (device.pushKeyId === null) throw invalid('No push registration exists to rotate token for.');
    if (device.errorCode === null && device.pushTokenId === tokenId) return nothing;
    return apply(tokenFields, tokenChanges, queued);
  }
  const pushKey = checkPushKey(key.pushKey);
  const unchanged =
    device.errorCode === null &&
    device.pushKeyId === key.pushKeyId &&
    device.pushKey === pushKey &&
    device.pushTokenId === tokenId &&
    device.tokenKind === t.tokenKind;
  if (unchanged) return nothing;
  return apply(
    { ...tokenFields, pushKeyId: key.pushKeyId, pushKey },
    { push_key_id: key.pushKeyId, ...tokenChanges },
    queued,
  );
}

/**
 * The relay's answer to a client device's token registration: the pending token becomes the device's token, or
 * the registration failed with `errorCode`. Null when the device was removed or registered another token since.
 */
export function finishClientRegistration(
  store: PushStore,
  deviceId: number,
  registrationKey: string,
  outcome: { status: 'active'; relayDeviceId: string } | { status: 'failed'; errorCode: string },
  requestId: string | null,
): Promise<boolean> {
  return store.changeClientDevice(deviceId, (device): ClientDeviceChange<boolean> => {
    if (!device || device.registrationKey !== registrationKey || device.pendingPushTokenId === null) {
      return { events: [], result: false };
    }
    if (device.errorCode !== null) return { events: [], result: false };
    if (outcome.status === 'active') {
      return {
        update: {
          pushTokenId: device.pendingPushTokenId,
          pendingPushTokenId: null,
          relayDeviceId: outcome.relayDeviceId,
        },
        events: [
          deviceEvent(
            device,
            'update',
            { push_token_id: device.pendingPushTokenId, pending_push_token_id: null },
            requestId,
          ),
        ],
        result: true,
      };
    }
    return {
      update: { errorCode: outcome.errorCode },
      events: [deviceEvent(device, 'update', { push_registration_error_code: outcome.errorCode }, requestId)],
      result: true,
    };
  });
}
