/**
 * Additions for the console's links list: GET /links?fields= (each link holding only the fields
 * named, so stored designs and their logos stay out of a list page) and GET
 * /analytics/links-by-day (a page's sparklines in one read), against real Postgres.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkResponse } from '#api/routes/links/schemas.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import type { ScanEvent } from '#domain/scans/types.js';
import { pngBytes } from '../../support/fixtures.js';
import { call, createLinkVia, createTestAccount, type TestAccount, startTestApi, type TestApi } from '../../support/harness.js';

let api: TestApi;
let owner: TestAccount;
let other: TestAccount;
const DAY = 86_400_000;
const logo = `data:image/png;base64,${pngBytes(64, 64).toString('base64')}`;
const made: Record<string, { slug: string; id: string }> = {};

beforeAll(async () => {
  api = await startTestApi();
  owner = await createTestAccount(api.ctx, { plan: 'pro' });
  other = await createTestAccount(api.ctx);
  made.site = await createLinkVia(api.app, owner.key, { name: 'Site', type: 'website', data: { url: 'https://example.com/menu' } });
  made.card = await createLinkVia(api.app, owner.key, {
    name: 'Card',
    type: 'vcard',
    data: { firstName: 'Ana', lastName: 'Souza', email: 'ana@example.com' },
  });
  made.theirs = await createLinkVia(api.app, other.key, { name: 'Theirs', type: 'website', data: { url: 'https://example.org/' } });
  for (const { slug } of [made.site, made.card]) {
    const res = await call(api.app, owner.key, 'PATCH', `/api/v1/links/${slug}`, {
      qrCode: { image: logo, dotsOptions: { type: 'dots', color: '#123456' } },
    });
    expect(res.statusCode).toBe(200);
  }
});
afterAll(() => api?.close());

describe('GET /links?fields=', () => {
  it('without fields, answers every field of every link, as GET /links/:id does', async () => {
    const res = await call(api.app, owner.key, 'GET', '/api/v1/links?sort_by=name');
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    expect(meta).toEqual({ currentPage: 1, totalPages: 1 });
    expect(data.map((l: { name: string }) => l.name)).toEqual(['Card', 'Site']);
    for (const link of data) {
      expect(Object.keys(link).sort()).toEqual(Object.keys(linkResponse.shape).sort());
      expect(link).toEqual((await call(api.app, owner.key, 'GET', `/api/v1/links/${link.dynamic_link_id}`)).json().data);
      expect(link.qr_options.image).toBe(logo);
    }
  });

  it('with fields, each link holds only what was named (and its ids), and the page is much smaller', async () => {
    const full = await call(api.app, owner.key, 'GET', '/api/v1/links?sort_by=name');
    const fields = 'name,type,status,meta_data.url,meta_data.firstName,meta_data.lastName,qr_options.dotsOptions,qr_options.nothing';
    const lean = await call(api.app, owner.key, 'GET', `/api/v1/links?sort_by=name&fields=${encodeURIComponent(fields)}`);
    expect(lean.statusCode).toBe(200);
    const dots = full.json().data[0].qr_options.dotsOptions;
    expect(dots).toMatchObject({ type: 'dots', color: '#123456' });
    expect(lean.json()).toEqual({
      data: [
        {
          id: made.card!.id,
          dynamic_link_id: made.card!.slug,
          name: 'Card',
          type: 'vcard',
          status: 'active',
          meta_data: { firstName: 'Ana', lastName: 'Souza' },
          qr_options: { dotsOptions: dots },
        },
        {
          id: made.site!.id,
          dynamic_link_id: made.site!.slug,
          name: 'Site',
          type: 'website',
          status: 'active',
          meta_data: { url: 'https://example.com/menu' },
          qr_options: { dotsOptions: dots },
        },
      ],
      meta: { currentPage: 1, totalPages: 1 },
    });
    expect(lean.body.length * 5).toBeLessThan(full.body.length);
    expect(lean.body).not.toContain('base64');
    // A field named whole is all of it, whatever members are named beside it.
    const whole = await call(api.app, owner.key, 'GET', '/api/v1/links?sort_by=name&fields=qr_options.margin,qr_options');
    expect(whole.json().data[1].qr_options).toEqual(full.json().data[1].qr_options);
  });

  it('refuses a name that is not a field of a link, or a member of a field that is not an object', async () => {
    for (const fields of ['nme', 'name.first', 'meta_data.url.host', 'qr_options.a b']) {
      const res = await call(api.app, owner.key, 'GET', `/api/v1/links?fields=${encodeURIComponent(fields)}`);
      expect(res.statusCode, fields).toBe(400);
      expect(res.json().errors[0].path).toBe('fields');
    }
  });
});

function scan(account: TestAccount, linkId: string, at: number, isBot = false): ScanEvent {
  return {
    id: randomUUID(),
    linkId,
    accountId: account.accountId,
    at,
    browserName: null,
    deviceType: null,
    deviceVendor: null,
    osName: null,
    countryName: null,
    region: null,
    city: null,
    isBot,
  };
}

describe('GET /analytics/links-by-day', () => {
  it("answers each named link's scans per local day, in the order asked, leaving out other accounts' links", async () => {
    const now = Date.now();
    const twoDaysAgo = now - 2 * DAY;
    await ingestScanBatches(api.ctx.database.pool, [
      encodeScanBatch([
        scan(owner, made.site!.id, now - 1000),
        scan(owner, made.site!.id, now - 2000),
        scan(owner, made.site!.id, now - 3000, true),
        scan(owner, made.card!.id, twoDaysAgo),
        scan(other, made.theirs!.id, now - 1000),
      ]),
    ]);
    const ids = [made.card!.slug, made.theirs!.slug, made.site!.slug, 'no-such-link'].join(',');
    const res = await call(api.app, owner.key, 'GET', `/api/v1/analytics/links-by-day?ids=${ids}&days=7&timezone=UTC`);
    expect(res.statusCode).toBe(200);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const days = Array.from({ length: 7 }, (_, i) => day(now - (6 - i) * DAY));
    expect(res.json()).toEqual({
      data: {
        days,
        links: [
          { dynamic_link_id: made.card!.slug, scans: days.map((d) => (d === day(twoDaysAgo) ? 1 : 0)) },
          { dynamic_link_id: made.site!.slug, scans: days.map((d) => (d === day(now) ? 2 : 0)) },
        ],
      },
    });
    const withBots = await call(
      api.app,
      owner.key,
      'GET',
      `/api/v1/analytics/links-by-day?ids=${made.site!.slug}&days=1&exclude_bots=false`,
    );
    expect(withBots.json().data.links[0].scans).toEqual([3]);
  });

  it('refuses more days than a month, and a missing ids', async () => {
    expect((await call(api.app, owner.key, 'GET', `/api/v1/analytics/links-by-day?ids=x&days=32`)).statusCode).toBe(400);
    expect((await call(api.app, owner.key, 'GET', `/api/v1/analytics/links-by-day`)).statusCode).toBe(400);
  });
});
