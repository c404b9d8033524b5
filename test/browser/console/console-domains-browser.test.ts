/**
 * The console's Domains page and domain picker in headless Chromium, against the real api and a
 * real DNS server on loopback: a name added shows the records to set, each with a copy button and
 * what was found; once the records are in DNS "Check now" verifies it; it becomes the default for
 * new links, and the link editor starts a new link on it, its short URL on the domain; a domain with
 * links cannot be removed, saying why. axe-core finds nothing serious or critical at 390 and 1440
 * px, in light and dark, and nothing reaches past a phone's screen.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
  signInBeforeLoad,
} from '../../support/browser.js';
import { call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { startConsoleApi } from '../../support/console.js';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.js';

const V4 = '203.0.113.10';

let api: TestApi;
let base: string;
let browser: Browser;
let dns: TestDnsServer;
let owner: TestAccount;
const suffix = `${process.pid}-${Date.now().toString(36)}.example`;
const MENU = `menu.aroma-${suffix}`;
const GO = `go.aroma-${suffix}`;

beforeAll(async () => {
  dns = await startDnsServer();
  ({ api, base } = await startConsoleApi({
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '400',
    DOMAIN_TARGET_ADDRESSES: V4,
    SHORT_URL_BASE: 'https://qr.example.net',
  }));
  owner = await createTestAccount(api.ctx, { plan: 'business', name: 'Cafe Aroma' });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
  await dns?.close();
});

async function open(path: string, viewport: typeof DESKTOP | typeof PHONE = DESKTOP) {
  // bypassCSP: axe-core is injected as a script, which the console's policy would refuse.
  const context = await browser.newContext({ bypassCSP: true, ...viewport });
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${base}#${path}`);
  return { context, page, problems };
}

const card = (page: Page, host: string) => page.getByRole('article', { name: host });

describe.skipIf(!hasChromium)('console: domains', () => {
  it('adds a name, shows the records to set, verifies it once they are in DNS, and makes it the default', async () => {
    const { context, page, problems } = await open('/domains');
    try {
      await page.getByRole('heading', { name: 'Domains', level: 1 }).waitFor();
      await page.getByText('No domains yet').waitFor();

      // Nothing typed: said before any request.
      await page.getByRole('button', { name: 'Add domain' }).click();
      expect(await page.getByRole('alert').textContent()).toContain('Enter a domain name');

      await page.getByLabel('Add a domain').fill(`${MENU.toUpperCase()}.`);
      await page.getByRole('button', { name: 'Add domain' }).click();
      const menu = card(page, MENU);
      await menu.waitFor();
      expect(await menu.getByText('Waiting for DNS').count()).toBe(1);
      const token = (await call(api.app, owner.key, 'GET', '/api/v1/domains')).json().data[0].token as string;
      // The TXT record to set, with its copy buttons.
      expect(await menu.getByText(`_qrlinks-challenge.${MENU}`).count()).toBe(1);
      expect(await menu.getByText(token).count()).toBe(1);
      expect(await menu.getByRole('button', { name: 'Copy the TXT value' }).count()).toBe(1);

      // A second, left pending, for the screenshots.
      await page.getByLabel('Add a domain').fill(GO);
      await page.getByRole('button', { name: 'Add domain' }).click();
      await card(page, GO).waitFor();

      dns.zone.set(`_qrlinks-challenge.${MENU}`, { TXT: [token] });
      dns.zone.set(MENU, { A: [V4] });
      await menu.getByRole('button', { name: 'Check now' }).click();
      await menu.getByText('Working').waitFor();
      expect(await menu.textContent()).toContain(`${MENU}/menu`);

      await menu.getByRole('button', { name: 'Use for new links' }).click();
      await menu.getByText('Default for new links').waitFor();
      const listed = (await call(api.app, owner.key, 'GET', '/api/v1/domains')).json().data as Array<{
        hostname: string;
        is_default: boolean;
      }>;
      expect(listed.find((d) => d.hostname === MENU)?.is_default).toBe(true);

      // Where people go: saved through the API.
      await menu.getByText('Where people go instead of the service’s pages').click();
      await menu.getByLabel('Its home page').fill('https://aroma.example/');
      await menu.getByRole('button', { name: 'Save' }).click();
      await page.getByText('Saved where the domain sends people.').waitFor();
      expect(listed.length).toBe(2);
      expect(
        (await call(api.app, owner.key, 'GET', '/api/v1/domains')).json().data.find((d: { hostname: string }) => d.hostname === MENU)
          .root_url,
      ).toBe('https://aroma.example/');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('starts a new link on the default domain; a domain with links cannot be removed, saying why', async () => {
    const { context, page, problems } = await open('/links/new?type=website');
    try {
      const picker = page.getByLabel('Domain', { exact: true });
      await picker.waitFor();
      expect(await picker.inputValue()).toBe(MENU);
      // The service's own first, then the account's, newest first.
      expect(await picker.locator('option').allTextContents()).toEqual(['qr.example.net (the service’s)', `${GO} (waiting for dns)`, MENU]);
      await page.getByLabel('Name').fill('Lisbon menu');
      await page.getByLabel('Web address').fill('https://aroma.example/lisboa');
      await page.getByRole('button', { name: 'Create link' }).click();
      // The edit page of the new link names its short URL, on the domain.
      await page.getByText(`Website link at ${MENU}/`).waitFor();

      await page.goto(`${base}#/domains`);
      const menu = card(page, MENU);
      await menu.getByRole('button', { name: 'Remove' }).click();
      await page.getByRole('button', { name: 'Remove domain' }).click();
      await page.getByRole('dialog').getByText('1 link is on this domain').waitFor();
      await page.getByRole('button', { name: 'Cancel' }).click();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const [label, viewport] of [
    ['1440', DESKTOP],
    ['390', PHONE],
  ] as const) {
    it(`is axe clean in light and dark and fits the screen at ${label} px`, async () => {
      const { context, page, problems } = await open('/domains', viewport);
      try {
        await card(page, GO).getByText('Waiting for DNS').waitFor();
        await card(page, MENU).getByText('Working').waitFor();
        expect(await seriousViolationsByTheme(page)).toEqual({ light: [], dark: [] });
        expect(await overflowingElements(page, viewport.viewport.width)).toEqual([]);
        await consoleScreenshot(page, 'domains', { dark: true });
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }
});
