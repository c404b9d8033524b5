/**
 * What a process waits for before it starts serving: Postgres and Redis answering. Without it a
 * role facing an unreachable Redis waited for it silently (ioredis retries without end), and `npm
 * start` looked "running" while nothing listened. Each check is given a few seconds; what does not
 * answer is named in one line on stderr, with its URL (password hidden) and what to do, and the
 * checks are repeated until both answer: a role started during an outage (a restart, a new
 * replica) comes up when its dependencies do, rather than dying and being restarted in a loop.
 */
import pg from 'pg';
import { Redis } from 'ioredis';
import type { Config } from '../config/index.js';

const CHECK_TIMEOUT_MS = 5000;
const RETRY_EVERY_MS = 2000;
/** Postgres's SQLSTATE for "database does not exist". */
const INVALID_CATALOG_NAME = '3D000';

/** Resolves once both answer; meanwhile says once per change what it waits for, on stderr. */
export async function waitForDependencies(config: Pick<Config, 'DATABASE_URL' | 'REDIS_URL'>, who: string): Promise<void> {
  let said = '';
  for (;;) {
    const problem = (await postgresProblem(config.DATABASE_URL)) ?? (await redisProblem(config.REDIS_URL));
    if (!problem) {
      if (said) process.stderr.write(`${who}: PostgreSQL and Redis answer now; starting\n`);
      return;
    }
    if (problem !== said) process.stderr.write(`${who}: ${problem} Waiting for it (checking every ${RETRY_EVERY_MS / 1000} s).\n`);
    said = problem;
    await new Promise((r) => setTimeout(r, RETRY_EVERY_MS));
  }
}

async function postgresProblem(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: CHECK_TIMEOUT_MS });
  client.on('error', () => {}); // a connection lost during the check is reported by the check itself
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    // The server answers and the database is not made yet: migrations create it.
    if ((err as { code?: string }).code === INVALID_CATALOG_NAME) return null;
    return unreachable('PostgreSQL', 'DATABASE_URL', url, err, 'postgres');
  } finally {
    // The check's answer is made; a client that fails to close was already broken, and reported above.
    await client.end().catch(() => undefined);
  }
}

async function redisProblem(url: string): Promise<string | null> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CHECK_TIMEOUT_MS,
    commandTimeout: CHECK_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  redis.on('error', () => {}); // the rejected connect() below carries the same error
  try {
    await redis.connect();
    await redis.ping();
    return null;
  } catch (err) {
    return unreachable('Redis', 'REDIS_URL', url, err, 'redis');
  } finally {
    redis.disconnect();
  }
}

function unreachable(name: string, variable: string, url: string, err: unknown, service: string): string {
  const reason = err instanceof Error && err.message ? err.message.split('\n')[0] : String(err);
  return (
    `cannot reach ${name} at ${variable}=${withoutPassword(url)} (${reason}). ` +
    `Start it (installed locally, or \`docker compose up -d ${service}\`), or set ${variable} to one that runs.`
  );
}

/** The URL as it can be shown in a log: its password replaced. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '(an unparsable URL)';
  }
}
