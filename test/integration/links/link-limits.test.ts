import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { insertBulkLinks } from '#domain/bulk/bulk.js';
import { LINK_LIMITS } from '#domain/links/usage.js';
import { call, createLinkVia, createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';

/**
 * An account holds at most its plan's links, and its links' non-file content (data and page
 * style) at most its plan's bytes, however the links are made; the counts the limits are read
 * from stay equal to the links themselves (docs/decisions/0372-links-and-their-content-bounded-per-plan.md).
 */
let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const website = (name = 'Link') => ({ name, type: 'website', data: { url: 'https://example.com/' } });

/** `count` real links written straight into the table (as a restore or an old import would), each with `bytes` of text in its data. */
async function insertLinks(accountId: string, count: number, bytes = 10): Promise<void> {
  await api.ctx.database.pool.query(
    `insert into links (account_id, slug, name, type, meta_data, qr_options)
     select $1::uuid, 'lim' || replace(gen_random_uuid()::text, '-', ''), 'seed', 'website',
            jsonb_build_object('url', 'https://example.com/', 'note', repeat('x', $3::int)), '{}'::jsonb
     from generate_series(1, $2::int)`,
    [accountId, count, bytes],
  );
}

async function counted(accountId: string) {
  const { rows } = await api.ctx.database.pool.query<{ links: string; data_bytes: string }>(
    'select links, data_bytes from account_link_usage where account_id = $1',
    [accountId],
  );
  return { links: Number(rows[0]?.links ?? 0), dataBytes: Number(rows[0]?.data_bytes ?? 0) };
}

async function recounted(accountId: string) {
  const { rows } = await api.ctx.database.pool.query<{ links: string; data_bytes: string | null }>(
    `select count(*) as links, sum(octet_length(meta_data::text) + coalesce(octet_length(page_style::text), 0)) as data_bytes
     from links where account_id = $1`,
    [accountId],
  );
  return { links: Number(rows[0]!.links), dataBytes: Number(rows[0]!.data_bytes ?? 0) };
}

describe('link limits per plan', () => {
  it('the counts follow every way a link is made, changed and removed', async () => {
    const me = await createTestAccount(api.ctx);
    const a = await createLinkVia(api.app, me.key);
    const b = await createLinkVia(api.app, me.key, {
      name: 'Landing',
      type: 'landing',
      data: { landingHTML: `<p>${'word '.repeat(2000)}</p>` },
    });
    expect((await call(api.app, me.key, 'POST', `/api/v1/links/${a.slug}/duplicate`, {})).statusCode).toBe(200);
    const put = await call(api.app, me.key, 'PUT', `/api/v1/links/${b.slug}`, {
      name: 'Landing',
      type: 'landing',
      data: { landingHTML: '<p>short now</p>' },
      pageStyle: { accentColor: '#112233', title: 'Corner cafe' },
    });
    expect(put.statusCode).toBe(200);
    const cafe = await call(api.app, me.key, 'POST', '/api/v1/cafes', { name: 'Corner cafe' });
    expect(cafe.statusCode).toBe(200);
    await insertBulkLinks(api.ctx, me.accountId, randomUUID(), {
      type: 'website',
      records: [1, 2, 3].map((i) => ({ name: `Bulk ${i}`, data: { url: `https://example.com/${i}` } })),
      qrStyle: {},
      folderId: null,
    });
    expect((await call(api.app, me.key, 'DELETE', `/api/v1/links/${a.slug}`)).statusCode).toBe(200);
    const now = await counted(me.accountId);
    expect(now).toEqual(await recounted(me.accountId));
    // a and b, a's copy, the cafe's link and three bulk links; then a deleted.
    expect(now.links).toBe(6);
    // The account's deletion takes its counts with it.
    await api.ctx.database.pool.query('delete from accounts where id = $1', [me.accountId]);
    expect(await counted(me.accountId)).toEqual({ links: 0, dataBytes: 0 });
  });

  it('a starter account at its link limit is refused another link, however it is asked; deleting one makes room', async () => {
    const me = await createTestAccount(api.ctx, { plan: 'starter' });
    const limit = LINK_LIMITS.starter.links;
    await insertLinks(me.accountId, limit - 1);
    const last = await createLinkVia(api.app, me.key, website('The last one'));

    const refused = {
      code: 'link_limit_reached',
      message: `Link limit reached: the starter plan holds up to ${limit.toLocaleString('en-US')} links and this account has ${limit.toLocaleString('en-US')}. Delete links you no longer need.`,
    };
    const create = await call(api.app, me.key, 'POST', '/api/v1/links', website('One too many'));
    expect(create.statusCode).toBe(409);
    expect(create.json()).toEqual(refused);
    const duplicate = await call(api.app, me.key, 'POST', `/api/v1/links/${last.slug}/duplicate`, {});
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual(refused);
    const cafe = await call(api.app, me.key, 'POST', '/api/v1/cafes', { name: 'Corner cafe' });
    expect(cafe.statusCode).toBe(409);
    expect((await call(api.app, me.key, 'GET', '/api/v1/cafes')).json().data).toEqual([]);
    const bulk = await call(api.app, me.key, 'POST', '/api/v1/bulk-generate', {
      type: 'website',
      data: [
        { name: 'A', url: 'https://example.com/a' },
        { name: 'B', url: 'https://example.com/b' },
      ],
    });
    expect(bulk.statusCode).toBe(409);
    expect(bulk.json().message).toContain('; these 2 do not fit');
    expect(await counted(me.accountId)).toEqual(await recounted(me.accountId));
    expect((await counted(me.accountId)).links).toBe(limit);

    // Editing what it has is never refused.
    const edit = await call(api.app, me.key, 'PUT', `/api/v1/links/${last.slug}`, website('Renamed'));
    expect(edit.statusCode).toBe(200);
    expect((await call(api.app, me.key, 'DELETE', `/api/v1/links/${last.slug}`)).statusCode).toBe(200);
    expect((await call(api.app, me.key, 'POST', '/api/v1/links', website('Fits again'))).statusCode).toBe(200);
  });

  it("a starter account's link content stops at its quota; shrinking a page always works", async () => {
    const me = await createTestAccount(api.ctx, { plan: 'starter' });
    const quota = LINK_LIMITS.starter.dataBytes;
    // Just under the quota in 400 KB links (as landing pages would be).
    const each = 400_000;
    await insertLinks(me.accountId, Math.floor(quota / each) - 1, each);
    const room = quota - (await counted(me.accountId)).dataBytes;
    expect(room).toBeGreaterThan(0);
    expect(room).toBeLessThan(2 * each);

    const page = (size: number) => ({ name: 'Page', type: 'landing', data: { landingHTML: `<p>${'x'.repeat(size)}</p>` } });
    const tooBig = await call(api.app, me.key, 'POST', '/api/v1/links', page(room + 100));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({ code: 'link_data_quota_exceeded' });
    expect(tooBig.json().message).toMatch(/^Link content quota exceeded: the starter plan stores up to 256 MiB of link content/);
    const fits = await createLinkVia(api.app, me.key, page(Math.floor(room / 2)));
    const grow = await call(api.app, me.key, 'PUT', `/api/v1/links/${fits.slug}`, page(room));
    expect(grow.statusCode).toBe(413);
    const shrink = await call(api.app, me.key, 'PUT', `/api/v1/links/${fits.slug}`, page(100));
    expect(shrink.statusCode).toBe(200);
    expect(await counted(me.accountId)).toEqual(await recounted(me.accountId));
  });
});
