/**
 * The console's editors follow the address, in headless Chromium against the real api: moving from
 * one link's (cafe's, template's) edit page to another's in the same tab — the address changed as
 * a bookmark or an in-app link does, or Back and Forward — shows the second one's data, and a save
 * there changes that one only. While the second one loads, the first one's form is not on the
 * page; an answer for the one left behind (its late load, or a save sent before leaving) neither
 * replaces the one shown nor takes the tab elsewhere.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launchChromium, signInBeforeLoad } from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

async function open(hash: string): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext(DESKTOP);
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${base}#${hash}`);
  return { context, page, problems };
}

/** The address changed in the same tab, as a bookmark or an in-app link changes it: the page is not reloaded. */
const goTo = (page: Page, hash: string) => page.evaluate((h) => (location.hash = h), `#${hash}`);
const hashOf = (page: Page) => new URL(page.url()).hash;

/**
 * Holds the page's requests for `url` (and `method`) until `release`: they reach the api only then.
 * `settled` waits until the page has read the answer and drawn two frames after it, so what the
 * answer does (or must not do) is on the screen.
 */
async function hold(page: Page, url: string, method = 'GET') {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let requests = 0;
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    requests += 1;
    await gate;
    await route.fallback();
  });
  const answered = page.waitForResponse((r) => r.url() === url && r.request().method() === method);
  // A test that fails before the answer must not leave this waiting unheard.
  answered.catch(() => {});
  return {
    sent: () => expect.poll(() => requests).toBeGreaterThan(0),
    release,
    settled: async () => {
      await (await answered).finished();
      await page.unroute(url);
      // The resource timing entry is written when the page has the whole body.
      await expect.poll(() => page.evaluate((u) => performance.getEntriesByName(u).length, url)).toBeGreaterThan(0);
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    },
  };
}

const storedLink = async (slug: string) => (await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}`)).json().data;

describe.skipIf(!hasChromium)('console editors follow the address', () => {
  it("a link's edit page, left for another link's by address: the other's data, saved to it alone; Back shows the first", async () => {
    // Both made now: their updated_at (a day) is the same.
    const a = await createLinkVia(api.app, owner.key, {
      name: 'Spring menu',
      type: 'website',
      data: { url: 'https://example.com/spring' },
    });
    const b = await createLinkVia(api.app, owner.key, {
      name: 'Summer menu',
      type: 'website',
      data: { url: 'https://example.com/summer' },
    });
    const aBefore = await storedLink(a.slug);
    expect((await storedLink(b.slug)).updated_at).toBe(aBefore.updated_at);

    const { context, page, problems } = await open(`/links/${a.slug}/edit`);
    try {
      const name = page.getByLabel('Name', { exact: true });
      const url = page.locator('#field-data-url');
      await page.getByRole('heading', { name: 'Edit Spring menu' }).waitFor();
      expect(await url.inputValue()).toBe('https://example.com/spring');

      // While B's data is on its way, A's form is not on the page to be edited or saved.
      const bLoad = await hold(page, `${base}api/v1/links/${b.slug}`);
      await goTo(page, `/links/${b.slug}/edit`);
      await bLoad.sent();
      await page.getByText('Loading the link…').waitFor();
      expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
      expect(await name.count()).toBe(0);
      bLoad.release();
      await bLoad.settled();

      await page.getByRole('heading', { name: 'Edit Summer menu' }).waitFor();
      expect(await name.inputValue()).toBe('Summer menu');
      expect(await url.inputValue()).toBe('https://example.com/summer');
      await name.fill('Summer menu 2027');
      await url.fill('https://example.com/summer-2027');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      expect(await storedLink(b.slug)).toMatchObject({ name: 'Summer menu 2027', meta_data: { url: 'https://example.com/summer-2027' } });
      expect(await storedLink(a.slug)).toEqual(aBefore);

      // Back: A as stored; Forward: B as just saved.
      await page.goBack();
      expect(hashOf(page)).toBe(`#/links/${a.slug}/edit`);
      await page.getByRole('heading', { name: 'Edit Spring menu' }).waitFor();
      expect(await name.inputValue()).toBe('Spring menu');
      expect(await url.inputValue()).toBe('https://example.com/spring');
      await page.goForward();
      await page.getByRole('heading', { name: 'Edit Summer menu 2027' }).waitFor();
      expect(await url.inputValue()).toBe('https://example.com/summer-2027');

      // A's page left before its data came: its late answer does not replace B's form.
      const aLoad = await hold(page, `${base}api/v1/links/${a.slug}`);
      await goTo(page, `/links/${a.slug}/edit`);
      await aLoad.sent();
      await goTo(page, `/links/${b.slug}/edit`);
      await page.getByRole('heading', { name: 'Edit Summer menu 2027' }).waitFor();
      aLoad.release();
      await aLoad.settled();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Edit Summer menu 2027');
      expect(await name.inputValue()).toBe('Summer menu 2027');

      // A save that gives B a new slug moves the address with it; the form stays, saying it saved.
      const renamed = `summer-${Date.now()}`;
      await page.getByLabel('Custom short URL').check();
      await page.locator('#field-linkConfigurations-customUrl').fill(renamed);
      await page.getByRole('button', { name: 'Save changes' }).click();
      await expect.poll(() => hashOf(page)).toBe(`#/links/${renamed}/edit`);
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      expect(await page.locator('#field-linkConfigurations-customUrl').inputValue()).toBe(renamed);
      expect((await storedLink(renamed)).id).toBe(b.id);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("a cafe's editor, left for another cafe's: a late load or save of the first shows neither its data nor its form", async () => {
    const made = async (name: string) => (await call(api.app, owner.key, 'POST', '/api/v1/cafes', { name })).json().data;
    const a = await made('Café Alfama');
    const b = await made('Café Belém');
    const { context, page, problems } = await open(`/cafes/${a.id}/profile`);
    try {
      const heading = page.getByRole('heading', { level: 1 });
      const name = page.locator('.cafe-profile').getByLabel('Name', { exact: true });
      await page.getByRole('heading', { name: 'Café Alfama', level: 1 }).waitFor();

      // A's load is still on its way when the address moves to B.
      await goTo(page, '/cafes');
      await page.getByRole('heading', { name: 'Cafes', exact: true }).waitFor();
      const aLoad = await hold(page, `${base}api/v1/cafes/${a.id}`);
      await goTo(page, `/cafes/${a.id}/profile`);
      await aLoad.sent();
      await goTo(page, `/cafes/${b.id}/profile`);
      await page.getByRole('heading', { name: 'Café Belém', level: 1 }).waitFor();
      aLoad.release();
      await aLoad.settled();
      expect(await heading.textContent()).toBe('Café Belém');
      expect(await name.inputValue()).toBe('Café Belém');

      // A's profile saved, and B opened before the save's answer came back.
      await page.goBack();
      await page.getByRole('heading', { name: 'Café Alfama', level: 1 }).waitFor();
      await name.fill('Café Alfama Velha');
      const aSave = await hold(page, `${base}api/v1/cafes/${a.id}/profile`, 'PUT');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await aSave.sent();
      await goTo(page, `/cafes/${b.id}/profile`);
      await page.getByRole('heading', { name: 'Café Belém', level: 1 }).waitFor();
      aSave.release();
      await aSave.settled();
      expect(await heading.textContent()).toBe('Café Belém');
      expect(await name.inputValue()).toBe('Café Belém');
      expect(hashOf(page)).toBe(`#/cafes/${b.id}/profile`);
      // The save itself went through, to A.
      const cafe = async (id: string) => (await call(api.app, owner.key, 'GET', `/api/v1/cafes/${id}`)).json().data;
      expect([(await cafe(a.id)).name, (await cafe(b.id)).name]).toEqual(['Café Alfama Velha', 'Café Belém']);
      await page.goBack();
      await page.getByRole('heading', { name: 'Café Alfama Velha', level: 1 }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("a template saved and left for another before the save's answer: the tab stays on the other", async () => {
    const made = async (name: string) =>
      (await call(api.app, owner.key, 'POST', '/api/v1/templates', { name, qrOptions: { dotsOptions: { type: 'dots' } } })).json();
    const a = await made('Table cards');
    const b = await made('Posters');
    const { context, page, problems } = await open(`/templates/${a.id}`);
    try {
      const name = page.getByLabel('Template name', { exact: true });
      await page.getByRole('heading', { name: 'Edit “Table cards”' }).waitFor();
      await name.fill('Table cards (big)');
      const aSave = await hold(page, `${base}api/v1/templates/${a.id}`, 'PUT');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await aSave.sent();
      await goTo(page, `/templates/${b.id}`);
      await page.getByRole('heading', { name: 'Edit “Posters”' }).waitFor();
      aSave.release();
      await aSave.settled();
      expect(hashOf(page)).toBe(`#/templates/${b.id}`);
      expect(await name.inputValue()).toBe('Posters');
      const stored = async (id: string) => (await call(api.app, owner.key, 'GET', `/api/v1/templates/${id}`)).json().data.name;
      expect([await stored(a.id), await stored(b.id)]).toEqual(['Table cards (big)', 'Posters']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
