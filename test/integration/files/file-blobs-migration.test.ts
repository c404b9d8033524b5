/**
 * Migration 0002 (file_blobs) on a database that already has files: each file becomes its own blob
 * (same id, same object, no hash, ref_count 1), and the file functions find, share and delete them.
 * Runs on a database of its own, migrated to 0001 first, with rows written in the old shape.
 */
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '#infra/database.js';
import type { DatabaseHandle } from '#domain/database.js';
import { migrateDatabase } from '#platform/database/migrate.js';
import { fileBlobs, files } from '#domain/schema.js';
import { copyFiles, findAccountFiles, storeUpload } from '#domain/files/files.js';
import { createFsStorage } from '#platform/storage/fs-driver.js';
import { loadConfig } from '#platform/config/index.js';
import { pngBytes } from '../../support/fixtures.js';
import { databaseAtMigration, freshDatabase } from '../../support/migration-db.js';

const url = new URL(process.env.DATABASE_URL!);
url.pathname = `${url.pathname}_migration`;

let handle: DatabaseHandle;
const storageDir = join(tmpdir(), `qrlinks-migration-files-${process.pid}`);
const old = { account: '', files: [] as { id: string; key: string }[] };
const BYTES = pngBytes(5, 5);

beforeAll(async () => {
  await databaseAtMigration(url, 1);
  const before = new pg.Client({ connectionString: url.toString() });
  await before.connect();
  try {
    // Rows as the code before 0002 wrote them: the object key in files.storage_key.
    const { rows } = await before.query<{ id: string }>(`insert into accounts (name, plan) values ('old', 'pro') returning id`);
    old.account = rows[0]!.id;
    for (let i = 0; i < 2; i++) {
      const { rows: f } = await before.query<{ id: string }>(
        `insert into files (account_id, storage_key, content_type, size, original_name)
         values ($1, 'pending', 'image/png', $2, 'old.png') returning id`,
        [old.account, BYTES.length],
      );
      const key = `accounts/${old.account}/files/${f[0]!.id}`;
      await before.query(`update files set storage_key = $1 where id = $2`, [key, f[0]!.id]);
      old.files.push({ id: f[0]!.id, key });
    }
  } finally {
    await before.end();
  }
  await migrateDatabase(url.toString());
  handle = createDatabase(url.toString(), 2);
});

afterAll(async () => {
  await handle?.close();
  await freshDatabase(url, false);
  await rm(storageDir, { recursive: true, force: true });
});

describe('migration 0002: existing files become their own blobs', () => {
  it('keeps every file, its object key and its size; a blob per file, unhashed, one reference', async () => {
    const blobs = await handle.db.select().from(fileBlobs).where(eq(fileBlobs.accountId, old.account));
    expect(blobs.map((b) => b.id).sort()).toEqual(old.files.map((f) => f.id).sort());
    for (const f of old.files) {
      expect(blobs.find((b) => b.id === f.id)).toMatchObject({
        storageKey: f.key,
        sha256: null,
        refCount: 1,
        size: BYTES.length,
        contentType: 'image/png',
      });
      const [row] = await handle.db.select().from(files).where(eq(files.id, f.id));
      expect(row).toMatchObject({ blobId: f.id, originalName: 'old.png' });
      expect(row).not.toHaveProperty('storageKey');
    }
    expect((await findAccountFiles(handle.db, old.account, [old.files[0]!.id]))[0]!.storageKey).toBe(old.files[0]!.key);
  });

  it('migrated files can be shared, and new uploads of the same bytes are stored anew (old blobs have no hash)', async () => {
    const copies = await handle.db.transaction((tx) => copyFiles(tx, old.account, [old.files[0]!.id]));
    const [copy] = await handle.db
      .select()
      .from(files)
      .where(eq(files.id, copies.get(old.files[0]!.id)!));
    expect(copy!.blobId).toBe(old.files[0]!.id);
    const storage = createFsStorage({ root: storageDir });
    await storage.init();
    const config = loadConfig({ ...process.env, DATABASE_URL: url.toString(), STORAGE_DIR: storageDir });
    const stored = await storeUpload({ db: handle.db, config, storage }, old.account, { buffer: BYTES });
    const [row] = await handle.db.select().from(files).where(eq(files.id, stored.fileId));
    expect(old.files.map((f) => f.id)).not.toContain(row!.blobId);
  });
});
