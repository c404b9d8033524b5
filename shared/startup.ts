/**
 * What a process checks before it starts serving: Postgres and Redis answer. Without it a role
 * facing an unreachable Redis waited for it for ever (ioredis retries without end), and `npm
 * start` looked "running" while nothing listened. Each is given a few seconds; the first that does
 * not answer is named in one line, with its URL (password hidden) and what to do, and the process
 * exits 1.
 */
import pg from 'pg';
import { Redis } from 'ioredis';
import type { Config } from './config/index.js';

const CHECK_TIMEOUT_MS = 5000;
/** Postgres's SQLSTATE for "database does not exist". */
const INVALID_CATALOG_NAME = '3D000';

/** Resolves when both answer; otherwise writes the line to stderr and exits 1. */
export async function requireDependencies(config: Pick<Config, 'DATABASE_URL' | 'REDIS_URL'>, who: string): Promise<void> {
  const problem = (await postgresProblem(config.DATABASE_URL)) ?? (await redisProblem(config.REDIS_URL));
  if (!problem) return;
  process.stderr.write(`${who}: ${problem}\n`);
  process.exit(1);
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
    await client.end().catch(() => {});
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
