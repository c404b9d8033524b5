/**
 * The guest menu page at 390×844 in headless Chromium, through the real api, redirect and
 * workers, for every theme: dishes on the first screen (a compact header, calling and directions
 * as small links), no axe-core violation of any rule or impact (best practices included) with the
 * filter panel open, the filter count in the Filters control after a reload of a shared filter,
 * search over descriptions, group and category images, a dish photo's sheet with and without
 * JavaScript, and photo copies at least twice the size they are shown at in the card and grid
 * layouts.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENU_THEME_KEYS, MENU_THEMES } from '#domain/cafes/themes.js';
import { accessibilityViolations, hasChromium, launchChromium, PHONE } from '../../support/browser.js';
import { cafeUrl, createCafe, createMenu, itemParts, SAMPLE_MENU, SAMPLE_PROFILE, expectOk } from '../../support/cafe-menus.js';
import { pngPart, sendForm, textPart } from '../../support/fixtures.js';
import { call } from '../../support/harness.js';
import { startScanStack, type ScanStack } from '../../support/redirect.js';
import { pollUntil } from '../../support/until.js';

let stack: ScanStack;
let browser: Browser;

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
/**
 * The sample cafe with everything a first screen can hold: cover, logo, a long description, hours,
 * phone, address and website; a mocha whose description alone says chocolate; a photo of 2000 px
 * on the first dish; images on the first group and its first category.
 */
async function fullCafe(name: string) {
  const cafe = await createCafe(api(), key(), name);
  const menu = await createMenu(api(), key(), cafe.id, SAMPLE_MENU);
  const profile = Object.entries(SAMPLE_PROFILE).map(([field, value]) => textPart(field, value));
  expectOk(
    await sendForm(api(), key(), 'PUT', cafeUrl(cafe.id, '/profile'), [...profile, pngPart('logo', 64, 64), pngPart('cover', 1200, 500)]),
  );
  expectOk(
    await call(api(), key(), 'PUT', cafeUrl(cafe.id), {
      description:
        'A neighbourhood café in Baixa since 1998: coffee roasted down the street, pastries from our own oven every morning, and a short lunch menu that changes with the market.',
      timezone: 'Europe/Lisbon',
      operating_hours: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((day) => ({
        day,
        enabled: true,
        ranges: [{ from: '00:00', to: '24:00' }],
      })),
    }),
  );
  expectOk(
    await sendForm(
      api(),
      key(),
      'POST',
      cafeUrl(cafe.id, '/items'),
      itemParts(menu.categories.get('Coffee')!, {
        name: 'Mocha',
        price: '3.5',
        currency: 'EUR',
        description: 'Espresso and steamed milk with dark chocolate.',
      }),
    ),
  );
  const nata = menu.items.get('Pastel de nata')!;
  expectOk(await sendForm(api(), key(), 'PUT', cafeUrl(cafe.id, `/items/${nata}`), [pngPart('image', 2000, 1500)]));
  expectOk(
    await sendForm(api(), key(), 'PUT', cafeUrl(cafe.id, `/groups/${menu.groups.get('Breakfast')!}`), [pngPart('image', 1600, 600)]),
  );
  expectOk(
    await sendForm(api(), key(), 'PUT', cafeUrl(cafe.id, `/categories/${menu.categories.get('Pastries')!}/image`), [
      pngPart('image', 1600, 400),
    ]),
  );
  return { cafeId: cafe.id, slug: cafe.link.dynamic_link_id };
}

let cafe: { cafeId: string; slug: string };
const pageUrl = (query = '') => `${stack.redirect.base}/${cafe.slug}${query}`;

async function setTheme(theme: string) {
  expectOk(await call(api(), key(), 'PUT', cafeUrl(cafe.cafeId, '/theme'), { themeImage: theme, showDietarySection: true }));
  // The page cache's copy follows the cafe's version.
  await pollUntil(
    () => stack.redirect.get(`/${cafe.slug}`).then((r) => r.text()),
    (b) => b.includes(MENU_THEMES[theme as keyof typeof MENU_THEMES].palette.background),
  );
}

/** A phone's page of the menu, CSP bypassed so axe can be injected. */
async function phonePage(url: string, options: { javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ ...PHONE, bypassCSP: true, ...options });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  return page;
}

/** The width of the copy the browser chose (its file is named by it: `…/960.webp`) and the photo's displayed width. */
const copyWidth = (img: HTMLImageElement) => ({
  copy: Number(/\/(\d+)\.(?:webp|jpg)$/.exec(img.currentSrc)?.[1] ?? 0),
  shown: img.clientWidth,
});

describe.skipIf(!hasChromium)('the menu page on a phone', () => {
  beforeAll(async () => {
    cafe = await fullCafe('Café Lisboa');
    // The photos' web-sized copies are made by a worker.
    await pollUntil(
      () => stack.redirect.get(`/${cafe.slug}`).then((r) => r.text()),
      (b) => (b.match(/960\.webp 960w/g) ?? []).length >= 4,
      20_000,
    );
  }, 60_000);

  it.each(MENU_THEME_KEYS)('%s: dishes on the first screen, small contact links, no axe violation with the filters open', async (theme) => {
    await setTheme(theme);
    const page = await phonePage(pageUrl());
    try {
      const firstDish = await page.locator('.item').first().boundingBox();
      expect(firstDish!.y).toBeLessThan(844);
      expect(firstDish!.y).toBeGreaterThan(0);
      // Calling is a plain link beside the open state (a 44 px tap target), not the page's main button.
      const call = page.locator('a[href^="tel:"]').first();
      expect((await call.boundingBox())!.height).toBeLessThanOrEqual(48);
      expect(await call.evaluate((a) => getComputedStyle(a).backgroundColor)).toBe('rgba(0, 0, 0, 0)');
      expect(await call.evaluate((a) => a.closest('.facts') !== null)).toBe(true);
      expect(await page.locator('.diet').count()).toBe(0);
      await page.click('.filters summary');
      expect(await page.isVisible('#avoid-gluten')).toBe(true);
      expect(await accessibilityViolations(page)).toEqual([]);
    } finally {
      await page.context().close();
    }
  });

  it('counts the filters on in the Filters control, after a reload of a shared filter too', async () => {
    await setTheme('classic');
    const page = await phonePage(pageUrl('?diet=vegan&avoid=gluten'));
    try {
      expect(await page.textContent('.filters summary')).toBe('Filters (2)');
      expect(await page.$$eval('.item:not([hidden]) h4', (els) => els.map((el) => el.textContent))).toEqual([
        'Açaí bowl',
        'Green curry',
        'Espresso',
      ]);
      await page.click('.filters summary');
      await page.click('label:has(#avoid-gluten)');
      expect(await page.textContent('.filters summary')).toBe('Filters (1)');
      await page.reload();
      expect(await page.textContent('.filters summary')).toBe('Filters (1)');
      await page.click('.filters summary');
      await page.click('button[type=reset]');
      await page.waitForFunction(() => document.querySelector('.filters summary')!.textContent === 'Filters');
      expect(new URL(page.url()).search).toBe('');
      // Allergen chips are words people read, each checkbox named by its chip.
      expect(await page.locator('label:has(#avoid-eggs)').textContent()).toBe('Eggs');
      expect(await page.getByRole('checkbox', { name: 'Eggs' }).count()).toBe(1);
    } finally {
      await page.context().close();
    }
  });

  it('finds dishes by description and ingredient, not only by name', async () => {
    const page = await phonePage(pageUrl());
    try {
      await page.fill('#mf-q', 'chocolate');
      expect(await page.$$eval('.item:not([hidden]) h4', (els) => els.map((el) => el.textContent))).toEqual(['Mocha']);
      await page.fill('#mf-q', 'cinnamon');
      expect(await page.$$eval('.item:not([hidden]) h4', (els) => els.map((el) => el.textContent))).toEqual(['Pastel de nata']);
      expect(await page.textContent('#mf-found')).toBe('1 dish matches');
    } finally {
      await page.context().close();
    }
  });

  it('shows group and category images across the column, and the hours as a table of days', async () => {
    const page = await phonePage(pageUrl());
    try {
      const images = await page.$$eval('.section-img', (imgs) =>
        imgs
          .map((img) => (img as HTMLImageElement).getBoundingClientRect())
          .map((r) => ({ width: Math.round(r.width), height: Math.round(r.height) })),
      );
      expect(images).toHaveLength(2);
      for (const { width, height } of images) {
        expect(width).toBe(390 - 40);
        expect(height).toBeGreaterThanOrEqual(64);
        expect(height).toBeLessThanOrEqual(112);
      }
      const rows = await page.$$eval('table.hours tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent)));
      expect(rows).toHaveLength(7);
      expect(rows[0]).toEqual(['Monday', 'Open 24 hours']);
    } finally {
      await page.context().close();
    }
  });

  it('opens a dish photo large in a sheet, closed by Escape, and without JavaScript by its link', async () => {
    const page = await phonePage(pageUrl());
    try {
      await page.click('.item .zoom');
      const sheet = page.locator('.sheet:target');
      expect(await sheet.isVisible()).toBe(true);
      expect(await sheet.getAttribute('aria-label')).toBe('Pastel de nata');
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.sheet:target img');
        return !!img && img.complete && img.naturalWidth > 0;
      });
      // The copy is at least the sheet photo's displayed width at the phone's 2× pixels.
      const { copy, shown } = await sheet.locator('img').evaluate(copyWidth);
      expect(copy).toBeGreaterThanOrEqual(shown * 2);
      await page.keyboard.press('Escape');
      expect(await page.locator('.sheet:target').count()).toBe(0);
    } finally {
      await page.context().close();
    }
    const still = await phonePage(pageUrl(), { javaScriptEnabled: false });
    try {
      await still.click('.item .zoom');
      expect(await still.locator('.sheet:target').isVisible()).toBe(true);
      await still.click('.sheet:target .close');
      expect(await still.locator('.sheet:target').count()).toBe(0);
    } finally {
      await still.context().close();
    }
  });

  it.each(['modern', 'vibrant'])('%s: a dish photo’s copy is at least twice its displayed width', async (theme) => {
    expect(['cards', 'grid']).toContain(MENU_THEMES[theme as keyof typeof MENU_THEMES].layout);
    await setTheme(theme);
    const page = await phonePage(pageUrl());
    try {
      const photo = page.locator('.item img').first();
      await photo.scrollIntoViewIfNeeded();
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('.item img');
        return !!img && img.complete && img.naturalWidth > 0;
      });
      const { copy, shown } = await photo.evaluate(copyWidth);
      expect(shown).toBeGreaterThan(150);
      expect(copy).toBeGreaterThanOrEqual(shown * 2);
    } finally {
      await page.context().close();
    }
  });
});
