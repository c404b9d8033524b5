/**
 * One warning when a process loses Postgres or Redis, one line when it has it back: connection
 * errors repeat with every reconnect attempt (several a second), and before this they were
 * dropped without a word. All connections of one dependency in a process (same logger) share a
 * watch, so an outage is two lines, not two per connection.
 */
import type { Logger } from './logger.js';

type WatchLogger = Pick<Logger, 'warn' | 'info'>;

export class ConnectionWatch {
  private downSince: number | null = null;

  constructor(
    private readonly name: string,
    private readonly logger: WatchLogger,
  ) {}

  lost(err: unknown): void {
    if (this.downSince !== null) return;
    this.downSince = Date.now();
    const reason = err instanceof Error ? err.message : String(err);
    this.logger.warn({ dependency: this.name, err: reason }, `${this.name} connection lost; reconnecting`);
  }

  back(): void {
    if (this.downSince === null) return;
    this.logger.info({ dependency: this.name, downMs: Date.now() - this.downSince }, `${this.name} reachable again`);
    this.downSince = null;
  }
}

const watches = new WeakMap<WatchLogger, Map<string, ConnectionWatch>>();

/** The process's watch of `name` for this logger. */
export function connectionWatch(name: string, logger: WatchLogger): ConnectionWatch {
  let byName = watches.get(logger);
  if (!byName) watches.set(logger, (byName = new Map()));
  let watch = byName.get(name);
  if (!watch) byName.set(name, (watch = new ConnectionWatch(name, logger)));
  return watch;
}
