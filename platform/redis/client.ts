import { Redis } from 'ioredis';
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
 */
export function createFailFastRedis(url: string, commandTimeoutMs = 500, logger?: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  return watched(redis, logger);
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
