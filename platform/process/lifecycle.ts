import type { Logger } from '../logger.js';

/**
 * Graceful shutdown for every entry point: on SIGTERM or SIGINT run the steps in order (stop
 * taking work, drain, close connections), then exit. A step that hangs past the timeout does not
 * keep the process alive forever.
 */
export function onShutdown(logger: Logger, timeoutMs: number, steps: Array<() => Promise<unknown>>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ timeoutMs }, 'shutdown timed out');
      process.exit(1);
    }, timeoutMs);
    timer.unref();
    try {
      for (const step of steps) await step();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
