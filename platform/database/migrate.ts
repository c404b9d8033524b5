import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../db/migrations', import.meta.url));
// Any constant works; it only has to be the same in every process that migrates.
const MIGRATION_LOCK = 7_283_114;

/**
 * Brings the database to the newest schema. Creates the database first when it does not exist,
 * so `npm start` works on a fresh Postgres. Several processes may start at once (api, redirect,
 * worker): an advisory lock makes them apply the migrations one after the other, and the later
 * ones find nothing left to do.
 */
export async function migrateDatabase(url: string): Promise<void> {
  await createDatabaseIfMissing(url);
  // No statement limit: a migration rewriting a large table may take long, and runs once.
  // Keepalive finds a connection to a host that went away rather than waiting on it.
  const client = new pg.Client({ connectionString: url, keepAlive: true });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    // Ending the session below releases the lock anyway; an unlock that fails changes nothing.
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    await client.end();
  }
}

async function createDatabaseIfMissing(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!name) return;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  try {
    await client.connect();
  } catch {
    // No maintenance database to reach (managed Postgres): assume the target exists.
    return;
  }
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database ${pg.escapeIdentifier(name)}`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // created by a concurrent starter
      });
    }
  } finally {
    await client.end();
  }
}
