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
