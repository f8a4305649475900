import type { Logger } from '@confab/logging';

/**
 * Runs `task` in the background until it succeeds, retrying with a doubling delay (1 s up to 30 s) while it fails —
 * typically a start-up backfill from a service that is not reachable yet. `stop()` ends the retries; `task` gets a
 * function telling it whether it has been stopped, to end a long run early.
 */
export function retryInBackground(
  task: (stopped: () => boolean) => Promise<void>,
  log: Logger,
  what: string,
): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const attempt = (delayMs: number) => {
    task(() => stopped).catch((err: unknown) => {
      if (stopped) return;
      log.warn({ err: err instanceof Error ? err.message : err }, `${what} failed; retrying`);
      timer = setTimeout(() => attempt(Math.min(delayMs * 2, 30_000)), delayMs);
      timer.unref();
    });
  };
  attempt(1000);
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
