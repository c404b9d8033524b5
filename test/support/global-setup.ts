/** Once per test run: a fresh test database with every migration applied, and clean queues. */
import { rm } from 'node:fs/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { migrateDatabase } from '../../db/migrate.js';
import { testEnv } from './env.js';

export async function setup() {
  const admin = new URL(testEnv.DATABASE_URL);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  // Quoted: a TEST_RUN_NAME may hold characters an identifier may not (h-analytics).
  await client.query(`drop database if exists ${pg.escapeIdentifier(decodeURIComponent(new URL(testEnv.DATABASE_URL).pathname.slice(1)))} with (force)`);
  await client.end();
  await migrateDatabase(testEnv.DATABASE_URL);
  await clearQueues();
  await rm(testEnv.STORAGE_DIR, { recursive: true, force: true });
}

export async function teardown() {
  await clearQueues();
}

async function clearQueues() {
  const redis = new Redis(testEnv.REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${testEnv.QUEUE_PREFIX}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  await redis.quit();
}
