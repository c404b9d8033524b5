/**
 * Slugs are resolved exactly (case-sensitively), but no two links may have slugs that differ only
 * in case: `A-Site` and `a-site` are look-alikes, so the second is a 409 whichever account asks.
 * Links that shared a slug ignoring case before that rule (migration 0003) keep theirs.
 */
import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { links } from '#domain/schema.js';
import { call, createTestAccount, type TestAccount } from '../../support/harness.js';
import { startScanStack, type ScanStack } from '../../support/redirect.js';

let stack: ScanStack;
let other: TestAccount;

beforeAll(async () => {
  stack = await startScanStack();
  other = await createTestAccount(stack.api.ctx);
});
afterAll(() => stack?.close());

let n = 0;
const unique = (base: string) => `${base}-${Date.now().toString(36)}${n++}`;
const website = (customUrl?: string) => ({
  name: 'Site',
  type: 'website',
  data: { url: 'https://example.com/' },
  ...(customUrl ? { linkConfigurations: { urlActive: true, customUrl } } : {}),
});
const create = (key: string, customUrl?: string) => call(stack.api.app, key, 'POST', '/api/v1/links', website(customUrl));

describe('custom slugs are unique ignoring case', () => {
  it('a slug differing only in case is a 409 at customUrl, in another account or the same', async () => {
    const slug = unique('A-Site');
    expect((await create(stack.me.key, slug)).statusCode).toBe(200);
    for (const key of [other.key, stack.me.key]) {
      for (const lookAlike of [slug.toLowerCase(), slug.toUpperCase()]) {
        const res = await create(key, lookAlike);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({ message: 'Custom URL is already in use' });
        expect(JSON.stringify(res.json())).toContain('linkConfigurations.customUrl');
      }
    }
  });

  it('renaming to a look-alike of another link is a 409; changing the case of its own slug is allowed', async () => {
    const theirs = unique('Menu');
    expect((await create(other.key, theirs)).statusCode).toBe(200);
    const mine = unique('mine');
    expect((await create(stack.me.key, mine)).statusCode).toBe(200);
    const rename = (from: string, to: string) => call(stack.api.app, stack.me.key, 'PUT', `/api/v1/links/${from}`, website(to));
    expect((await rename(mine, theirs.toLowerCase())).statusCode).toBe(409);
    expect((await rename(mine, mine.toUpperCase())).statusCode).toBe(200);
  });

  it('resolution stays exact: the look-alike path of a slug is a 404', async () => {
    const slug = unique('Exact');
    expect((await create(stack.me.key, slug)).statusCode).toBe(200);
    expect((await stack.redirect.get(`/${slug}`)).status).toBe(302);
    expect((await stack.redirect.get(`/${slug.toLowerCase()}`)).status).toBe(404);
  });
});

describe('links that already shared a slug ignoring case (before migration 0003)', () => {
  it('the migration keeps the oldest in the index and marks the others, which keep resolving', async () => {
    const steps = (await readFile(new URL('../../../db/migrations/0003_slug_case.sql', import.meta.url), 'utf8')).split(
      '--> statement-breakpoint',
    );
    const base = unique('legacy');
    const older = await stack.createLink(website());
    const newer = await stack.createLink(website());
    // The state before 0003 (no look-alike rule), in a transaction that is rolled back.
    const client = await stack.api.ctx.database.pool.connect();
    try {
      await client.query('begin');
      await client.query('drop index links_slug_lower_idx');
      await client.query('update links set slug_case_duplicate = false');
      await client.query(`update links set slug = $1, created_at = now() - interval '2 days' where id = $2`, [base, older.id]);
      await client.query(`update links set slug = $1, created_at = now() - interval '1 day' where id = $2`, [base.toUpperCase(), newer.id]);
      await client.query(steps[1]!);
      await client.query(steps[2]!);
      const { rows } = await client.query('select id, slug_case_duplicate from links where id = any($1)', [[older.id, newer.id]]);
      expect(Object.fromEntries(rows.map((r) => [r.id, r.slug_case_duplicate]))).toEqual({ [older.id]: false, [newer.id]: true });
      // The index still refuses a third look-alike.
      await expect(
        client.query(`update links set slug = $1 where id = (select id from links where id <> all($2) limit 1)`, [
          base.replace('l', 'L'),
          [older.id, newer.id],
        ]),
      ).rejects.toMatchObject({
        code: '23505',
        constraint: 'links_slug_lower_idx',
      });
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('a marked link resolves exactly, and once it takes a new slug that slug is checked like any other', async () => {
    const keep = unique('kept');
    expect((await create(stack.me.key, keep)).statusCode).toBe(200);
    // A link as migration 0003 leaves a look-alike: marked, outside the index.
    const legacy = await stack.createLink(website());
    await stack.api.ctx.db.update(links).set({ slug: keep.toUpperCase(), slugCaseDuplicate: true }).where(eq(links.id, legacy.id));
    expect((await stack.redirect.get(`/${keep.toUpperCase()}`)).status).toBe(302);
    const taken = unique('taken');
    expect((await create(other.key, taken)).statusCode).toBe(200);
    const put = (to: string) => call(stack.api.app, stack.me.key, 'PUT', `/api/v1/links/${keep.toUpperCase()}`, website(to));
    expect((await put(taken.toUpperCase())).statusCode).toBe(409);
    const fresh = unique('fresh');
    expect((await call(stack.api.app, stack.me.key, 'PUT', `/api/v1/links/${keep.toUpperCase()}`, website(fresh))).statusCode).toBe(200);
    const [row] = await stack.api.ctx.db.select().from(links).where(eq(links.id, legacy.id));
    expect(row).toMatchObject({ slug: fresh, slugCaseDuplicate: false });
    expect((await create(other.key, fresh.toUpperCase())).statusCode).toBe(409);
  });
});
