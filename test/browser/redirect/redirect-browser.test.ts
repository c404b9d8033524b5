/**
 * What a phone sees when it scans: every link type that shows a page, made through the real api
 * and opened through the real redirect app in headless Chromium (mobile viewport), with its
 * files served by the redirect's /files route. Screenshots go to test-output/scans/.
 */
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINK_TYPES } from '#domain/links/data/index.js';
import { hasChromium, imagesLoaded, launchChromium, PHONE, screenshot, visitPage, type PageVisit } from '../../support/browser.js';
import { pdfBytes, pngBytes, uploadFile } from '../../support/fixtures.js';
import { call, createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { exampleData, type ExampleFiles } from '../../support/link-examples.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';

const SCREENSHOTS = 'test-output/scans/';
const PAGE_TYPES = LINK_TYPES.filter((t) => t !== 'website' && t !== 'smart-url');
/** Image pages show their pictures (checked by alt text: the owner's page title and place, never the file name); the others this text from the example data. */
const EXPECTED_IMAGES: Record<string, string[]> = {
  image: ['Scan image'],
  gallery: ['Scan gallery, image 1 of 2', 'Scan gallery, image 2 of 2'],
};
/** Text each page must show, taken from the example data. */
const EXPECTED_TEXT: Record<string, string> = {
  email: 'hello@example.com',
  sms: '+1 (555) 010-2030',
  vcard: 'Lovelace',
  wifi: 'Cafe Guest',
  location: '48.8584',
  event: 'Jazz at the Aroma',
  pdf: 'a.pdf',
  landing: 'Welcome',
  product: 'House blend',
  'multi-links': 'Order online',
  'multi-pdf': 'Dinner',
  menu: 'menu',
};

describe.skipIf(!hasChromium)('scanned pages in headless Chromium, through the redirect process', () => {
  let api: TestApi;
  let redirect: TestRedirect;
  let me: TestAccount;
  let browser: Browser;

  beforeAll(async () => {
    api = await startTestApi();
    redirect = await startTestRedirect(api.ctx);
    me = await createTestAccount(api.ctx);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await redirect?.close();
    await api?.close();
  });

  async function freshFiles(): Promise<ExampleFiles> {
    const up = (b: Buffer, n: string) => uploadFile(api.app, me.key, b, n).then((r) => r.fileId);
    return {
      images: [await up(pngBytes(40, 30), 'a.png'), await up(pngBytes(30, 40, [20, 90, 200]), 'b.png')],
      pdfs: [await up(pdfBytes('lunch'), 'a.pdf'), await up(pdfBytes('dinner'), 'b.pdf')],
    };
  }

  const createLink = async (body: Record<string, unknown>) => (await createLinkVia(api.app, me.key, body)).slug;

  async function expectCleanPage(visit: PageVisit) {
    expect(visit.problems).toEqual([]);
    expect(visit.blockedRequests).toEqual([]);
    for (const url of visit.requests) expect(new URL(url).host).toBe(new URL(redirect.base).host);
    expect(await imagesLoaded(visit.page)).toBe(true);
  }

  it.each(PAGE_TYPES)('%s', async (type) => {
    const slug = await createLink({
      name: `Scan ${type}`,
      type,
      data: exampleData(type, await freshFiles()),
      ...(EXPECTED_IMAGES[type] ? { pageStyle: { title: `Scan ${type}` } } : {}),
    });
    const visit = await visitPage(browser, `${redirect.base}/${slug}`);
    try {
      expect(visit.response?.status()).toBe(200);
      if (EXPECTED_IMAGES[type]) {
        const alts = await visit.page.$$eval('img', (images) => images.map((img) => img.alt));
        for (const name of EXPECTED_IMAGES[type]) expect(alts.join(' ')).toContain(name);
      } else {
        expect((await visit.page.textContent('body'))!.toLowerCase()).toContain(EXPECTED_TEXT[type]!.toLowerCase());
      }
      await expectCleanPage(visit);
      await screenshot(visit, `${SCREENSHOTS}${type}.png`);
    } finally {
      await visit.close();
    }
  });

  const protectedContact = (password: string) =>
    createLink({
      name: 'Secret contact',
      type: 'vcard',
      data: exampleData('vcard', { images: [], pdfs: [] }),
      linkConfigurations: { passwordProtectedActive: true, password },
    });

  it('a password-protected page: the form, then the page once the password is right', async () => {
    const slug = await protectedContact('table 7');
    const visit = await visitPage(browser, `${redirect.base}/${slug}`);
    try {
      expect(visit.response?.status()).toBe(200);
      await screenshot(visit, `${SCREENSHOTS}password-form.png`);
      await visit.page.fill('input[name="password"]', 'wrong');
      await Promise.all([visit.page.waitForNavigation(), visit.page.click('button[type="submit"], input[type="submit"]')]);
      expect(await visit.page.textContent('body')).toMatch(/wrong|incorrect|try again/i);
      await visit.page.fill('input[name="password"]', 'table 7');
      await Promise.all([visit.page.waitForNavigation(), visit.page.click('button[type="submit"], input[type="submit"]')]);
      expect(await visit.page.textContent('body')).toContain('Lovelace');
      // A 401 document is logged by Chromium as a failed load; only other problems count.
      expect(visit.problems.filter((p) => !p.includes('401'))).toEqual([]);
      expect(visit.blockedRequests).toEqual([]);
    } finally {
      await visit.close();
    }
  });

  it('a form on another site posting the right password gets the 403 page, and no cookie', async () => {
    const slug = await protectedContact('table 8');
    // Another site (localhost is not 127.0.0.1's site) whose button posts the form to the link.
    const elsewhere = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        `<form method="post" action="${redirect.base}/${slug}"><input name="password" value="table 8"><button>Win a prize</button></form>`,
      );
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const visit = await visitPage(browser, `http://localhost:${(elsewhere.address() as AddressInfo).port}/`, {
      allowedHosts: ['localhost', '127.0.0.1'],
    });
    try {
      const [response] = await Promise.all([visit.page.waitForNavigation(), visit.page.click('button')]);
      expect(response?.status()).toBe(403);
      expect(await visit.page.textContent('body')).toContain('This form was sent from another site');
      expect((await visit.context.cookies(redirect.base)).map((c) => c.name)).toEqual([]);
    } finally {
      await visit.close();
      elsewhere.close();
    }
  });

  it('a PDF opened from its page shows in Chromium’s viewer, sandboxed like every stored file', async () => {
    const { PNG } = await import('pngjs');
    const slug = await createLink({ name: 'Menu PDF', type: 'pdf', data: exampleData('pdf', await freshFiles()) });
    const visit = await visitPage(browser, `${redirect.base}/${slug}`);
    const href = await visit.page.getAttribute('a.button', 'href').finally(() => visit.close());
    // A context of its own: the viewer is an extension whose requests visitPage's host filter would block.
    const context = await browser.newContext({ ...PHONE });
    try {
      const page = await context.newPage();
      const response = await page.goto(new URL(href!, redirect.base).href, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      expect((await response!.allHeaders())['content-security-policy']).toContain('sandbox');
      // The viewer draws the page (white) over its dark background once PDFium has rendered it.
      const whiteShare = async () => {
        const shot = PNG.sync.read(await page.screenshot());
        let white = 0;
        for (let i = 0; i < shot.data.length; i += 4)
          if (shot.data[i]! > 245 && shot.data[i + 1]! > 245 && shot.data[i + 2]! > 245) white++;
        return white / (shot.width * shot.height);
      };
      await expect.poll(whiteShare, { timeout: 60_000, interval: 500 }).toBeGreaterThan(0.02);
      await mkdir(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: `${SCREENSHOTS}pdf-file.png` });
    } finally {
      await context.close();
    }
  }, 120_000);

  it('a paused link shows its 410 page', async () => {
    const slug = await createLink({ name: 'Paused', type: 'website', data: { url: 'https://example.com' } });
    await call(api.app, me.key, 'POST', `/api/v1/links/${slug}/pause`);
    const visit = await visitPage(browser, `${redirect.base}/${slug}`);
    try {
      expect(visit.response?.status()).toBe(410);
      expect(await visit.page.textContent('body')).toMatch(/paused/i);
      await expectCleanPage(visit);
      await screenshot(visit, `${SCREENSHOTS}paused.png`);
    } finally {
      await visit.close();
    }
  });
});
