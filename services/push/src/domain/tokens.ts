import { invalid } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import { deviceNotRecognized } from './errors.js';
import type { PushStore } from './store.js';
import type { TokenKind } from './types.js';

/** Zulip's validate_token: 1..4096 characters; APNs tokens must be hex (Python's bytes.fromhex). */
export function validateToken(kind: TokenKind, token: string): void {
  if (token === '' || token.length > 4096) throw invalid('Empty or invalid length token');
  if (kind === 'apns' && !/^\s*(?:[0-9a-fA-F]{2}\s*)*$/.test(token)) throw invalid('Invalid APNS token');
}

/** Zulip's ApnsAppId: a bundle identifier. */
export function validateAppId(appid: string): void {
  if (!/^[.a-zA-Z0-9-]+$/.test(appid)) throw invalid('Invalid app ID');
}

/** POST /users/me/apns_device_token, /users/me/android_gcm_reg_id: idempotent. */
export async function addToken(
  store: PushStore,
  user: UserIdentity,
  kind: TokenKind,
  token: string,
  appid: string | null,
): Promise<void> {
  if (appid !== null) validateAppId(appid);
  validateToken(kind, token);
  await store.addToken({ userId: user.userId, realmId: user.realmId, kind, token, iosAppId: appid });
}

/**
 * POST /mobile_push/test_notification, the legacy test (Zulip's send_test_push_notification_api): a token given must
 * be one of the caller's (else "Device not recognized"); then Zulip sends the test to those tokens, which Confab does
 * not: it delivers end-to-end-encrypted notifications only (POST /mobile_push/e2ee/test_notification), so the answer
 * is Zulip's success, as from a server that has no credentials for the legacy tokens' services.
 */
export async function testLegacyTokens(store: PushStore, user: UserIdentity, token: string | undefined): Promise<void> {
  if (token !== undefined && !(await store.hasToken(user.userId, token))) throw deviceNotRecognized();
}

/** DELETE of the same paths: only the caller's own token, else "Device not recognized". */
export async function removeToken(store: PushStore, user: UserIdentity, kind: TokenKind, token: string): Promise<void> {
  validateToken(kind, token);
  if (!(await store.removeToken(user.userId, kind, token))) throw deviceNotRecognized();
}
