/**
 * For tests of one migration on existing rows: a database of their own, made empty, and the
 * migrations up to the one before, so rows can be written in the shape older code wrote.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

const MIGRATIONS = fileURLToPath(new URL('../../db/migrations', import.meta.url));

/** The database of `url`, dropped if it exists and, unless `create` is false, made again empty. */
export async function freshDatabase(url: URL, create = true): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const name = pg.escapeIdentifier(decodeURIComponent(url.pathname.slice(1)));
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`drop database if exists ${name} with (force)`);
    if (create) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

/** The migrations up to and including `lastIdx`, in a folder of their own. */
async function migrationsUpTo(lastIdx: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'qrlinks-migrations-'));
  await cp(MIGRATIONS, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((e) => e.idx <= lastIdx);
  await writeFile(journalPath, JSON.stringify(journal));
  return dir;
}

/** The database of `url` made empty, then migrated up to and including `lastIdx`. */
export async function databaseAtMigration(url: URL, lastIdx: number): Promise<void> {
  await freshDatabase(url);
  await migrateUpTo(url, lastIdx);
}

/** The database of `url` as it is, migrated on up to and including `lastIdx`. */
export async function migrateUpTo(url: URL, lastIdx: number): Promise<void> {
  const folder = await migrationsUpTo(lastIdx);
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: folder });
  } finally {
    await client.end();
    await rm(folder, { recursive: true, force: true });
  }
}
