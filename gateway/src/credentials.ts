import { ConfabError, NOT_LOGGED_IN, unauthorized } from '@confab/errors';

export interface BasicCredentials {
  email: string;
  apiKey: string;
}

/**
 * What the gateway verifies: an email and an API key (Basic), or an API key alone (`email` null: an incoming
 * webhook's `api_key` parameter, Zulip's webhook_view).
 */
export interface ApiCredentials {
  email: string | null;
  apiKey: string;
  /**
   * The Host the request came to, when the key must belong to that host's organization (Zulip's
   * validate_account_and_subdomain): Basic-authenticated API requests and incoming webhooks. Part of the cache key,
   * so a key verified on its own organization's host is not accepted from the cache on another's.
   */
  host?: string | undefined;
}

/** Zulip's reading of the Authorization header on /api/v1 (decorator.py get_basic_credentials). */
export function parseBasicAuth(header: string | undefined): BasicCredentials {
  if (header === undefined || header === '') throw unauthorized(NOT_LOGGED_IN);
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  if (scheme.toLowerCase() !== 'basic') throw new ConfabError('This endpoint requires HTTP basic authentication.');
  const encoded = header.slice(space + 1).trim();
  if (space === -1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) {
    throw unauthorized('Invalid authorization header for basic auth');
  }
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) throw unauthorized('Invalid authorization header for basic auth');
  return { email: decoded.slice(0, colon).trim(), apiKey: decoded.slice(colon + 1).trim() };
}
