import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConfabError } from '@confab/errors';
import { accessUpload, readUpload } from './attachments.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';

/** How long a temporary upload URL works (Zulip's generate_unauthed_file_access_url: 60 seconds). */
export const TEMPORARY_URL_SECONDS = 60;

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function signature(key: string, payload: string): Buffer {
  return createHmac('sha256', `confab-temporary-upload:${key}`).update(payload).digest();
}

/** A token naming an upload until `expires` (Unix seconds), signed with `key`. */
export function signUploadToken(key: string, pathId: string, expires: number): string {
  const payload = b64url(JSON.stringify([pathId, expires]));
  return `${payload}.${b64url(signature(key, payload))}`;
}

/** The upload a token names, or null when it is forged, malformed or past its time. */
export function verifyUploadToken(key: string, token: string, now: number): string | null {
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined) return null;
  const expected = signature(key, payload);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const [pathId, expires] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
    if (typeof pathId !== 'string' || typeof expires !== 'number' || expires * 1000 < now) return null;
    return pathId;
  } catch {
    return null;
  }
}

/**
 * GET /user_uploads/{realm_id}/{filename} (the API form): a URL for the file that works without credentials for a
 * minute, for clients that hand a file to something that cannot authenticate (a browser, a media player).
 */
export async function temporaryUploadUrl(
  domain: Domain,
  actor: Actor,
  pathId: string,
  now = Date.now(),
): Promise<{ url: string }> {
  const attachment = await accessUpload(domain, actor, pathId);
  const expires = Math.floor(now / 1000) + TEMPORARY_URL_SECONDS;
  const token = signUploadToken(domain.secrets.uploadUrls, attachment.pathId, expires);
  const name = attachment.pathId.split('/').pop() ?? '';
  return { url: `/user_uploads/temporary/${token}/${encodeURIComponent(name)}` };
}

/** GET /user_uploads/temporary/{token}/{filename}: the file, while the token is valid. */
export async function temporaryDownload(domain: Domain, token: string, now = Date.now()) {
  const pathId = verifyUploadToken(domain.secrets.uploadUrls, token, now);
  if (pathId === null) throw new ConfabError('Invalid or expired token', { status: 403 });
  const attachment = await domain.attachments.byPathId(pathId);
  if (!attachment) throw new ConfabError('File not found', { status: 404 });
  return readUpload(domain, attachment);
}
