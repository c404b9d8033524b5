/**
 * The menu page in a look not saved yet, through the real api, redirect process and workers:
 * POST /cafes/:id/theme/preview stores the look and answers the short URL with `?preview=<id>`,
 * which shows the menu in that look (uncached, unindexed, framable by the console's origin only)
 * and is not counted as a scan; the saved look is untouched. A foreign cafe is refused as every
 * cafe route refuses it; an unknown or expired id, or one of another cafe, gets the ordinary page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { menuPreviewKey } from '#domain/cafes/theme-preview.js';
import { cafeUrl, createCafe, createMenu, expectOk, SAMPLE_MENU } from '../../support/cafe-menus.js';
import { call, createLinkVia, createTestAccount } from '../../support/harness.js';
import { startScanStack, type ScanStack } from '../../support/redirect.js';

const CONSOLE_ORIGIN = 'https://console.example.com';
let stack: ScanStack;

const METRICS_TOKEN = 'preview-metrics-token-0123456789abcdef';

beforeAll(async () => {
  stack = await startScanStack({ PUBLIC_API_URL: `${CONSOLE_ORIGIN}/api/v1`, METRICS_TOKEN });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const api = () => stack.api.app;
const key = () => stack.me.key;
/** The preview's URL on the redirect under test (the answer's carries SHORT_URL_BASE). */
async function preview(cafeId: string, body: Record<string, unknown>): Promise<{ path: string; id: string; expiresAt: string }> {
  const res = await call(api(), key(), 'POST', cafeUrl(cafeId, '/theme/preview'), body);
  expect(res.statusCode, res.body).toBe(200);
  const { url, expiresAt } = res.json<{ url: string; expiresAt: string }>();
  const parsed = new URL(url);
  expect(`${parsed.origin}${parsed.pathname}`).toBe(`${stack.api.ctx.config.SHORT_URL_BASE.replace(/\/+$/, '')}${parsed.pathname}`);
  return { path: `${parsed.pathname}${parsed.search}`, id: parsed.searchParams.get('preview')!, expiresAt };
}

/** Preview pages the redirect has made so far. */
async function previewsRendered(): Promise<number> {
  const res = await stack.redirect.get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = (await res.text()).split('\n').find((l) => l.startsWith('qrlinks_pages_rendered_total{') && l.includes('kind="preview"'));
  return line ? Number(line.split(' ').pop()) : 0;
}

function expectOrdinaryPage(res: Response) {
  expect(res.status).toBe(200);
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(res.headers.get('x-robots-tag')).toBeNull();
}

describe('menu theme preview', () => {
  it('shows the unsaved theme, colours and dietary switch, framable by the console only, and counts no scan', async () => {
    const cafe = await createCafe(api(), key(), 'Café Preview');
    await createMenu(api(), key(), cafe.id, SAMPLE_MENU);
    const slug = cafe.link.dynamic_link_id;
    const saved = await stack.redirect.get(`/${slug}`);
    expectOrdinaryPage(saved);
    const savedHtml = await saved.text();
    expect(savedHtml).toContain('--bg:#fbf7f0'); // classic, the default
    expect(savedHtml).toContain('class="badge diet-tag"');

    const before = Date.now();
    const { path, expiresAt } = await preview(cafe.id, {
      themeImage: 'dark',
      primaryColor: '#ff00aa',
      secondaryColor: '#00aa55',
      showDietarySection: false,
    });
    expect(Date.parse(expiresAt) - before).toBeGreaterThanOrEqual(590_000);
    expect(Date.parse(expiresAt) - before).toBeLessThanOrEqual(610_000);
    for (let i = 0; i < 2; i++) {
      const res = await stack.redirect.get(path);
      expect(res.status).toBe(200);
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toContain(`frame-ancestors ${CONSOLE_ORIGIN}`);
      expect(csp).not.toContain('*');
      expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
      const body = await res.text();
      expect(body).toContain('--bg:#121212'); // dark
      expect(body).toContain('--primary:#ff00aa');
      expect(body).toContain('--secondary:#00aa55');
      expect(body).not.toContain('class="badge diet-tag"');
      expect(body).toContain('Pastel de nata');
    }

    // Left out, a colour keeps the saved value (null: the theme's), as PUT /theme does.
    const partial = await stack.redirect.get((await preview(cafe.id, { themeImage: 'minimal' })).path);
    const partialHtml = await partial.text();
    expect(partialHtml).toContain('--bg:#ffffff;');
    expect(partialHtml).toContain('--primary:#000000');
    expect(partialHtml).toContain('class="badge diet-tag"');

    // Nothing was saved: the ordinary page (from the page cache) and the api still have the classic look.
    const after = await stack.redirect.get(`/${slug}`);
    expectOrdinaryPage(after);
    expect(await after.text()).toContain('--bg:#fbf7f0');
    expect((await call(api(), key(), 'GET', cafeUrl(cafe.id))).json().data).toMatchObject({
      themeImage: 'classic',
      primaryColor: null,
      showDietarySection: true,
    });

    // Two ordinary scans (before and after); the three previews were not scans.
    const scans = await stack.waitForScans(cafe.link.id, 2);
    expect(scans).toHaveLength(2);
  });

  it("refuses another account's cafe as every cafe route does, and checks the body as PUT /theme does", async () => {
    const other = await createTestAccount(stack.api.ctx);
    const theirs = await createCafe(api(), other.key, 'Not yours');
    const refused = await call(api(), key(), 'POST', cafeUrl(theirs.id, '/theme/preview'), { themeImage: 'dark' });
    const put = await call(api(), key(), 'PUT', cafeUrl(theirs.id, '/theme'), { themeImage: 'dark' });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual(put.json());
    expect((await call(api(), key(), 'POST', cafeUrl('not-a-uuid', '/theme/preview'), { themeImage: 'dark' })).statusCode).toBe(404);

    const mine = await createCafe(api(), key(), 'Mine');
    for (const body of [{ themeImage: 'neon' }, { themeImage: 'dark', primaryColor: 'red' }, { themeImage: 'dark', extra: 1 }, {}]) {
      const res = await call(api(), key(), 'POST', cafeUrl(mine.id, '/theme/preview'), body);
      const same = await call(api(), key(), 'PUT', cafeUrl(mine.id, '/theme'), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual(same.json());
    }
    const readOnly = await createTestAccount(stack.api.ctx, { scopes: ['cafe.read'] });
    expect((await call(api(), readOnly.key, 'POST', cafeUrl(mine.id, '/theme/preview'), { themeImage: 'dark' })).statusCode).toBe(403);
  });

  it('an unknown, expired or malformed id, or one made for another cafe, gets the ordinary page', async () => {
    const a = await createCafe(api(), key(), 'Cafe A');
    const b = await createCafe(api(), key(), 'Cafe B');
    await call(api(), key(), 'PUT', cafeUrl(b.id, '/theme'), { themeImage: 'rustic' });
    const ofA = await preview(a.id, { themeImage: 'dark', primaryColor: '#ff00aa' });

    const onB = await stack.redirect.get(`/${b.link.dynamic_link_id}?preview=${ofA.id}`);
    expectOrdinaryPage(onB);
    const onBHtml = await onB.text();
    expect(onBHtml).not.toContain('--primary:#ff00aa');
    expect(onBHtml).not.toContain('--bg:#121212');

    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', `${ofA.id}x`, '../../etc', '']) {
      const res = await stack.redirect.get(`/${a.link.dynamic_link_id}?preview=${encodeURIComponent(id)}`);
      expectOrdinaryPage(res);
      expect(await res.text()).not.toContain('--primary:#ff00aa');
    }
    const twice = await stack.redirect.get(`/${a.link.dynamic_link_id}?preview=${ofA.id}&preview=${ofA.id}`);
    expectOrdinaryPage(twice);

    // Expired: Redis drops the record at its TTL.
    await stack.api.ctx.redis.pexpire(menuPreviewKey(stack.api.ctx.config.REDIS_NAMESPACE, ofA.id), 1);
    await new Promise((r) => setTimeout(r, 20));
    const expired = await stack.redirect.get(ofA.path);
    expectOrdinaryPage(expired);
    expect(await expired.text()).not.toContain('--primary:#ff00aa');
  });

  it("makes a big menu's preview once for a storm of requests, one preview of an account at a time, while others scan", async () => {
    const cafe = await createCafe(api(), key(), 'Big preview');
    const items = Array.from({ length: 2000 }, (_, i) => ({
      name: `Dish ${i}`,
      price: 5 + (i % 7),
      currency: 'EUR',
      category: `Category ${i % 40}`,
      description: `A long description of dish ${i}. `.repeat(8),
    }));
    expectOk(await call(api(), key(), 'POST', cafeUrl(cafe.id, '/items/bulk-insert'), { items }));
    const other = await createTestAccount(stack.api.ctx);
    const theirs = await createLinkVia(api(), other.key);
    const scanOther = async () => {
      const res = await stack.redirect.get(`/${theirs.slug}`);
      expect(res.status).toBe(302);
    };

    // 24 requests for one preview at once: one page made, the same page sent to each.
    const made = await previewsRendered();
    const one = await preview(cafe.id, { themeImage: 'dark' });
    let storming = true;
    let otherScans = 0;
    const others = (async () => {
      while (storming) {
        await scanOther();
        otherScans++;
      }
    })();
    const storm = await Promise.all(Array.from({ length: 24 }, () => stack.redirect.get(one.path)));
    for (const res of storm) {
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = await res.text();
      expect(body).toContain('--bg:#121212');
      expect(body).toContain('Dish 1999');
    }
    expect((await previewsRendered()) - made).toBe(1);
    // Asked again, it is the page kept.
    expect((await stack.redirect.get(one.path)).status).toBe(200);
    expect((await previewsRendered()) - made).toBe(1);

    // Six previews of the account at once: one made at a time, two waiting for it, the rest refused
    // at once with a 503 and Retry-After; each answered preview was made once.
    const six = await Promise.all(Array.from({ length: 6 }, () => preview(cafe.id, { themeImage: 'rustic' })));
    const before = await previewsRendered();
    const answers = await Promise.all(six.map((p) => stack.redirect.get(p.path)));
    storming = false;
    await others;
    const ok = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 503);
    expect(ok.length + refused.length).toBe(6);
    expect(ok.length).toBeGreaterThanOrEqual(3);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const res of refused) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const res of ok) expect(await res.text()).toContain('Dish 1999');
    expect((await previewsRendered()) - before).toBe(ok.length);
    // The other account's link answered throughout.
    expect(otherScans).toBeGreaterThan(0);
  }, 120_000);
});
