import { createLogger, type Logger } from '@confab/logging';
import { serveMetrics } from './metrics.js';

export type ShutdownStep = readonly [name: string, close: () => Promise<unknown>];

/**
 * On SIGTERM or SIGINT, runs the close steps in order (HTTP server first, then workers, broker and database),
 * each bounded in time, and exits. Kubernetes' terminationGracePeriodSeconds must exceed `budgetMs`.
 */
export function closeOnSignals(logger: Logger, steps: readonly ShutdownStep[], budgetMs = 20_000): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const hardStop = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, budgetMs);
    hardStop.unref();
    for (const [name, close] of steps) {
      try {
        await close();
      } catch (err) {
        logger.warn({ err, step: name }, 'shutdown step failed');
      }
    }
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** Logs and exits on a failure at start-up (bad config, unreachable database). */
export function exitOnStartupFailure(logger: Pick<Logger, 'fatal'> | undefined, err: unknown): never {
  if (logger) logger.fatal({ err }, 'failed to start');
  else console.error(err);
  process.exit(1);
}

/**
 * A process's start-up, the same in every Confab process: its configuration, a logger named after it, then `start`,
 * which builds and starts everything and answers its shutdown steps (run on SIGTERM/SIGINT, in order); a failure
 * at start-up is logged and exits. Each service's main.ts and worker.ts is one call of this. Prometheus /metrics is
 * served here, on the internal metrics listener of the config (`metrics`), never on the API port.
 */
export function runProcess<C extends { logLevel: string; metrics?: { host: string; port: number } }>(
  name: string,
  loadConfig: () => C,
  start: (config: C, logger: Logger) => Promise<readonly ShutdownStep[]>,
): void {
  let logger: Logger | undefined;
  void (async () => {
    try {
      const config = loadConfig();
      logger = createLogger({ name, level: config.logLevel });
      const steps = await start(config, logger);
      const metrics = config.metrics ? await serveMetrics(name, config.metrics) : null;
      if (metrics) logger.info({ host: config.metrics!.host, port: metrics.port }, 'metrics listening');
      closeOnSignals(logger, [...steps, ...(metrics ? [['metrics', () => metrics.close()] as const] : [])]);
    } catch (err) {
      exitOnStartupFailure(logger, err);
    }
  })();
}
