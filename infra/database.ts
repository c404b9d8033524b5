/** The domain's tables over a Postgres pool: the handle every process is built with. */
import { drizzle } from 'drizzle-orm/node-postgres';
import type { DatabaseHandle } from '#domain/database.js';
import * as schema from '#domain/schema.js';
import { createPool, type PoolLimits } from '#platform/database/pool.js';
import type { Logger } from '#platform/logger.js';

export function createDatabase(url: string, poolSize = 10, logger?: Logger, limits?: PoolLimits): DatabaseHandle {
  const pool = createPool(url, poolSize, logger, limits);
  return { db: drizzle(pool, { schema }), pool, close: () => pool.end() };
}
