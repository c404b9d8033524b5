/** Once per test run: for each worker, a fresh test database with every migration applied, and clean queues. */
import { rm } from 'node:fs/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { migrateDatabase } from '../../platform/database/migrate.js';
import { ensureGeoTable } from '../../domain/scans/geo-table-build.js';
import { TEST_WORKERS, testEnvOf } from './env.js';

const workerEnvs = () => Array.from({ length: TEST_WORKERS }, (_, i) => testEnvOf(String(i + 1)));

export async function setup() {
  // The geo table is built here if missing (once per DB-IP version), not by the first redirect
  // process a test starts, which would spend its start-up timeout building it.
  ensureGeoTable();
  await Promise.all(workerEnvs().map(prepare));
}

export async function teardown() {
  for (const env of workerEnvs()) await clearQueues(env);
}

async function prepare(env: ReturnType<typeof testEnvOf>) {
  const admin = new URL(env.DATABASE_URL);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`drop database if exists ${pg.escapeIdentifier(new URL(env.DATABASE_URL).pathname.slice(1))} with (force)`);
  await client.end();
  await migrateDatabase(env.DATABASE_URL);
  await clearQueues(env);
  await rm(env.STORAGE_DIR, { recursive: true, force: true });
  // Write-ahead files a redirect of an earlier run kept (no worker wrote their batches) belong to its database.
  await rm(env.SCAN_SPOOL_DIR, { recursive: true, force: true });
}

async function clearQueues(env: ReturnType<typeof testEnvOf>) {
  const redis = new Redis(env.REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${env.REDIS_NAMESPACE}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  await redis.quit();
}
