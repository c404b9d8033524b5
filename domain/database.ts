/** The domain's tables over a Postgres pool: what every domain module queries through. */
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { createPool, type PoolLimits } from '../platform/database/pool.js';
import type { Logger } from '../platform/logger.js';
import * as schema from './schema.js';

export type Database = NodePgDatabase<typeof schema>;

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** The database or a transaction on it: what a function that may run inside a caller's transaction takes. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export function createDatabase(url: string, poolSize = 10, logger?: Logger, limits?: PoolLimits): DatabaseHandle {
  const pool = createPool(url, poolSize, logger, limits);
  return { db: drizzle(pool, { schema }), pool, close: () => pool.end() };
}

/**
 * A query the request path runs often, built by Drizzle once per database and run as a named
 * prepared statement: Drizzle skips rebuilding its SQL on every call, and Postgres parses it once
 * per connection. `prepare` builds it with `sql.placeholder` for its parameters and calls
 * `.prepare(name)`; the name must be unique among the process's prepared statements.
 */
export function preparedQuery<T>(prepare: (db: Database) => T): (db: Database) => T {
  const byDatabase = new WeakMap<Database, T>();
  return (db) => {
    let prepared = byDatabase.get(db);
    if (prepared === undefined) byDatabase.set(db, (prepared = prepare(db)));
    return prepared;
  };
}
