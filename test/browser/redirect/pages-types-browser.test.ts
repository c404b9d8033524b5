/**
 * The event, location, image, gallery, pdf, multi-pdf, vCard and product pages on a phone
 * (390×844) in headless Chromium, in English and in the languages with the longest words: no
 * word broken inside a button or a label, fact columns that leave values most of the line, the
 * event's photo on top, and the image viewer's keys, counter, swipe and history. With
 * UPDATE_SCREENSHOTS=1 the first screen of the pages showing fields of their own (SCREENSHOT_TYPES)
 * is written to docs/screenshots/pages/<type>-pt.png, in Portuguese; the English ones come from pages-browser.test.ts.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as pages from '#redirect/pages/index.js';
import type { LinkType } from '#domain/links/data/index.js';
import type { ResolvedLinkFile } from '#domain/links/resolve/resolved-link.js';
import { hasChromium, imagesLoaded, launchChromium, visitPage, type PageVisit } from '../../support/browser.js';
import { pdfBytes, pngBytes } from '../../support/fixtures.js';
import { exampleData, resolvedLink } from '../../support/link-examples.js';

const DOC_SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/screenshots/pages', import.meta.url)) : null;
const IMAGES = ['7a1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e11', '7a1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e12', '7a1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e13'];
const PDFS = ['7a1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e14', '7a1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e15'];
const BYTES = new Map<string, { contentType: string; bytes: Buffer }>([
  [IMAGES[0]!, { contentType: 'image/png', bytes: pngBytes(320, 200, [214, 110, 60]) }],
  [IMAGES[1]!, { contentType: 'image/png', bytes: pngBytes(200, 200, [60, 130, 200]) }],
  [IMAGES[2]!, { contentType: 'image/png', bytes: pngBytes(200, 300, [90, 170, 90]) }],
  [PDFS[0]!, { contentType: 'application/pdf', bytes: pdfBytes('Lunch') }],
  [PDFS[1]!, { contentType: 'application/pdf', bytes: pdfBytes('Dinner') }],
]);
const FILES: ResolvedLinkFile[] = [...BYTES].map(([id, { contentType, bytes }], i) => ({
  id,
  contentType,
  size: bytes.length,
  originalName: contentType === 'application/pdf' ? `menu-${i}.pdf` : null,
  variants: null,
}));
const URLS = { file: (id: string) => `/files/${id}`, vcard: '/contact.vcf', ics: '/event.ics' };

const DATA: Partial<Record<LinkType, Record<string, unknown>>> = {
  event: {
    ...exampleData('event', { images: IMAGES, pdfs: PDFS }),
    startDateTime: '2030-06-12T19:00',
    endDateTime: '2030-06-12T22:30',
    timezone: 'Europe/Lisbon',
  },
  location: { latitude: 38.7139, longitude: -9.1334, name: 'Miradouro da Graça', address: 'Largo da Graça\n1170-165 Lisboa' },
  image: { files: [{ fileId: IMAGES[0] }] },
  gallery: { files: IMAGES.map((fileId) => ({ fileId })) },
  pdf: { files: [{ fileId: PDFS[0] }] },
  'multi-pdf': exampleData('multi-pdf', { images: IMAGES, pdfs: PDFS }),
  vcard: {
    ...exampleData('vcard', { images: IMAGES, pdfs: PDFS }),
    contact: '+44 7700 900123',
    jobTitle: 'Chief Engineer',
    photo: { fileId: IMAGES[1] },
    socialLinks: [{ url: 'https://www.linkedin.com/in/ada' }, { url: 'https://github.com/ada' }],
  },
  product: {
    ...exampleData('product', { images: IMAGES, pdfs: PDFS }),
    images: { files: IMAGES.map((fileId) => ({ fileId })) },
    buyUrl: 'https://shop.example.com/blend',
  },
};
const TYPES = Object.keys(DATA) as LinkType[];
const SCREENSHOT_TYPES: readonly LinkType[] = ['event', 'location', 'vcard', 'product', 'gallery'];
const LANGUAGES = ['en', 'de', 'fr', 'pt', 'es'];

function render(type: LinkType, language: string, platform: pages.Scanner['platform']) {
  const link = { ...resolvedLink(type, DATA[type]!, FILES), name: 'Cafe Aroma', pageStyle: { language } };
  return pages.renderLinkPage(link, URLS, { platform, now: Date.parse('2026-01-01T00:00:00Z') });
}

/** Serves /<type>/<language>/<platform>, and the links' files. */
function pagesServer(): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = /^\/files\/([0-9a-f-]{36})$/.exec(path);
    const bytes = file && BYTES.get(file[1]!);
    if (bytes) {
      res.writeHead(200, { 'Content-Type': bytes.contentType });
      return res.end(bytes.bytes);
    }
    const [, type, language, platform] = path.split('/');
    if (type && DATA[type as LinkType] && language && (platform === 'ios' || platform === 'android' || platform === 'other')) {
      const page = render(type as LinkType, language, platform);
      res.writeHead(page.status, page.headers);
      return res.end(page.body);
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  });
}

/** The words of every button-like element and label that a line break splits (a word drawn on two lines). */
function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    const shown = (el: Element) => el.getClientRects().length > 0;
    for (const el of document.querySelectorAll('.button, .actions a, .social a, .viewer nav a, dt, caption, th')) {
      if (!shown(el)) continue;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const match of node.textContent!.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(`${el.tagName.toLowerCase()}.${el.className}: ${match[0]}`);
        }
      }
    }
    return broken;
  });
}

/** Every fact list: its labels' column and its values' column, as shares of the list's width. */
function factColumns(page: Page) {
  return page.$$eval('dl.facts', (lists) =>
    lists.map((dl) => {
      const width = dl.getBoundingClientRect().width;
      const dts = [...dl.querySelectorAll('dt')].map((dt) => dt.getBoundingClientRect());
      const dds = [...dl.querySelectorAll('dd')].map((dd) => dd.getBoundingClientRect());
      return {
        labelShare: Math.max(...dts.map((r) => r.width)) / width,
        valueShare: Math.min(...dds.map((r) => r.width)) / width,
        valuesRightOfLabels: dds.every((dd, i) => dd.left >= dts[i]!.right),
      };
    }),
  );
}

describe.skipIf(!hasChromium)('type pages on a phone', () => {
  let browser: Browser;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    server = pagesServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  async function withVisit(path: string, check: (visit: PageVisit) => Promise<void>) {
    const visit = await visitPage(browser, `${base}${path}`);
    try {
      await check(visit);
      expect(visit.problems).toEqual([]);
    } finally {
      await visit.close();
    }
  }

  it.each(TYPES)('%s: no word split inside a button or label, sane columns, nothing sideways, in every language', async (type) => {
    for (const language of LANGUAGES) {
      for (const platform of ['ios', 'android'] as const) {
        await withVisit(`/${type}/${language}/${platform}`, async ({ page }) => {
          expect(await imagesLoaded(page)).toBe(true);
          expect(await brokenWords(page), `${type} ${language} ${platform}`).toEqual([]);
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${type} ${language}`).toBe(true);
          for (const list of await factColumns(page)) {
            expect(list.valuesRightOfLabels, `${type} ${language}`).toBe(true);
            expect(list.labelShare, `${type} ${language}`).toBeLessThanOrEqual(0.45);
            expect(list.valueShare, `${type} ${language}`).toBeGreaterThanOrEqual(0.45);
          }
          // One main button, on the first screen.
          const main = await page.$$eval('a.button:not(.secondary)', (els) => els.map((el) => el.getBoundingClientRect().bottom));
          if (type !== 'gallery' && type !== 'image' && type !== 'pdf' && type !== 'multi-pdf')
            expect(main.length, `${type} ${language}`).toBe(1);
          if (main.length > 0) expect(main[0]!, `${type} ${language}`).toBeLessThanOrEqual(844);
        });
      }
    }
    if (DOC_SCREENSHOTS && SCREENSHOT_TYPES.includes(type)) {
      // In Portuguese: the English pages' screenshots come from pages-browser.test.ts.
      await withVisit(`/${type}/pt/ios`, async ({ page }) => {
        await imagesLoaded(page);
        await mkdir(DOC_SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: `${DOC_SCREENSHOTS}${type}-pt.png` });
      });
    }
  });

  it('event: the photo on top, then the title; Register first', async () => {
    await withVisit('/event/en/ios', async ({ page }) => {
      const photo = await page.locator('img.hero').boundingBox();
      const heading = await page.locator('h1').boundingBox();
      expect(photo!.y + photo!.height).toBeLessThanOrEqual(heading!.y);
      expect(photo!.width).toBeGreaterThan(300);
      expect(await page.locator('a.button').first().innerText()).toBe('Register');
      expect(await page.getByRole('link', { name: 'Main hall' }).getAttribute('href')).toBe('https://maps.apple.com/?q=Main%20hall');
    });
  });

  it('vcard: the photo beside the name, Directions on one line, each label beside its value', async () => {
    for (const language of LANGUAGES) {
      await withVisit(`/vcard/${language}/ios`, async ({ page }) => {
        const photo = (await page.locator('img.contact-photo').boundingBox())!;
        const heading = (await page.locator('h1').boundingBox())!;
        expect(photo.x + photo.width).toBeLessThanOrEqual(heading.x);
        const lastAction = page.locator('.actions a').last();
        const box = (await lastAction.boundingBox())!;
        const lineHeight = await lastAction.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight));
        expect(box.height - 16, language).toBeLessThan(lineHeight * 2);
        const pairs = await page.$$eval('dl.facts dt', (dts) =>
          dts
            .map((dt) => [dt.getBoundingClientRect(), dt.nextElementSibling!.getBoundingClientRect()] as const)
            .map(([a, b]) => Math.abs(a.top - b.top)),
        );
        for (const offset of pairs) expect(offset).toBeLessThan(16);
      });
    }
  });

  it('gallery: "2 / 3", Escape closes, swipes and arrows move, and the history grows by one step at most', async () => {
    await withVisit('/gallery/en/android', async ({ page }) => {
      const historyLength = () => page.evaluate(() => history.length);
      const start = await historyLength();
      await page.locator('.gallery a[href="#view-1"]').tap();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#view-1');
      expect(await page.locator('#view-1 .viewer-count').innerText()).toBe('1 / 3');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#view-2');
      expect(await page.locator('#view-2 .viewer-count').innerText()).toBe('2 / 3');
      // A swipe to the left: the next image.
      await page.evaluate(() => {
        const touch = (x: number) => new Touch({ identifier: 1, target: document.querySelector('#view-2')!, clientX: x, clientY: 400 });
        document
          .querySelector('#view-2')!
          .dispatchEvent(new TouchEvent('touchstart', { bubbles: true, touches: [touch(300)], changedTouches: [touch(300)] }));
        document
          .querySelector('#view-2')!
          .dispatchEvent(new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [touch(120)] }));
      });
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#view-3');
      await page.locator('#view-3').getByRole('link', { name: 'Previous' }).tap();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#view-2');
      expect(await historyLength()).toBe(start + 1);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.evaluate(() => document.querySelector('.viewer:target'))).toBeNull();
      expect(await page.locator('.viewer').first().isVisible()).toBe(false);
      // Back from the list now leaves nothing of the viewer behind: no step per image.
      await page.locator('.gallery a[href="#view-3"]').tap();
      await expect.poll(() => page.evaluate(() => location.hash)).toBe('#view-3');
      await page.locator('#view-3').getByRole('link', { name: 'Close' }).tap();
      await expect.poll(() => page.evaluate(() => document.querySelector('.viewer:target'))).toBeNull();
      expect(await historyLength()).toBeLessThanOrEqual(start + 1);
    });
  });

  it('product: Buy first; a tap on an image opens it large, Escape closes it', async () => {
    await withVisit('/product/en/ios', async ({ page }) => {
      expect(await page.locator('a.button').first().innerText()).toBe('Buy');
      const thumbnail = page.locator('.product-images a').nth(1);
      const small = (await thumbnail.boundingBox())!;
      await thumbnail.tap();
      const viewerImage = page.locator('#view-2 img');
      await expect.poll(() => viewerImage.isVisible()).toBe(true);
      expect((await viewerImage.boundingBox())!.width).toBeGreaterThan(small.width * 2);
      await page.keyboard.press('Escape');
      await expect.poll(() => viewerImage.isVisible()).toBe(false);
    });
  });
});
