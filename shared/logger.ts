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
