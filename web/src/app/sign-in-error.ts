import { ApiError } from '../lib/api';

/**
 * What a refused sign-in says: the server's reason, and for too many attempts when to try again (the answer's
 * `retry-after` field, else its Retry-After header) instead of the API's "API usage exceeded rate limit".
 */
export function signInError(err: unknown): string {
  if (err instanceof ApiError && (err.code === 'RATE_LIMIT_HIT' || err.status === 429)) {
    const field = Number(err.body['retry-after'] ?? err.retryAfter);
    const seconds = Number.isFinite(field) && field > 0 ? Math.ceil(field) : null;
    return seconds === null
      ? 'Too many sign-in attempts. Try again in a moment.'
      : `Too many sign-in attempts. Try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`;
  }
  return err instanceof Error ? err.message : String(err);
}
