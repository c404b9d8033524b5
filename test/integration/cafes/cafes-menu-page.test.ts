/**
 * The live menu page a guest sees when scanning a cafe's code, through the real api, redirect
 * process and workers, in headless Chromium at 390×844: exactly the visible items with their
 * prices and badges, the filters and search with their state in the URL, the page fresh after
 * every kind of menu edit, compression, scans counted, and XSS attempts in every text field.
 * Two screenshots of each theme (the first screen, the first dishes) go to test-output/menu/
 * (docs/screenshots/ with UPDATE_SCREENSHOTS=1).
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENU_THEME_KEYS } from '#domain/cafes/themes.js';
import {
  hasChromium,
  imagesLoaded,
  launchChromium,
  seriousAccessibilityViolations,
  visitPage,
  type PageVisit,
} from '../../support/browser.js';
import {
  cafeUrl,
  createCafe,
  createMenu,
  itemParts,
  type MadeMenu,
  SAMPLE_MENU,
  SAMPLE_PROFILE,
  expectOk,
} from '../../support/cafe-menus.js';
import { pngPart, sendForm, textPart } from '../../support/fixtures.js';
import { call } from '../../support/harness.js';
import { rawGet, startScanStack, type ScanStack } from '../../support/redirect.js';
import { pollUntil } from '../../support/until.js';

const SCREENSHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? 'docs/screenshots/' : 'test-output/menu/';
const XSS = `<img src=x onerror=alert(1)>"'</script><script>alert(2)</script>`;

let stack: ScanStack;
let browser: Browser | undefined;

beforeAll(async () => {
  stack = await startScanStack();
  if (hasChromium) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const api = () => stack.api.app;
const key = () => stack.me.key;
/** A cafe with the sample menu, profile, hours (open around the clock in Lisbon) and social links. */
async function sampleCafe(name = 'Café Lisboa'): Promise<{ cafeId: string; slug: string; linkId: string; menu: MadeMenu }> {
  const cafe = await createCafe(api(), key(), name);
  const menu = await createMenu(api(), key(), cafe.id, SAMPLE_MENU);
  const profile = Object.entries(SAMPLE_PROFILE).map(([field, value]) => textPart(field, value));
  expectOk(
    await sendForm(api(), key(), 'PUT', cafeUrl(cafe.id, '/profile'), [...profile, pngPart('logo', 64, 64), pngPart('cover', 390, 160)]),
  );
  expectOk(
    await call(api(), key(), 'PUT', cafeUrl(cafe.id), {
      description: 'A neighbourhood café in Baixa.',
      timezone: 'Europe/Lisbon',
      operating_hours: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
        day,
        enabled: true,
        ranges: [{ from: '00:00', to: '24:00' }],
      })),
      facilities: ['Wi-Fi', 'Terrace', 'Card payments'],
      social_links: [{ platform: 'Instagram', url: 'https://instagram.com/cafe.lisboa' }],
    }),
  );
  return { cafeId: cafe.id, slug: cafe.link.dynamic_link_id, linkId: cafe.link.id, menu };
}

const pageText = async (slug: string) => {
  const res = await stack.redirect.get(`/${slug}`);
  expect(res.status).toBe(200);
  return res.text();
};

/** Names of the items the page shows (not hidden by a filter), in page order. */
const shownItems = (visit: PageVisit) => visit.page.$$eval('.item:not([hidden]) h4', (els) => els.map((el) => el.textContent));

async function expectCleanPage(visit: PageVisit) {
  expect(visit.problems).toEqual([]);
  expect(visit.blockedRequests).toEqual([]);
  for (const url of visit.requests) expect(new URL(url).host).toBe(new URL(stack.redirect.base).host);
}

describe('the menu page', () => {
  it('shows exactly the visible groups, categories and items, in order, with prices, badges and details', async () => {
    const { slug } = await sampleCafe();
    const res = await stack.redirect.get(`/${slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    const body = await res.text();
    expect(body).not.toContain('(hidden)');
    expect(body).not.toContain('Hidden category dish');
    expect(body).not.toContain('Hidden group dish');
    if (!browser) return;
    const visit = await visitPage(browser, `${stack.redirect.base}/${slug}`);
    try {
      await expectCleanPage(visit);
      expect(await visit.page.getAttribute('html', 'lang')).toBe('en');
      expect(await visit.page.textContent('h1')).toBe('Café Lisboa');
      expect(await visit.page.$$eval('.grp > h2', (els) => els.map((el) => el.textContent))).toEqual(['Breakfast', 'Lunch', 'Drinks']);
      expect(await visit.page.$$eval('.cat > h3', (els) => els.map((el) => el.textContent))).toEqual([
        'Pastries',
        'Bowls',
        'Mains',
        'Coffee',
      ]);
      expect(await shownItems(visit)).toEqual([
        'Pastel de nata',
        'Almond croissant',
        'Açaí bowl',
        'Shakshuka',
        'Piri-piri chicken',
        'Bacalhau à Brás',
        'Green curry',
        'Espresso',
        'Flat white',
        'Matcha latte',
      ]);
      const item = (name: string) => visit.page.locator('.item', { has: visit.page.locator('h4', { hasText: name }) });
      expect(await item('Pastel de nata').locator('.price').textContent()).toBe('€1.60');
      expect(await item('Piri-piri chicken').locator('.price').textContent()).toBe('€13.90');
      expect(await item('Pastel de nata').locator('.badge').allTextContents()).toEqual(['Featured', 'Vegetarian']);
      expect(await item('Almond croissant').locator('.badge').allTextContents()).toEqual(['New', 'Vegetarian']);
      expect(await item('Açaí bowl').locator('.badge').allTextContents()).toEqual(['Recommended', 'Vegan', 'Gluten-free']);
      expect(await item('Green curry').locator('.spice').getAttribute('aria-label')).toBe('Spice level: Extra hot');
      expect(await item('Pastel de nata').textContent()).toContain('Ingredients: puff pastry, custard, cinnamon');
      expect(await item('Pastel de nata').textContent()).toContain('Allergens: gluten, milk, egg');
      expect(await item('Bacalhau à Brás').locator('.tag').allTextContents()).toEqual(['house classic']);
      expect(await item('Pastel de nata').locator('img').getAttribute('alt')).toBe('Pastel de nata');
      expect(await item('Pastel de nata').locator('img').getAttribute('loading')).toBe('lazy');
      expect(await visit.page.textContent('.status')).toBe('Open now');
      // The dietary filter says how many dishes each diet has (no separate box above the dishes).
      expect(await visit.page.textContent('label:has(#diet-vegan)')).toBe('Vegan (3)');
      const visitUs = (await visit.page.textContent('.visit'))!;
      for (const text of [
        'Rua Augusta 27',
        '+351 21 000 0000',
        'ola@cafe-lisboa.example',
        'cafe-lisboa.example',
        'Instagram',
        'Wi-Fi · Terrace · Card payments',
        'Monday',
      ]) {
        expect(visitUs).toContain(text);
      }
      expect(await visit.page.getAttribute('.visit a[href^="https://www.google.com/maps"]', 'href')).toContain(
        encodeURIComponent('Rua Augusta 27'),
      );
      // Every image shown is lazy except the cover and the logo, and all of them load (scrolled into view).
      await visit.page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      // (A dish photo's closed sheet is not rendered, so its lazy image is not fetched.)
      await visit.page.waitForFunction(() =>
        [...document.images].filter((img) => img.getClientRects().length > 0).every((img) => img.complete),
      );
      expect(await imagesLoaded(visit.page)).toBe(true);
      // The schema.org block describes the same menu.
      const jsonLd = JSON.parse((await visit.page.textContent('script[type="application/ld+json"]'))!);
      expect(jsonLd['@type']).toBe('Menu');
      expect(jsonLd.hasMenuSection.map((s: { name: string }) => s.name)).toEqual(['Breakfast', 'Lunch', 'Drinks']);
      const nata = jsonLd.hasMenuSection[0].hasMenuSection[0].hasMenuItem[0];
      expect(nata).toMatchObject({
        '@type': 'MenuItem',
        name: 'Pastel de nata',
        offers: { price: '1.6', priceCurrency: 'EUR' },
        suitableForDiet: ['https://schema.org/VegetarianDiet'],
      });
      // Tap targets: every link and filter chip is at least 44 px tall.
      const small = await visit.page.$$eval('a[href], .chip span', (els) =>
        els
          .filter((el) => (el as HTMLElement).offsetParent !== null && el.getBoundingClientRect().height < 44)
          .map((el) => el.outerHTML.slice(0, 80)),
      );
      expect(small).toEqual([]);
      // No sideways scrolling on a phone.
      expect(await visit.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    } finally {
      await visit.close();
    }
  });

  it('formats each currency its own way, and leaves the dietary section out when the cafe turns it off', async () => {
    const cafe = await createCafe(api(), key(), 'Prices');
    await createMenu(api(), key(), cafe.id, [
      {
        name: 'All',
        categories: [
          {
            name: 'Prices',
            items: [
              { name: 'Yen dish', price: '1200', currency: 'JPY', tags: ['vegan'] },
              { name: 'Dinar dish', price: '2.125', currency: 'KWD' },
              { name: 'Dollar dish', price: '0', currency: 'usd' },
              { name: 'Big dish', price: '123456.5', currency: 'GBP' },
            ],
          },
        ],
      },
    ]);
    expectOk(await call(api(), key(), 'PUT', cafeUrl(cafe.id, '/theme'), { themeImage: 'minimal', showDietarySection: false }));
    const body = await pageText(cafe.link.dynamic_link_id);
    for (const price of ['¥1,200', 'KWD\u00a02.125', '$0.00', '£123,456.50']) expect(body).toContain(`<span class="price">${price}</span>`);
    expect(body).not.toContain('class="badge diet-tag"');
    // Without the dietary section, a dietary tag is an ordinary tag (and still a filter).
    expect(body).toContain('<span class="tag">vegan</span>');
    expect(body).toContain('name="diet" value="vegan"');
  });

  it('filters by dietary tag and allergen and searches by name without a request, keeping the filter in the URL', async () => {
    if (!browser) return;
    const { slug } = await sampleCafe('Filters');
    const visit = await visitPage(browser, `${stack.redirect.base}/${slug}`);
    try {
      const requestsBefore = visit.requests.length;
      await visit.page.fill('#mf-q', 'CROISSANT');
      expect(await shownItems(visit)).toEqual(['Almond croissant']);
      expect(new URL(visit.page.url()).searchParams.get('q')).toBe('CROISSANT');
      // Accents are ignored: "acai" finds "Açaí bowl".
      await visit.page.fill('#mf-q', 'acai');
      expect(await shownItems(visit)).toEqual(['Açaí bowl']);
      await visit.page.fill('#mf-q', 'zzz');
      expect(await shownItems(visit)).toEqual([]);
      expect(await visit.page.isVisible('#mf-none')).toBe(true);
      await visit.page.fill('#mf-q', '');
      expect(await visit.page.isVisible('#mf-none')).toBe(false);
      await visit.page.click('.filters summary');
      await visit.page.click('label:has(#diet-vegan), .chip:has(#diet-vegan)');
      expect(await shownItems(visit)).toEqual(['Açaí bowl', 'Green curry', 'Espresso']);
      expect(visit.page.url()).toContain('diet=vegan');
      await visit.page.click('.chip:has(#avoid-soy)');
      expect(await shownItems(visit)).toEqual(['Açaí bowl', 'Espresso']);
      // Groups and categories left without a dish are hidden too, and so are their tabs.
      expect(await visit.page.isVisible('#g2')).toBe(false);
      expect(await visit.page.isVisible('.tabs a[href="#g2"]')).toBe(false);
      expect(await visit.page.textContent('#mf-found')).toBe('2 dishes match');
      // Filtering asks the server nothing (lazy images coming into view are the only requests).
      expect(visit.requests.slice(requestsBefore).filter((u) => !new URL(u).pathname.startsWith('/files/'))).toEqual([]);
      const shared = visit.page.url();
      expect(new URL(shared).searchParams.getAll('avoid')).toEqual(['soy']);
      // A shared link opens the same view.
      const again = await visitPage(browser, shared);
      try {
        expect(await shownItems(again)).toEqual(['Açaí bowl', 'Espresso']);
        expect(await again.page.isChecked('#diet-vegan')).toBe(true);
        expect(await again.page.isChecked('#avoid-soy')).toBe(true);
        await expectCleanPage(again);
      } finally {
        await again.close();
      }
      await expectCleanPage(visit);
    } finally {
      await visit.close();
    }
    // Allergens alone: hiding milk leaves the dishes without it.
    const milkFree = await visitPage(browser, `${stack.redirect.base}/${slug}?avoid=milk&avoid=gluten`);
    try {
      expect(await shownItems(milkFree)).toEqual([
        'Açaí bowl',
        'Shakshuka',
        'Piri-piri chicken',
        'Bacalhau à Brás',
        'Green curry',
        'Espresso',
      ]);
    } finally {
      await milkFree.close();
    }
  });

  it('works without JavaScript: the whole menu, and no filter form that could not filter', async () => {
    if (!browser) return;
    const { slug } = await sampleCafe('No script');
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    try {
      const page = await context.newPage();
      await page.goto(`${stack.redirect.base}/${slug}?q=croissant`);
      expect(await page.$$eval('.item h4', (els) => els.length)).toBe(10);
      expect(await page.isVisible('#mf')).toBe(false);
    } finally {
      await context.close();
    }
  });

  it('says "open now" or when it opens, in the cafe’s time zone', async () => {
    const cafe = await createCafe(api(), key(), 'Hours');
    await createMenu(api(), key(), cafe.id, [{ name: 'G', categories: [{ name: 'C', items: [{ name: 'Tea', price: '2' }] }] }]);
    const now = new Date();
    // The cafe's local time now, in a zone far from UTC; open for the next two hours (across midnight when it is late).
    const zone = 'Asia/Kathmandu';
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'long',
      hourCycle: 'h23',
    }).formatToParts(now);
    const part = (t: string) => local.find((p) => p.type === t)!.value;
    const minute = Number(part('hour')) * 60 + Number(part('minute'));
    const hhmm = (m: number) => `${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    const today = part('weekday').toLowerCase();
    const openRange = { from: hhmm(Math.max(0, minute - 60)), to: hhmm(minute + 120) };
    if (openRange.from === openRange.to) openRange.to = hhmm(minute + 121);
    // British English: English words, 24-hour times.
    expectOk(
      await call(api(), key(), 'PUT', cafeUrl(cafe.id), {
        timezone: zone,
        language: 'en-GB',
        operating_hours: [{ day: today, enabled: true, ranges: [openRange] }],
      }),
    );
    const open = await pollUntil(
      () => pageText(cafe.link.dynamic_link_id),
      (b) => b.includes('class="status'),
    );
    expect(open).toContain(`Open now · closes at ${openRange.to}`);
    // Closed now, opening in three hours (maybe tomorrow).
    const opensAt = minute + 180;
    const day =
      opensAt >= 1440
        ? ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'][
            (['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].indexOf(today) + 1) % 7
          ]!
        : today;
    expectOk(
      await call(api(), key(), 'PUT', cafeUrl(cafe.id), {
        operating_hours: [{ day, enabled: true, ranges: [{ from: hhmm(opensAt), to: hhmm(opensAt + 60) }] }],
      }),
    );
    const closed = await pollUntil(
      () => pageText(cafe.link.dynamic_link_id),
      (b) => b.includes('Closed ·'),
    );
    expect(closed).toContain(opensAt >= 1440 ? `Closed · opens tomorrow at ${hhmm(opensAt)}` : `Closed · opens at ${hhmm(opensAt)}`);
  });

  it('is fresh after every kind of menu edit', async () => {
    const { cafeId, slug, menu } = await sampleCafe('Fresh');
    const shows = (text: string) =>
      pollUntil(
        () => pageText(slug),
        (b) => b.includes(text),
        5000,
      );
    const hides = (text: string) =>
      pollUntil(
        () => pageText(slug),
        (b) => !b.includes(text),
        5000,
      );
    await pageText(slug); // rendered and kept
    const base = cafeUrl(cafeId);
    const pastries = menu.categories.get('Pastries')!;
    const edits: Array<[string, () => Promise<{ statusCode: number; body: string }>, () => Promise<unknown>]> = [
      [
        'cafe name and description',
        () => call(api(), key(), 'PUT', base, { description: 'Now with a roof terrace' }),
        () => shows('Now with a roof terrace'),
      ],
      [
        'profile',
        () => sendForm(api(), key(), 'PUT', `${base}/profile`, [textPart('subtitle', 'Under new management')]),
        () => shows('Under new management'),
      ],
      [
        'theme',
        () => call(api(), key(), 'PUT', `${base}/theme`, { themeImage: 'dark', primaryColor: '#ff00aa' }),
        () => shows('--primary:#ff00aa'),
      ],
      [
        'new group',
        () =>
          sendForm(api(), key(), 'POST', `${base}/groups`, [textPart('name', 'Desserts')]).then(async (g) => {
            const groupId = JSON.parse(g.body).data.id;
            const c = await call(api(), key(), 'POST', `${base}/categories`, { name: 'Cakes', group_id: groupId });
            return sendForm(
              api(),
              key(),
              'POST',
              `${base}/items`,
              itemParts(JSON.parse(c.body).data.id, { name: 'Bolo de bolacha', price: '3.5', currency: 'EUR' }),
            );
          }),
        () => shows('Bolo de bolacha'),
      ],
      [
        'group renamed',
        () => sendForm(api(), key(), 'PUT', `${base}/groups/${menu.groups.get('Lunch')}`, [textPart('name', 'Almoço')]),
        () => shows('Almoço'),
      ],
      [
        'group hidden',
        () => sendForm(api(), key(), 'PUT', `${base}/groups/${menu.groups.get('Drinks')}`, [textPart('visible', 'false')]),
        () => hides('Flat white'),
      ],
      [
        'groups reordered',
        () => call(api(), key(), 'PATCH', `${base}/groups/reorder`, { orders: [{ id: menu.groups.get('Breakfast'), order: 9 }] }),
        async () => {
          const body = await pollUntil(
            () => pageText(slug),
            (b) => b.indexOf('>Breakfast<') > b.indexOf('>Almoço<'),
            5000,
          );
          expect(body.indexOf('>Breakfast<')).toBeGreaterThan(body.indexOf('>Almoço<'));
        },
      ],
      ['category renamed', () => call(api(), key(), 'PUT', `${base}/categories/${pastries}`, { name: 'Bakery' }), () => shows('>Bakery<')],
      [
        'category hidden',
        () => call(api(), key(), 'PUT', `${base}/categories/${menu.categories.get('Bowls')}`, { visible: false }),
        () => hides('Shakshuka'),
      ],
      [
        'item price',
        () => sendForm(api(), key(), 'PUT', `${base}/items/${menu.items.get('Pastel de nata')}`, [textPart('price', '1.75')]),
        () => shows('€1.75'),
      ],
      [
        'item hidden',
        () => sendForm(api(), key(), 'PUT', `${base}/items/${menu.items.get('Almond croissant')}`, [textPart('visible', 'false')]),
        () => hides('Almond croissant'),
      ],
      [
        'item shown again',
        () => sendForm(api(), key(), 'PUT', `${base}/items/${menu.items.get('Almond croissant')}`, [textPart('visible', 'true')]),
        () => shows('Almond croissant'),
      ],
      [
        'item deleted',
        () => call(api(), key(), 'DELETE', `${base}/items/${menu.items.get('Piri-piri chicken')}`),
        () => hides('Piri-piri chicken'),
      ],
      [
        'items reordered',
        () => call(api(), key(), 'PATCH', `${base}/items/reorder`, [{ id: menu.items.get('Pastel de nata'), order: 50 }]),
        async () => {
          await pollUntil(
            () => pageText(slug),
            (b) => b.indexOf('Pastel de nata') > b.indexOf('Almond croissant'),
            5000,
          );
        },
      ],
      [
        'category deleted',
        () => call(api(), key(), 'DELETE', `${base}/categories/${menu.categories.get('Mains')}`),
        () => hides('Green curry'),
      ],
      ['group deleted', () => call(api(), key(), 'DELETE', `${base}/groups/${menu.groups.get('Breakfast')}`), () => hides('>Breakfast<')],
      [
        'bulk insert',
        () =>
          call(api(), key(), 'POST', `${base}/items/bulk-insert`, {
            items: [{ name: 'Bifana', price: 4.5, currency: 'EUR', category: 'Sandwiches' }],
          }),
        async () => {
          const body = await shows('Bifana');
          expect(body).not.toContain('Pastel de nata');
        },
      ],
    ];
    for (const [what, edit, check] of edits) {
      const res = await edit();
      expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
      await check();
    }
  });

  it('is sent compressed to clients that accept it, and the same page either way', async () => {
    const { slug } = await sampleCafe('Compressed');
    const plain = await rawGet(stack.redirect, `/${slug}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    // The cafe has no language of its own: the page is in the guest's.
    expect(plain.headers.vary).toBe('Accept-Encoding, Accept-Language');
    const text = plain.body.toString('utf8');
    expect(text).toContain('Pastel de nata');
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip, deflate, br;q=0', 'gzip', gunzipSync],
    ] as const) {
      const res = await rawGet(stack.redirect, `/${slug}`, accept);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.body.length).toBeLessThan(plain.body.length / 3);
      expect(decode(res.body).toString('utf8')).toBe(text);
    }
  });

  it('shows all 5000 items of a menu with long descriptions, in order, and is fresh after an item is hidden', async () => {
    const cafe = await createCafe(api(), key(), 'Five thousand');
    const description = 'Slow-cooked with seasonal vegetables from the market, finished with herbs and lemon. '.repeat(11);
    const items = Array.from({ length: 5000 }, (_, i) => ({
      name: `Dish ${i}`,
      price: 9.5,
      currency: 'EUR',
      category: `Category ${i % 50}`,
      description: `${i} ${description}`,
    }));
    expectOk(await call(api(), key(), 'POST', cafeUrl(cafe.id, '/items/bulk-insert'), { items }));
    const slug = cafe.link.dynamic_link_id;
    const names = (page: string) => [...page.matchAll(/<h4[^>]*>(Dish \d+)<\/h4>/g)].map((m) => m[1]);
    const expected = Array.from({ length: 50 }, (_, c) => Array.from({ length: 100 }, (_, k) => `Dish ${k * 50 + c}`)).flat();
    const page = await pageText(slug);
    expect(page.length).toBeGreaterThan(5000 * description.length);
    expect(names(page)).toEqual(expected);
    expect(page).not.toContain('not shown');
    const listed = await call(api(), key(), 'GET', cafeUrl(cafe.id, '/items'));
    const hidden = JSON.parse(listed.body).data.find((item: { name: string }) => item.name === 'Dish 4321');
    expectOk(await call(api(), key(), 'POST', cafeUrl(cafe.id, `/items/${hidden.id}/hide`)));
    const after = await pollUntil(
      () => pageText(slug),
      (b) => !b.includes('>Dish 4321</h4>'),
      10_000,
    );
    expect(names(after)).toEqual(expected.filter((name) => name !== 'Dish 4321'));
  }, 60_000);

  it('counts its scans like every other link’s', async () => {
    const { slug, linkId } = await sampleCafe('Counted');
    for (let i = 0; i < 3; i++) await pageText(slug);
    const scans = await stack.waitForScans(linkId, 3);
    expect(scans).toHaveLength(3);
  });

  it('shows every text field of a cafe, group, category and item as text, never as markup', async () => {
    const cafe = await createCafe(api(), key(), `Cafe ${XSS}`);
    await createMenu(api(), key(), cafe.id, [
      {
        name: `Group ${XSS}`,
        categories: [
          {
            name: `Category ${XSS}`,
            description: `About ${XSS}`,
            items: [
              {
                name: `Item ${XSS}`,
                price: '1',
                currency: 'EUR',
                description: `Desc ${XSS}`,
                ingredients: [`ing ${XSS}`],
                allergens: [`all ${XSS}`],
                tags: [`tag ${XSS}`, 'vegan'],
                image: [10, 20, 30],
              },
            ],
          },
        ],
      },
    ]);
    const profile = ['title', 'subtitle', 'address', 'phone', 'description'].map((field) =>
      textPart(field, `${field} ${XSS}`.slice(0, 50)),
    );
    expectOk(await sendForm(api(), key(), 'PUT', cafeUrl(cafe.id, '/profile'), profile));
    expectOk(
      await call(api(), key(), 'PUT', cafeUrl(cafe.id), {
        facilities: [`fac ${XSS}`],
        social_links: [{ platform: `soc ${XSS}`.slice(0, 50), url: 'https://example.com/"><script>alert(3)</script>' }],
        operating_hours: [{ day: 'monday', enabled: true, ranges: [{ from: '09:00', to: '17:00' }] }],
      }),
    );
    const body = await pageText(cafe.link.dynamic_link_id);
    expect(body).not.toMatch(/<img src=x|<script>alert/);
    if (!browser) return;
    const visit = await visitPage(browser, `${stack.redirect.base}/${cafe.link.dynamic_link_id}`);
    try {
      const dialogs: string[] = [];
      visit.page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await visit.page.fill('#mf-q', 'item');
      await visit.page.click('.filters summary');
      await visit.page.click('.chips .chip >> nth=0');
      await visit.page.waitForTimeout(100);
      expect(dialogs).toEqual([]);
      await expectCleanPage(visit);
      expect(await visit.page.$$eval('script:not([type])', (s) => s.length)).toBe(1);
      const text = (await visit.page.textContent('main'))!;
      for (const shown of [
        `Item ${XSS}`,
        `Group ${XSS}`,
        `Category ${XSS}`,
        `About ${XSS}`,
        `Desc ${XSS}`,
        `ing ${XSS}`,
        `all ${XSS}`,
        `tag ${XSS}`,
        `fac ${XSS}`,
        `soc ${XSS}`.slice(0, 50),
      ]) {
        expect(text).toContain(shown);
      }
      expect(await visit.page.textContent('h1')).toBe(`title ${XSS}`.slice(0, 50));
      const jsonLd = JSON.parse((await visit.page.textContent('script[type="application/ld+json"]'))!);
      expect(jsonLd.hasMenuSection[0].hasMenuSection[0].hasMenuItem[0].name).toBe(`Item ${XSS}`);
    } finally {
      await visit.close();
    }
  });
});

describe.skipIf(!hasChromium)('each theme at 390×844', () => {
  it.each(MENU_THEME_KEYS)('%s', async (theme) => {
    const { cafeId, slug } = await sampleCafe(`Theme ${theme}`);
    expectOk(await call(api(), key(), 'PUT', cafeUrl(cafeId, '/theme'), { themeImage: theme, showDietarySection: true }));
    const visit = await visitPage(browser!, `${stack.redirect.base}/${slug}`);
    try {
      await expectCleanPage(visit);
      await visit.page.waitForFunction(() => [...document.images].filter((i) => i.loading !== 'lazy').every((img) => img.complete));
      // Body text is readable on the theme's background (WCAG AA).
      const ratio = await visit.page.evaluate(() => {
        const rgb = (c: string) => c.match(/\d+/g)!.slice(0, 3).map(Number);
        const lum = (c: string) => {
          const [r, g, b] = rgb(c).map((v) => {
            const s = v / 255;
            return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
          });
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
        };
        const body = getComputedStyle(document.body);
        const price = getComputedStyle(document.querySelector('.price')!);
        const card = getComputedStyle(document.querySelector('.item')!).backgroundColor;
        const bg = card.startsWith('rgba(0, 0, 0, 0)') ? body.backgroundColor : card;
        const ratioOf = (a: string, b: string) => {
          const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
          return (hi! + 0.05) / (lo! + 0.05);
        };
        return Math.min(ratioOf(body.color, body.backgroundColor), ratioOf(price.color, bg));
      });
      expect(ratio).toBeGreaterThanOrEqual(4.5);
      // No serious or critical accessibility violation (axe-core: contrast, names, labels, landmarks).
      expect(await seriousAccessibilityViolations(browser!, `${stack.redirect.base}/${slug}`)).toEqual([]);
      // What the phone shows first, and the first screen of dishes (scrolled to the first group).
      await visit.page.screenshot({ path: `${SCREENSHOTS}menu-${theme}.png` });
      await visit.page.evaluate(() => document.getElementById('g1')!.scrollIntoView());
      // Images not rendered (a dish photo's closed sheet) are not fetched while lazy.
      await visit.page.waitForFunction(() =>
        [...document.images].every(
          (img) => img.complete || img.getClientRects().length === 0 || img.getBoundingClientRect().top > window.innerHeight,
        ),
      );
      await visit.page.screenshot({ path: `${SCREENSHOTS}menu-${theme}-items.png` });
    } finally {
      await visit.close();
    }
  });
});
