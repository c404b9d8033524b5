import pg from 'pg';
import { connectionWatch } from '../connection-watch.js';
import type { Logger } from '../logger.js';

// Postgres bigint and numeric arrive as strings by default; counts we keep fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** A Postgres pool that survives losing its server: losses are heard, logged once, and retried by the next query. */
export function createPool(url: string, poolSize = 10, logger?: Logger): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5_000 });
  // An idle client losing its connection (Postgres restart) must not crash the process; with a
  // logger, the loss and the next successful connection are logged once each.
  const watch = logger && connectionWatch('PostgreSQL', logger);
  pool.on('error', (err) => watch?.lost(err));
  if (watch) pool.on('connect', () => watch.back());
  // A checked-out client (a transaction between two statements, a cursor) losing its connection
  // reports it as its own 'error' event, which pg-pool only listens to on idle clients: unheard,
  // it would end the process. Its next query fails with the loss, and the client is then released
  // as broken, so nothing more is needed than hearing it.
  pool.on('connect', (client) => client.on('error', ignoreErrorHeardByQuery));
  return pool;
}

function ignoreErrorHeardByQuery(): void {}

/**
 * Whether `err` is Postgres refusing a row for one of these unique indexes (23505), as thrown by
 * pg itself or wrapped by Drizzle (in `cause`).
 */
export function isUniqueViolation(err: unknown, ...indexes: string[]): boolean {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } } | null;
  const pgError = e?.code ? e : e?.cause;
  return pgError?.code === '23505' && indexes.includes(pgError.constraint ?? '');
}

// SQLSTATEs of a Postgres that cannot serve now: class 08 (connection exception), shutting down or
// starting (57P01-57P03), out of connections (53300).
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300)$/;
// Node's codes for a server that cannot be reached.
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
// What pg says of a connection that broke or could not be made in time.
const UNAVAILABLE_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable/i;

/**
 * Whether `err` (from pg, or wrapped by Drizzle in `cause`) says Postgres is unreachable or not
 * serving right now, rather than anything about the query: a failure worth retrying later.
 */
export function isConnectionFailure(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | null, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === 'string' && (UNAVAILABLE_SQLSTATE.test(e.code) || UNREACHABLE_CODES.has(e.code))) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message)) return true;
    // Node's AggregateError of every address it tried.
    if (Array.isArray(e.errors) && e.errors.some(isConnectionFailure)) return true;
  }
  return false;
}
