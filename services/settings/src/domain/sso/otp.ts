import { ConfabError } from '@confab/errors';

/**
 * The one-time pad of Zulip's mobile and desktop login flows (zerver/lib/mobile_auth_otp.py): the app sends 64 hex
 * digits, and the API key comes back XORed with it, so the key never appears in a URL in the clear.
 */

const API_KEY_LENGTH = 32;

export function isValidOtp(otp: string): boolean {
  return otp.length === 2 * API_KEY_LENGTH && /^[0-9a-fA-F]+$/.test(otp);
}

export const invalidOtp = () => new ConfabError('Invalid OTP', { code: 'BAD_REQUEST' });

/** hex(api_key) XOR otp, digit by digit, in lower-case hex (Zulip's otp_encrypt_api_key). */
export function otpEncryptApiKey(apiKey: string, otp: string): string {
  const hexKey = Buffer.from(apiKey, 'utf8').toString('hex');
  if (hexKey.length !== 2 * API_KEY_LENGTH || !isValidOtp(otp)) throw invalidOtp();
  let out = '';
  for (let i = 0; i < hexKey.length; i++) out += (parseInt(hexKey[i]!, 16) ^ parseInt(otp[i]!, 16)).toString(16);
  return out;
}

/** The inverse, as the apps compute it (otp_decrypt_api_key). */
export function otpDecryptApiKey(encrypted: string, otp: string): string {
  let hex = '';
  for (let i = 0; i < encrypted.length; i++) hex += (parseInt(encrypted[i]!, 16) ^ parseInt(otp[i]!, 16)).toString(16);
  return Buffer.from(hex, 'hex').toString('utf8');
}

/**
 * The redirect that ends a mobile or desktop flow: `zulip://login?realm=…&email=…&otp_encrypted_api_key=…&user_id=…`,
 * which the Flutter app, the desktop app and zulip-terminal's helpers read.
 */
export function otpRedirectUrl(fields: {
  realmUrl: string;
  email: string;
  apiKey: string;
  userId: number;
  otp: string;
}): string {
  const query = new URLSearchParams({
    realm: fields.realmUrl,
    email: fields.email,
    otp_encrypted_api_key: otpEncryptApiKey(fields.apiKey, fields.otp),
    user_id: String(fields.userId),
  });
  return `zulip://login?${query.toString()}`;
}
