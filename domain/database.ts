/** The domain's tables over a Postgres pool: what every domain module queries through. */
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { Pool } from '#platform/database/raw.js';
import type * as schema from './schema.js';

export type Database = NodePgDatabase<typeof schema>;

export interface DatabaseHandle {
  db: Database;
  /** The pool under `db`, for the few modules that run SQL of their own (docs/decisions/0421). */
  pool: Pool;
  close(): Promise<void>;
}

/** The database or a transaction on it: what a function that may run inside a caller's transaction takes. */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

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
