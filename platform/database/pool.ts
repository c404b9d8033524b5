import pg from 'pg';
import { Socket } from 'node:net';
import { connectionWatch } from '../connection-watch.js';
import type { Logger } from '../logger.js';

// Postgres bigint and numeric arrive as strings by default; counts we keep fit in a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

/** How long a pool's work may take: sized by role (the request path short, background work long). */
export interface PoolLimits {
  /**
   * Longest one statement may run: Postgres cancels it past this (`statement_timeout`), and a
   * statement Postgres has not answered at all ANSWER_GRACE_MS later (a hung server, a network that
   * stopped delivering) ends its connection. 0: no limit.
   */
  statementTimeoutMs: number;
  /** Longest wait for a connection: making one, or for one of the pool's to be free. */
  connectTimeoutMs: number;
}

/** What a pool made without limits gets: no statement limit, 5 s to connect (the CLI, benches, tests). */
const NO_LIMITS: PoolLimits = { statementTimeoutMs: 0, connectTimeoutMs: 5_000 };

/**
 * Past a statement's limit, how long an answer may still take before the server is taken for
 * unreachable: Postgres's own cancel (SQLSTATE 57014) normally arrives first and keeps the
 * connection; only a server that answers nothing at all is cut.
 */
const ANSWER_GRACE_MS = 200;

/**
 * TCP keepalive from this long after the last traffic: a connection to a host that went away
 * without closing it (a network partition, a machine lost) is found dead by the kernel instead of
 * being waited on. A stopped process on a live host still acknowledges probes: the statement limit
 * covers that.
 */
const KEEPALIVE_INITIAL_DELAY_MS = 10_000;

/**
 * A Postgres pool that survives losing its server: losses are heard, logged once, and retried by
 * the next query; with `limits`, a server that stops answering fails a query within them instead
 * of holding it (docs/decisions/0380).
 */
export function createPool(url: string, poolSize = 10, logger?: Logger, limits: PoolLimits = NO_LIMITS): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_INITIAL_DELAY_MS,
    ...(limits.statementTimeoutMs > 0 && {
      statement_timeout: limits.statementTimeoutMs,
      Client: clientAnsweredWithin(limits.statementTimeoutMs + ANSWER_GRACE_MS),
    }),
  });
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

/** What a query that Postgres did not answer in time fails with; its connection is ended. */
export class PostgresNoAnswerError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(ms: number) {
    super(`PostgreSQL did not answer within ${ms} ms`);
    this.name = 'PostgresNoAnswerError';
  }
}

/**
 * A pg Client whose queries give up when the server has not answered within `ms`. pg's own
 * `query_timeout` fails the query but keeps the connection, whose next query (a transaction's
 * ROLLBACK, the next request's) then waits behind the unanswered one for the same time again. Here
 * the connection is ended instead: the query and any queued behind it fail at once, and the pool
 * drops the client. Streams (COPY) are left to `statement_timeout` and keepalive: their answer is
 * long by design.
 */
/** A client's socket, which pg's types do not show (`client.connection.stream`); null if pg moved it. */
function socketOf(client: pg.Client): Socket | null {
  const connection: unknown = Reflect.get(client, 'connection');
  const stream: unknown = typeof connection === 'object' && connection !== null ? Reflect.get(connection, 'stream') : null;
  return stream instanceof Socket ? stream : null;
}

function clientAnsweredWithin(ms: number): typeof pg.Client {
  return class extends pg.Client {
    // pg's query() has many overloads; this one passes each call through unchanged.
    override query(...args: unknown[]): never {
      const submittable = typeof (args[0] as { submit?: unknown } | null)?.submit === 'function';
      if (submittable) return (super.query as (...a: unknown[]) => never)(...args);
      const timer = setTimeout(() => {
        // Past the deadline the socket is cut: pg fails every query of this client with this error.
        socketOf(this)?.destroy(new PostgresNoAnswerError(ms));
      }, ms);
      const done = () => clearTimeout(timer);
      const last = args.length - 1;
      if (typeof args[last] === 'function') {
        const callback = args[last] as (...a: unknown[]) => void;
        args[last] = (...a: unknown[]) => {
          done();
          callback(...a);
        };
        return (super.query as (...a: unknown[]) => never)(...args);
      }
      const result = (super.query as (...a: unknown[]) => unknown)(...args) as Promise<unknown> | undefined;
      if (result) result.then(done, done);
      else done();
      return result as never;
    }
  };
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
// starting (57P01-57P03), out of connections (53300), a statement past its limit (57014: only
// statement_timeout cancels ours).
const UNAVAILABLE_SQLSTATE = /^(08...|57P0[123]|53300|57014)$/;
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
