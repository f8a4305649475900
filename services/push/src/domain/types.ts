export type TokenKind = 'apns' | 'fcm';
export type DeviceStatus = 'pending' | 'active' | 'failed';

/** A device registered for end-to-end-encrypted push notifications. */
export interface PushDevice {
  id: number;
  userId: number;
  realmId: number;
  pushAccountId: number;
  tokenKind: TokenKind;
  pushPublicKey: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
  status: DeviceStatus;
  errorCode: string | null;
  relayDeviceId: string | null;
  /** Changes with every (re-)registration. */
  registrationKey: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What a test-notification job reports back to the request waiting for it. */
export type TestFailure =
  'NO_ACTIVE_PUSH_DEVICE' | 'ADMIN_ACTION_REQUIRED' | 'FAILED_TO_CONNECT_BOUNCER' | 'INTERNAL_SERVER_ERROR_ON_BOUNCER';
export type TestOutcome = { result: 'sent'; devices: number } | { result: TestFailure };

export interface TestNotificationRequest {
  userId: number;
  realmId: number;
  /** Push devices (feature level 406). */
  deviceIds: number[];
  /** Client devices (feature level 468). */
  clientDeviceIds: number[];
  requestId: string;
}

/** Runs a test notification as a job and waits (bounded) for its outcome. */
export interface TestNotificationDispatcher {
  dispatch(request: TestNotificationRequest): Promise<TestOutcome>;
}

/** A registration to queue: of a push device (feature level 406), or of a client device's token (level 468). */
export interface PendingRegistration {
  kind?: 'client';
  id: number;
  registrationKey: string;
}

/** Queues the registration of a pending device at the relay. */
export interface RegistrationScheduler {
  schedule(registration: PendingRegistration, requestId: string): Promise<void>;
}

/**
 * A logged-in client install (POST /register_client_device, feature level 468) and its push registration: the key
 * notifications are encrypted with, and the FCM/APNs token the relay holds for it (by token id, never the token).
 */
export interface ClientDevice {
  id: number;
  userId: number;
  realmId: number;
  pushKeyId: number | null;
  /** Standard base64 of 0x31 and a 32-byte libsodium secretbox key. */
  pushKey: string | null;
  tokenKind: TokenKind | null;
  /** Base64 of the 8-byte id of the token the relay has registered. */
  pushTokenId: string | null;
  /** Base64 of the 8-byte id of the token being registered at the relay. */
  pendingPushTokenId: string | null;
  tokenUpdatedAt: Date | null;
  errorCode: string | null;
  bouncerPublicKey: string | null;
  encryptedPushRegistration: string | null;
  relayDeviceId: string | null;
  registrationKey: string | null;
}

/** The fields of a client device a change may set. */
export type ClientDevicePatch = Partial<Omit<ClientDevice, 'id' | 'userId' | 'realmId'>>;
