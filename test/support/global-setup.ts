/** Once per test run: for each worker, a fresh test database with every migration applied, and clean queues. */
import { execFileSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { migrateDatabase } from '#platform/database/migrate.js';
import { ensureGeoTable } from '#platform/geo/geo-table-build.js';
import { TEST_WORKERS, testEnvOf } from './env.js';
import { ROOT } from './processes.js';

const workerEnvs = () => Array.from({ length: TEST_WORKERS }, (_, i) => testEnvOf(String(i + 1)));

export async function setup() {
  // Spawned roles run the compiled bundles (test/support/processes.ts): compile what changed.
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
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
  const name = pg.escapeIdentifier(new URL(env.DATABASE_URL).pathname.slice(1));
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  // A test database need not survive a crash of the machine: a commit need not wait for its WAL
  // to reach the disk (every session of every role and test process inherits this).
  await client.query(`alter database ${name} set synchronous_commit = off`);
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
