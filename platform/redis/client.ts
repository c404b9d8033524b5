import { Command, Redis, type RedisOptions } from 'ioredis';
import { connectionWatch } from '../connection-watch.js';
import type { Logger } from '../logger.js';

export type { Redis };

/**
 * BullMQ needs `maxRetriesPerRequest: null` on connections that block (workers); using it on
 * every connection keeps one way of making them.
 */
export function createRedis(url: string, logger?: Logger): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
  return watched(redis, logger);
}

/**
 * For the scan path, where waiting is worse than failing: while Redis is unreachable a command
 * fails at once (no offline queue) instead of holding a scanner's request, and a command to a
 * server that stopped answering gives up after `commandTimeoutMs`. Callers fall back (Postgres,
 * a local buffer) and retry later.
 *
 * A circuit breaker stops a frozen server from costing every request that timeout: once
 * BREAKER_TIMEOUTS commands in a row time out, with no answer between them, commands fail at once
 * (`RedisSkippedError`) while a PING every BREAKER_PROBE_MS asks whether Redis answers again; its
 * answer, or a new connection being ready, closes the breaker (docs/decisions/0381).
 */
export function createFailFastRedis(url: string, commandTimeoutMs = 500, logger?: Logger): Redis {
  const redis = new BreakerRedis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  return watched(redis, logger);
}

/** How often an open breaker asks Redis whether it answers again. */
const BREAKER_PROBE_MS = 1000;
/**
 * Timeouts in a row that open the breaker: one slow answer on a busy machine is not a frozen
 * server, and opening for it would move a burst's lookups onto Postgres.
 */
const BREAKER_TIMEOUTS = 3;

/** What a command fails with while the breaker is open: it was not sent. */
export class RedisSkippedError extends Error {
  constructor() {
    super('Redis is not answering; the command was not sent');
    this.name = 'RedisSkippedError';
  }
}

// ioredis's words for a command that got no answer in time. One that finds no connection fails at
// once anyway (no offline queue), and the connection being made again closes the breaker.
const UNANSWERED = 'Command timed out';

/** The breaker's own PINGs, which go to Redis while other commands are skipped. */
const probes = new WeakSet<Command>();

class BreakerRedis extends Redis {
  private open = false;
  /** Commands timed out since the last answer. */
  private timeouts = 0;
  private probe: NodeJS.Timeout | undefined;

  constructor(url: string, options: RedisOptions) {
    super(url, options);
    // A connection made afresh answers: whatever failed was the old one's.
    this.on('ready', () => this.close());
    this.on('end', () => this.close());
  }

  override sendCommand(command: Command, stream?: Parameters<Redis['sendCommand']>[1]): unknown {
    // Only a connection that is up can have stopped answering; while one is being made, its
    // handshake must go through (and other commands fail at once anyway, with no offline queue).
    if (this.open && this.status === 'ready' && !probes.has(command)) {
      command.reject(new RedisSkippedError());
      return command.promise;
    }
    const sent = super.sendCommand(command, stream);
    command.promise.then(
      () => (this.timeouts = 0),
      (err: unknown) => {
        // A Redis error reply (a script's error) is an answer too.
        if (!(err instanceof Error) || err.message !== UNANSWERED) this.timeouts = 0;
        else if (++this.timeouts >= BREAKER_TIMEOUTS) this.trip();
      },
    );
    return sent;
  }

  private trip(): void {
    if (this.open || this.status === 'end') return;
    this.open = true;
    this.probe = setInterval(() => {
      const ping = new Command('ping', []);
      probes.add(ping);
      this.sendCommand(ping);
      ping.promise.then(
        () => this.close(),
        () => undefined,
      );
    }, BREAKER_PROBE_MS).unref();
  }

  private close(): void {
    this.open = false;
    this.timeouts = 0;
    clearInterval(this.probe);
  }
}

/**
 * Connection errors are retried by ioredis and reported by /ready; they must not crash the
 * process. With a logger, the outage and the recovery are logged once each (platform/connection-watch.ts).
 */
function watched(redis: Redis, logger: Logger | undefined): Redis {
  if (!logger) {
    redis.on('error', () => {}); // callers without a logger (CLI, tests, benches) see failures in their own calls
    return redis;
  }
  const watch = connectionWatch('Redis', logger);
  redis.on('error', (err) => watch.lost(err));
  redis.on('ready', () => watch.back());
  return redis;
}
