import { pino, type Logger } from 'pino';
import type { Config } from './config/index.js';

export type { Logger };

/** JSON logs, one logger per process; `role` says which process wrote a line. */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>, role: string): Logger {
  return pino({
    level: config.LOG_LEVEL,
    base: { role, pid: process.pid },
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
  });
}

/**
 * A warning for a failure that can repeat many times a second (a cache write, a best-effort
 * update): logged at most once per `everyMs`, with how many more happened meanwhile, so a broken
 * dependency shows in the log without flooding it.
 */
export function throttledWarning(
  message: string,
  everyMs = 60_000,
): (logger: Logger, err: unknown, context?: Record<string, unknown>) => void {
  let lastAt = 0;
  let unsaid = 0;
  return (logger, err, context) => {
    const now = Date.now();
    if (now - lastAt < everyMs) {
      unsaid++;
      return;
    }
    logger.warn({ ...context, err: err instanceof Error ? err.message : String(err), alsoSince: unsaid }, message);
    lastAt = now;
    unsaid = 0;
  };
}
