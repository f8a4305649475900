/**
 * Requests the server may refuse for a moment: 429 (rate limited), 502–504 (its read-your-writes gate answers 503
 * "retry later" while it has not yet applied the user's own previous change, `libs/http` `withCausality`), or a
 * dropped connection. They are sent again after the server's Retry-After, or a growing pause.
 */
import { ApiError } from '../lib/api';

/** Whether a refusal means "later", not "never". */
export function retryable(err: unknown): boolean {
  if (!(err instanceof ApiError)) return !(err instanceof DOMException && err.name === 'AbortError');
  return err.status === 429 || err.status === 502 || err.status === 503 || err.status === 504;
}

/** How long to wait before asking again: the answer's `retry-after` (body or header), else `fallback`, in ms. */
export function retryDelay(err: unknown, fallback: number): number {
  if (err instanceof ApiError) {
    const seconds = Number(err.body['retry-after'] ?? err.retryAfter);
    if (Number.isFinite(seconds) && seconds > 0) return Math.min(seconds * 1000, 30_000);
  }
  return fallback;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Sends a request until it is answered, a refusal is final, `attempts` are spent, or `wanted()` turns false (the
 * view that asked has gone); the last refusal is thrown.
 */
export async function withRetries<T>(
  send: () => Promise<T>,
  { attempts = 6, wanted = () => true }: { attempts?: number; wanted?: () => boolean } = {},
): Promise<T> {
  let wait = 500;
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (err) {
      if (attempt >= attempts || !retryable(err) || !wanted()) throw err;
      await pause(retryDelay(err, wait));
      wait = Math.min(wait * 2, 10_000);
      if (!wanted()) throw err;
    }
  }
}
