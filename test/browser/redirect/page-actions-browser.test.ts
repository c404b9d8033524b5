/**
 * Taps on a hosted page's actions, end to end: a contact page served by the real redirect process
 * opened in headless Chromium, its "Save contact" tapped (the browser's own ping), counted once per
 * visitor, written by the redirect's flusher and answered by the link's funnel in the api.
 */
import { and, eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageActionDays } from '#domain/schema.js';
import { hasChromium, launchChromium, PHONE } from '../../support/browser.js';
import { call } from '../../support/harness.js';
import { exampleData, type ExampleFiles } from '../../support/link-examples.js';
import { SCAN_USER_AGENTS, startScanStack, type ScanStack } from '../../support/redirect.js';
import { pollUntil } from '../../support/until.js';

/** The pages under test show no files of the link. */
const NO_FILES: ExampleFiles = { images: [], pdfs: [] };

describe.skipIf(!hasChromium)('page actions tapped in Chromium', () => {
  let stack: ScanStack;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startScanStack();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  const tapsOf = async (linkId: string, action: string) => {
    const rows = await stack.api.ctx.db
      .select({ taps: pageActionDays.taps })
      .from(pageActionDays)
      .where(and(eq(pageActionDays.linkId, linkId), eq(pageActionDays.action, action)));
    return rows.reduce((n, r) => n + r.taps, 0);
  };

  /**
   * The link's page in a phone's browser as `userAgent` (headless Chromium's own user agent says
   * HeadlessChrome, which isbot knows), recording what it logs as errors (a CSP refusal among them).
   */
  async function openPage(slug: string, userAgent: string) {
    const context = await browser.newContext({ ...PHONE, userAgent });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && problems.push(m.text())));
    expect((await page.goto(`${stack.redirect.base}/${slug}`))?.status()).toBe(200);
    return { page, problems, close: () => context.close() };
  }

  it('a tap on Save contact is counted once per visitor and shows in the funnel', async () => {
    const link = await stack.createLink({ name: 'Card', type: 'vcard', data: exampleData('vcard', NO_FILES) });
    const visit = await openPage(link.slug, SCAN_USER_AGENTS.androidChrome);
    try {
      const save = visit.page.getByRole('link', { name: 'Save contact' });
      expect(await save.getAttribute('ping')).toBe(`/_/tap/${link.slug}/save_contact`);
      // The tap is a ping: the download goes ahead at once, the ping beside it.
      const pinged = visit.page.waitForResponse((r) => r.url().endsWith(`/_/tap/${link.slug}/save_contact`));
      const download = visit.page.waitForEvent('download');
      await save.click();
      await download;
      expect((await pinged).status()).toBe(204);
      expect(
        await pollUntil(
          () => tapsOf(link.id, 'save_contact'),
          (n) => n === 1,
        ),
      ).toBe(1);

      // The same visitor again, then another action: once the second is written, the repeat was not counted.
      const again = visit.page.waitForRequest((r) => r.url().endsWith('/save_contact'));
      await save.click();
      await again;
      const website = visit.page.getByRole('link', { name: 'ada.example.com' });
      const websitePinged = visit.page.waitForRequest((r) => r.url().endsWith('/website'));
      await website.click({ modifiers: ['ControlOrMeta'] });
      await websitePinged;
      expect(
        await pollUntil(
          () => tapsOf(link.id, 'website'),
          (n) => n === 1,
        ),
      ).toBe(1);
      expect(await tapsOf(link.id, 'save_contact')).toBe(1);
      expect(visit.problems).toEqual([]);
    } finally {
      await visit.close();
    }

    await stack.waitForScans(link.id, 1);
    const funnel = await pollUntil(
      async () => (await call(stack.api.app, stack.me.key, 'GET', `/api/v1/links/${link.slug}/analytics/actions?duration=today`)).json(),
      (body) => body.data.scans === 1,
    );
    expect(funnel).toEqual({
      data: {
        scans: 1,
        actions: [
          { action: 'save_contact', name: 'saved the contact', taps: 1, percentage: '100.00' },
          { action: 'website', name: 'opened the website', taps: 1, percentage: '100.00' },
        ],
      },
    });
  });

  it("wifi's Copy password, a button, reports its tap with a beacon from the page's own script", async () => {
    const link = await stack.createLink({ name: 'Guest wifi', type: 'wifi', data: exampleData('wifi', NO_FILES) });
    const { page, problems, close } = await openPage(link.slug, SCAN_USER_AGENTS.iosSafari);
    try {
      const beacon = page.waitForResponse((r) => r.url().endsWith(`/_/tap/${link.slug}/join_wifi`));
      await page.getByRole('button', { name: 'Copy password' }).click();
      expect((await beacon).status()).toBe(204);
      expect(
        await pollUntil(
          () => tapsOf(link.id, 'join_wifi'),
          (n) => n === 1,
        ),
      ).toBe(1);
      // The script ran under the page's CSP: nothing was refused.
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
