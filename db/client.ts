import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { connectionWatch } from '../shared/connection-watch.js';
import type { Logger } from '../shared/logger.js';
import * as schema from './schema.js';

export type Database = NodePgDatabase<typeof schema>;

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

// Postgres bigint and numeric arrive as strings by default; counts we keep fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export function createDatabase(url: string, poolSize = 10, logger?: Logger): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection (Postgres restart) must not crash the process; with a
  // logger, the loss and the next successful connection are logged once each.
  const watch = logger && connectionWatch('PostgreSQL', logger);
  pool.on('error', (err) => watch?.lost(err));
  if (watch) pool.on('connect', () => watch.back());
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

/**
 * Whether `err` is Postgres refusing a row for one of these unique indexes (23505), as thrown by
 * pg itself or wrapped by Drizzle (in `cause`).
 */
export function isUniqueViolation(err: unknown, ...indexes: string[]): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } } | null;
  const pgError = e?.code ? e : e?.cause;
  return pgError?.code === '23505' && indexes.includes(pgError.constraint ?? '');
}
