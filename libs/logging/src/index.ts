import { pino, type Logger, type LoggerOptions } from 'pino';
import { AsyncLocalStorage } from 'node:async_hooks';

export type { Logger };

/** Request-scoped context (request id, user) carried through async calls, HTTP handlers, events and jobs. */
export interface LogContext {
  requestId?: string;
  userId?: number;
}

const contextStorage = new AsyncLocalStorage<LogContext>();

export function runWithLogContext<T>(context: LogContext, fn: () => T): T {
  return contextStorage.run(context, fn);
}

export function currentLogContext(): LogContext | undefined {
  return contextStorage.getStore();
}

/**
 * Structured JSON logs; every line written inside a request carries its request id. Services log to stdout; a
 * command-line tool whose stdout is its answer (a JSON report) logs to stderr (`to: 'stderr'`).
 */
export function createLogger(
  options: { name: string; level: string; to?: 'stdout' | 'stderr' } & Pick<LoggerOptions, 'redact'>,
): Logger {
  const settings: LoggerOptions = {
    name: options.name,
    level: options.level,
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: options.redact ?? ['req.headers.authorization', '*.password', '*.api_key'],
    mixin() {
      const ctx = contextStorage.getStore();
      if (!ctx) return {};
      return { request_id: ctx.requestId, user_id: ctx.userId };
    },
    formatters: { level: (label) => ({ level: label }) },
  };
  return options.to === 'stderr' ? pino(settings, pino.destination({ fd: 2, sync: true })) : pino(settings);
}
