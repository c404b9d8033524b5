import { Redis } from 'ioredis';

export type { Redis };

/**
 * BullMQ needs `maxRetriesPerRequest: null` on connections that block (workers); using it on
 * every connection keeps one way of making them.
 */
export function createRedis(url: string): Redis {
  const redis = new Redis(url, { maxRetriesPerRequest: null, enableReadyCheck: true, lazyConnect: false });
  // Connection errors are retried by ioredis; /ready reports them. Do not crash on them.
  redis.on('error', () => {});
  return redis;
}

/**
 * For the scan path, where waiting is worse than failing: while Redis is unreachable a command
 * fails at once (no offline queue) instead of holding a scanner's request, and a command to a
 * server that stopped answering gives up after `commandTimeoutMs`. Callers fall back (Postgres,
 * a local buffer) and retry later.
 */
export function createFailFastRedis(url: string, commandTimeoutMs = 500): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
  });
  redis.on('error', () => {});
  return redis;
}
