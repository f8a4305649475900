import type { IncomingMessage } from 'node:http';
import { ConfabError, missingArgument, unauthorized } from '@confab/errors';
import type { ApiCredentials } from './credentials.js';
import { readAll } from '@confab/http';

/**
 * How an incoming webhook (/api/v1/external/{name}) says who it is, with Zulip's texts (decorator.py): the bot's
 * `api_key` in the query string or in a form body (webhook_view), or HTTP Basic `email:api_key` for the integrations
 * Zulip declares with authenticated_rest_api_view (Beanstalk, Bitbucket's legacy hook, Freshdesk, Zendesk). Only
 * these requests may have their body read here, and only a form body without a key in the query, up to a cap.
 */

export interface WebhookCredentials {
  credentials: ApiCredentials;
  /** The body, when it had to be read to find the key; the request is forwarded with it. */
  body?: Buffer;
  /** Whether the key came from a parameter (Zulip's api_key texts) rather than Basic (its 401 UNAUTHORIZED texts). */
  byParameter: boolean;
}

/** Zulip's get_basic_credentials, with beanstalk_email_decode for Beanstalk ("%40" for "@" in its URL's user part). */
export function webhookBasicCredentials(header: string | undefined, decodeEmail: boolean): ApiCredentials {
  if (header === undefined) throw unauthorized('Missing authorization header for basic auth');
  const invalidHeader = () => unauthorized('Invalid authorization header for basic auth');
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2) throw invalidHeader();
  const [scheme, encoded] = parts as [string, string];
  if (scheme.toLowerCase() !== 'basic') throw new ConfabError('This endpoint requires HTTP basic authentication.');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) throw invalidHeader();
  const fields = Buffer.from(encoded, 'base64').toString('utf8').split(':');
  if (fields.length !== 2) throw invalidHeader();
  const email = decodeEmail ? fields[0]!.replaceAll('%40', '@') : fields[0]!;
  return { email: email.trim(), apiKey: fields[1]!.trim() };
}

/** The webhook's `api_key`: from the query string, else from a form body (read here up to `maxBytes`). */
export async function webhookKeyCredentials(
  req: IncomingMessage,
  query: string,
  maxBytes: number,
): Promise<WebhookCredentials> {
  const fromQuery = new URLSearchParams(query).getAll('api_key').at(-1);
  if (fromQuery !== undefined) return { credentials: { email: null, apiKey: fromQuery.trim() }, byParameter: true };
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();
  if (!contentType.startsWith('application/x-www-form-urlencoded')) throw missingArgument('api_key');
  const body = await readAll(req, maxBytes);
  const fromBody = new URLSearchParams(body.toString('utf8')).getAll('api_key').at(-1);
  if (fromBody === undefined) throw missingArgument('api_key');
  return { credentials: { email: null, apiKey: fromBody.trim() }, body, byParameter: true };
}

const SUBDOMAIN_MISMATCH = 'Account is not associated with this subdomain';

/** Zulip's errors for an `api_key` parameter (InvalidAPIKeyError and the deactivation errors), by their texts. */
const KEY_REFUSAL_CODES: Record<string, string> = {
  'Invalid API key': 'INVALID_API_KEY',
  'Malformed API key': 'INVALID_API_KEY',
  'Account is deactivated': 'USER_DEACTIVATED',
  'This organization has been deactivated': 'REALM_DEACTIVATED',
};

/**
 * A refusal of an `api_key` parameter as Zulip's webhook_view answers it: 401 with its own code, without the Basic
 * challenge (the settings service words its refusals for Basic authentication).
 */
export function keyRefusal(err: unknown): unknown {
  if (!(err instanceof ConfabError) || err.status !== 401) return err;
  // webhook_view lets validate_account_and_subdomain's JsonableError through: a 400.
  if (err.message === SUBDOMAIN_MISMATCH) return new ConfabError(err.message);
  const code = KEY_REFUSAL_CODES[err.message];
  return code ? new ConfabError(err.message, { status: 401, code }) : err;
}
