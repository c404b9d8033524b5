/**
 * A link's funnel on its analytics screen, against the real scan path in headless Chromium: scans
 * through the redirect, a tap on its page's Save contact, and the panel saying "3 scans → 1 saved
 * the contact, 33 %"; a link whose page has no taps says so. axe-core finds nothing serious at
 * phone and desktop width in either theme, and the panel fits a phone.
 */
import { and, eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureConsoleBuilt } from '#console/build.js';
import { pageActionDays } from '#domain/schema.js';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  isOfflineFavicon,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
  signInBeforeLoad,
} from '../../support/browser.js';
import { exampleData } from '../../support/link-examples.js';
import { pageTap, SCAN_USER_AGENTS, startScanStack, type ScanStack } from '../../support/redirect.js';
import { pollUntil } from '../../support/until.js';

const UA = SCAN_USER_AGENTS;

let stack: ScanStack;
let base: string;
let browser: Browser;
let card: { id: string; slug: string };
let site: { id: string; slug: string };

beforeAll(async () => {
  await ensureConsoleBuilt();
  stack = await startScanStack({}, { name: 'Cafe Aroma' });
  await stack.api.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(stack.api.app.server.address() as { port: number }).port}/`;
  card = await stack.createLink({ name: 'Business card', type: 'vcard', data: exampleData('vcard', { images: [], pdfs: [] }) });
  site = await stack.createLink({ name: 'Website', type: 'website', data: { url: 'https://example.com/' } });
  for (const userAgent of [UA.iosSafari, UA.androidChrome, UA.linuxFirefox])
    expect((await stack.redirect.get(`/${card.slug}`, { headers: { 'user-agent': userAgent } })).status).toBe(200);
  await stack.redirect.get(`/${site.slug}`, { headers: { 'user-agent': UA.iosSafari } });
  expect((await pageTap(stack.redirect, card.slug, 'save_contact', UA.iosSafari)).status).toBe(204);
  await stack.waitForScans(card.id, 3);
  await pollUntil(
    () =>
      stack.api.ctx.db
        .select()
        .from(pageActionDays)
        .where(and(eq(pageActionDays.linkId, card.id))),
    (rows) => rows.length === 1,
  );
  if (hasChromium) browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function open(hash: string, size: typeof PHONE | typeof DESKTOP, bypassCSP = false) {
  const context = await browser.newContext({ ...size, bypassCSP, timezoneId: 'UTC' });
  await signInBeforeLoad(context, stack.me.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on(
    'console',
    (m) => (m.type() === 'error' || m.type() === 'warning') && !isOfflineFavicon(m.text()) && problems.push(`${m.type()}: ${m.text()}`),
  );
  await page.goto(`${base}#${hash}`);
  await page.getByRole('region', { name: 'What people did on the page' }).waitFor();
  return { context, page, problems };
}

describe.skipIf(!hasChromium)('a link’s funnel in the console', () => {
  it('shows the scans and the visitors who saved the contact, and an empty state where nobody tapped', async () => {
    const { context, page, problems } = await open(`/analytics/${card.slug}`, DESKTOP);
    try {
      const funnel = page.getByRole('region', { name: 'What people did on the page' });
      const rows = await funnel
        .locator('li')
        .evaluateAll((items) =>
          items.map((li) => [
            li.querySelector('.ranked-name')!.textContent.replace(/\s+/g, ' ').trim(),
            li.querySelector('.ranked-count')!.textContent,
          ]),
        );
      // The arrow is drawn; a screen reader hears ", then".
      expect(rows).toEqual([['3 scans →, then 1 saved the contact', '33 %']]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    const empty = await open(`/analytics/${site.slug}`, PHONE);
    try {
      const funnel = empty.page.getByRole('region', { name: 'What people did on the page' });
      expect(await funnel.getByText("No taps on this link's page in this range.", { exact: false }).isVisible()).toBe(true);
      expect(empty.problems).toEqual([]);
    } finally {
      await empty.context.close();
    }
  });

  it('has no serious accessibility finding at phone and desktop width, light and dark, and fits a phone', async () => {
    for (const [size, slug] of [
      [PHONE, card.slug],
      [DESKTOP, card.slug],
      [PHONE, site.slug],
    ] as const) {
      const { context, page } = await open(`/analytics/${slug}`, size, true);
      try {
        expect(await seriousViolationsByTheme(page), `${slug} at ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        if (size === PHONE) expect(await overflowingElements(page, PHONE.viewport.width), slug).toEqual([]);
        if (size === PHONE && slug === card.slug) {
          await page.getByRole('region', { name: 'What people did on the page' }).scrollIntoViewIfNeeded();
          await consoleScreenshot(page, 'analytics-funnel', { dark: true });
        }
      } finally {
        await context.close();
      }
    }
  }, 40_000);
});
