/**
 * The push relay ("bouncer") protocol, version 1: the only place its paths, bodies and status codes are defined.
 * PROTOCOL.md beside this file is the same contract in prose, for whoever implements a relay.
 */

export const REGISTER_PATH = '/api/v1/remotes/push/e2ee/register';
export const NOTIFY_PATH = '/api/v1/remotes/push/e2ee/notify';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** Body of a device registration: what the device gave us, passed on unread. */
export interface RegisterRequest {
  realm_id: number;
  /** A push device's account id (feature level 406); a client device's token id comes instead (level 468). */
  push_account_id?: number;
  /** Base64 of the 8-byte id the device gave its FCM/APNs token (client devices, feature level 468). */
  token_id?: string;
  token_kind: 'fcm' | 'apns';
  bouncer_public_key: string;
  /** The device's FCM/APNs token, encrypted by the device for the relay (base64). */
  encrypted_push_registration: string;
}

export interface RegisterResponse {
  /** The relay's id for the device; notifications name it. */
  device_id: string;
}

/** Body of one notification for one device. */
export interface NotifyRequest {
  device_id: string;
  /** Sent in clear so the device can tell which of its accounts the notification is for (feature level 406). */
  push_account_id?: number;
  /** Sent in clear so a client device can tell which of its keys opens the notification (level 468). */
  push_key_id?: number;
  /**
   * Base64 of the payload: sealed to a push device's public key (libsodium crypto_box_seal), or for a client device
   * its 24-byte nonce and the secretbox of the payload under the device's push key.
   */
  encrypted_data: string;
  priority: 'normal' | 'high';
}

/** How the server must treat a relay answer. */
export type RelayFailure =
  /** The relay refuses this server (credentials, plan, organization not registered) or our request: not retried. */
  | 'admin'
  /** The relay failed (5xx or an unreadable success): retried, then INTERNAL_SERVER_ERROR_ON_BOUNCER. */
  | 'server'
  /** No answer (connection refused, reset, timeout) or 408/429: retried, then FAILED_TO_CONNECT_BOUNCER. */
  | 'network'
  /** The relay rejected this device's registration (400 with a code): the device registration failed. */
  | 'rejected';

export function classifyStatus(status: number): RelayFailure | null {
  if (status >= 200 && status < 300) return null;
  if (status === 408 || status === 429) return 'network';
  if (status >= 500) return 'server';
  if (status === 400) return 'rejected';
  return 'admin';
}

export function isTransient(failure: RelayFailure): boolean {
  return failure === 'server' || failure === 'network';
}

/** Codes a relay may put in a 400 answer to a registration; anything else is recorded as BAD_REQUEST. */
export const REGISTRATION_ERROR_CODES = ['INVALID_BOUNCER_PUBLIC_KEY', 'REQUEST_EXPIRED', 'BAD_REQUEST'] as const;
