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
  deviceIds: number[];
  requestId: string;
}

/** Runs a test notification as a job and waits (bounded) for its outcome. */
export interface TestNotificationDispatcher {
  dispatch(request: TestNotificationRequest): Promise<TestOutcome>;
}

/** Queues the registration of a pending device at the relay. */
export interface RegistrationScheduler {
  schedule(device: Pick<PushDevice, 'id' | 'registrationKey'>, requestId: string): Promise<void>;
}
