import sodium from 'libsodium-wrappers';

/**
 * Notifications are sealed to the device's X25519 public key with libsodium's crypto_box_seal (an ephemeral key
 * pair, X25519 + XSalsa20-Poly1305, nonce from BLAKE2b of both public keys): only the device's private key opens
 * them, and the relay sees nothing but ciphertext. The device opens them with crypto_box_seal_open.
 */
export const PUBLIC_KEY_BYTES = 32;

/** A standard (RFC 4648, padded) base64 text of exactly 32 bytes. */
export function isValidPublicKey(text: string): boolean {
  if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) return false;
  return Buffer.from(text, 'base64').toString('base64') === text;
}

export async function sealForDevice(publicKeyBase64: string, payload: unknown): Promise<string> {
  await sodium.ready;
  const message = Buffer.from(JSON.stringify(payload), 'utf8');
  const sealed = sodium.crypto_box_seal(message, Buffer.from(publicKeyBase64, 'base64'));
  return Buffer.from(sealed).toString('base64');
}
