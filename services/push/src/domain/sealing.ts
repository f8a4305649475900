import sodium from 'libsodium-wrappers';

/**
 * Notifications are sealed to the device's X25519 public key with libsodium's crypto_box_seal (an ephemeral key
 * pair, X25519 + XSalsa20-Poly1305, nonce from BLAKE2b of both public keys): only the device's private key opens
 * them, and the relay sees nothing but ciphertext. The device opens them with crypto_box_seal_open.
 */
export const PUBLIC_KEY_BYTES = 32;

/** The bytes of a standard (RFC 4648, padded) base64 text, or null when the text is anything else. */
export function strictBase64(text: string): Buffer | null {
  const bytes = Buffer.from(text, 'base64');
  return bytes.toString('base64') === text ? bytes : null;
}

/** A standard base64 text of exactly 32 bytes. */
export function isValidPublicKey(text: string): boolean {
  return strictBase64(text)?.length === PUBLIC_KEY_BYTES;
}

export async function sealForDevice(publicKeyBase64: string, payload: unknown): Promise<string> {
  await sodium.ready;
  const message = Buffer.from(JSON.stringify(payload), 'utf8');
  const sealed = sodium.crypto_box_seal(message, Buffer.from(publicKeyBase64, 'base64'));
  return Buffer.from(sealed).toString('base64');
}

/** The tag byte of a push key for libsodium's secretbox (Zulip's `push_key`: this byte, then the 32-byte key). */
export const PUSH_KEY_TAG_SECRETBOX = 0x31;

/**
 * Encrypts a notification with a client device's push key (feature level 468): libsodium's crypto_secretbox_easy
 * (XSalsa20-Poly1305) under a fresh random 24-byte nonce, sent as base64 of the nonce followed by the ciphertext,
 * which is how the Zulip apps unpack it.
 */
export async function encryptWithPushKey(pushKeyBase64: string, payload: unknown): Promise<string> {
  await sodium.ready;
  const key = Buffer.from(pushKeyBase64, 'base64').subarray(1);
  const nonce = sodium.randombytes_buf(sodium.crypto_secretbox_NONCEBYTES);
  const message = Buffer.from(JSON.stringify(payload), 'utf8');
  const box = sodium.crypto_secretbox_easy(message, nonce, key);
  return Buffer.concat([nonce, box]).toString('base64');
}
