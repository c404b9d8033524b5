/**
 * Destinations that are not plain ASCII (a path in Japanese, an emoji in the query, an IDN host):
 * stored as WHATWG-serialised URLs, redirected with that URL in Location, and counted exactly
 * once per answered scan. Rows written before the fix (raw Unicode in meta_data) redirect too.
 * Links made through the real api, scanned through the real redirect app, ingested by the real workers.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkCounters } from '#domain/schema.js';
import { call } from '../../support/harness.js';
import { startScanStack, type ScanStack } from '../../support/redirect.js';

/** A person's browser: a scan that counts against a limit (no user agent would be a bot). */
const HUMAN = { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0' } };
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let stack: ScanStack;
beforeAll(async () => {
  stack = await startScanStack();
});
afterAll(() => stack?.close());

const createLink = (body: Record<string, unknown>) => stack.createLink(body);
const apiCall = (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => call(stack.api.app, stack.me.key, method, path, body);
const scan = (path: string, init?: RequestInit) => stack.redirect.get(path, init);

/** Scans Postgres holds for the link once the worker caught up, and the link's counters. */
async function scanCountOf(linkId: string, n: number) {
  const recorded = (await stack.waitForScans(linkId, n)).length;
  const [counts] = await stack.api.ctx.db.select().from(linkCounters).where(eq(linkCounters.linkId, linkId));
  return { recorded, scanCount: counts!.scanCount, humanScanCount: counts!.humanScanCount };
}

const JAPANESE = 'https://example.com/日本語?q=😀&a=é#über';
const JAPANESE_ENCODED = 'https://example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E?q=%F0%9F%98%80&a=%C3%A9#%C3%BCber';

describe('destinations outside ASCII', () => {
  it('a website url is stored percent-encoded and every scan is a 302 to it, counted once', async () => {
    const link = await createLink({ name: 'JP', type: 'website', data: { url: 'https://example.com/日本語?q=😀&a=é' } });
    expect(link.metaData).toEqual({ url: 'https://example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E?q=%F0%9F%98%80&a=%C3%A9' });
    const got = await apiCall('GET', `/api/v1/links/${link.slug}`);
    expect(got.json().data.meta_data.url).toBe('https://example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E?q=%F0%9F%98%80&a=%C3%A9');
    for (let i = 0; i < 2; i++) {
      const res = await scan(`/${link.slug}`, HUMAN);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('https://example.com/%E6%97%A5%E6%9C%AC%E8%AA%9E?q=%F0%9F%98%80&a=%C3%A9');
    }
    expect(await scanCountOf(link.id, 2)).toEqual({ recorded: 2, scanCount: 2, humanScanCount: 2 });
  });

  it('an IDN host becomes punycode; smart-url default and rule urls are encoded alike', async () => {
    const site = await createLink({ name: 'IDN', type: 'website', data: { url: 'https://bücher.example/straße' } });
    expect((site.metaData as { url: string }).url).toBe('https://xn--bcher-kva.example/stra%C3%9Fe');
    expect((await scan(`/${site.slug}`, HUMAN)).headers.get('location')).toBe('https://xn--bcher-kva.example/stra%C3%9Fe');

    const smart = await createLink({
      name: 'Smart',
      type: 'smart-url',
      data: {
        defaultUrl: 'https://bücher.example/welt',
        rules: [{ conditionType: 'device', operator: 'is', devices: ['ios'], url: JAPANESE }],
      },
    });
    expect(smart.metaData).toMatchObject({ defaultUrl: 'https://xn--bcher-kva.example/welt', rules: [{ url: JAPANESE_ENCODED }] });
    expect((await scan(`/${smart.slug}`, { headers: { 'user-agent': IPHONE } })).headers.get('location')).toBe(JAPANESE_ENCODED);
    expect((await scan(`/${smart.slug}`, HUMAN)).headers.get('location')).toBe('https://xn--bcher-kva.example/welt');
    expect(await scanCountOf(smart.id, 2)).toMatchObject({ recorded: 2, scanCount: 2 });
  });

  it('a scan limit counts only answered scans: limit 2 → two 302s to the encoded url, then 410', async () => {
    const link = await createLink({
      name: 'Limited',
      type: 'website',
      data: { url: 'https://example.com/🎟' },
      linkConfigurations: { scanLimitActive: true, scanLimit: 2 },
    });
    // Three visitors (one address, three systems): the limit counts a visitor once a day
    // (docs/decisions/0371-a-scan-limit-counts-visitors.md).
    const visitors = [HUMAN.headers['user-agent'], WINDOWS, IPHONE];
    const statuses: number[] = [];
    for (const userAgent of visitors) {
      const res = await scan(`/${link.slug}`, { headers: { 'user-agent': userAgent } });
      statuses.push(res.status);
      if (res.status === 302) expect(res.headers.get('location')).toBe('https://example.com/%F0%9F%8E%9F');
    }
    expect(statuses).toEqual([302, 302, 410]);
    expect(await scanCountOf(link.id, 2)).toEqual({ recorded: 2, scanCount: 2, humanScanCount: 2 });
  });

  it('the other URL fields of link data (event registrationUrl, multi-links values) are stored encoded too', async () => {
    const event = await createLink({
      name: 'Event',
      type: 'event',
      data: {
        description: 'd',
        location: 'l',
        startDateTime: '2026-12-24T19:00',
        timezone: 'UTC',
        registrationUrl: 'https://bücher.example/anmelden',
      },
    });
    expect((event.metaData as { registrationUrl: string }).registrationUrl).toBe('https://xn--bcher-kva.example/anmelden');
    const multi = await createLink({
      name: 'Bio',
      type: 'multi-links',
      data: {
        title: 'T',
        design: { backgroundColor: 'white', linkBackgroundColor: '#000', textColor: '#123' },
        links: [{ type: 'custom', value: 'https://example.com/café', title: 'Café' }],
      },
    });
    expect((multi.metaData as { links: Array<{ value: string }> }).links[0]!.value).toBe('https://example.com/caf%C3%A9');
  });

  it('a destination longer than 2048 characters once encoded is refused at its field', async () => {
    const res = await apiCall('POST', '/api/v1/links', {
      name: 'Long',
      type: 'website',
      data: { url: `https://example.com/${'日'.repeat(300)}` },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'data.url', message: expect.stringMatching(/2048/) }]);
  });
});

describe('rows stored before destinations were encoded', () => {
  it('a raw Unicode url written by SQL still redirects, encoded, and is counted once', async () => {
    const link = await createLink({
      name: 'Legacy',
      type: 'website',
      data: { url: 'https://example.com/x' },
      linkConfigurations: { scanLimitActive: true, scanLimit: 5 },
    });
    await stack.api.ctx.db.execute(sql`update links set meta_data = ${JSON.stringify({ url: JAPANESE })}::jsonb where id = ${link.id}`);
    await apiCall('POST', `/api/v1/links/${link.slug}/pause`);
    await apiCall('POST', `/api/v1/links/${link.slug}/resume`);
    const res = await scan(`/${link.slug}`, HUMAN);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(JAPANESE_ENCODED);
    expect(await scanCountOf(link.id, 1)).toEqual({ recorded: 1, scanCount: 1, humanScanCount: 1 });
  });

  it('a url that cannot be sent at all is an HTML error page, and the scan is neither recorded nor taken from the limit', async () => {
    const link = await createLink({
      name: 'Broken',
      type: 'website',
      data: { url: 'https://example.com/y' },
      linkConfigurations: { scanLimitActive: true, scanLimit: 1 },
    });
    await stack.api.ctx.db.execute(
      sql`update links set meta_data = ${JSON.stringify({ url: 'not a url ✗' })}::jsonb where id = ${link.id}`,
    );
    await apiCall('POST', `/api/v1/links/${link.slug}/pause`);
    await apiCall('POST', `/api/v1/links/${link.slug}/resume`);
    for (let i = 0; i < 2; i++) {
      const res = await scan(`/${link.slug}`, HUMAN);
      expect(res.status).toBe(502);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
      expect(await res.text()).toMatch(/destination/i);
    }
    // Fixed by its owner, the link still has its whole limit.
    const put = await apiCall('PUT', `/api/v1/links/${link.slug}`, {
      name: 'Broken',
      type: 'website',
      data: { url: 'https://example.com/fixed' },
      linkConfigurations: { scanLimitActive: true, scanLimit: 1 },
    });
    expect(put.statusCode).toBe(200);
    expect((await scan(`/${link.slug}`, HUMAN)).status).toBe(302);
    expect((await scan(`/${link.slug}`, HUMAN)).status).toBe(410);
    expect(await scanCountOf(link.id, 1)).toEqual({ recorded: 1, scanCount: 1, humanScanCount: 1 });
  });
});
