/**
 * The cafe editor on a phone, in headless Chromium against the real api and workers: its tabs
 * (Menu, Profile, Look, Import) by keyboard and by address, Back and a bookmark returning to a
 * tab, a profile half typed surviving a look at another tab; a dish dragged by its grip with a
 * finger (real touch events) moves, the API agrees and a reload shows it; and a menu of 200
 * dishes imported whole stays a short page on a 390 px screen: categories closed, nothing under a
 * thumb's 44 px, nothing wider than the screen, a search that finds dishes by name or description
 * and opens the categories holding them, and categories the owner opens kept open on reload.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleScreenshot, hasChromium, launchChromium, overflowingElements, PHONE, signInBeforeLoad } from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { sendForm, textPart } from '../../support/fixtures.js';
import { call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';

let api: TestApi;
let base: string;
let browser: Browser;
let workers: RunningWorkers;
let owner: TestAccount;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi({ JOB_WAIT_MS: '20000' }));
  workers = await startWorkers(api.ctx);
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await workers?.close();
  await api?.close();
});

type Cafe = { id: string; name: string };
const newCafe = async (name: string): Promise<Cafe> => (await call(api.app, owner.key, 'POST', '/api/v1/cafes', { name })).json().data;

async function openPhone(hash: string) {
  const context = await browser.newContext({ ...PHONE });
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${base}#${hash}`);
  return { context, page, problems };
}

/** The visible buttons smaller than a thumb (44 px) either way, by their names. */
const smallButtons = (page: Page) =>
  page.$$eval('button', (buttons) =>
    buttons
      .map((b) => ({ box: b.getBoundingClientRect(), name: b.getAttribute('aria-label') ?? b.textContent }))
      .filter(({ box }) => box.width > 0 && box.height > 0 && (box.width < 44 || box.height < 44))
      .map(({ box, name }) => `${name} ${Math.round(box.width)}×${Math.round(box.height)}`),
  );
const pageHeight = (page: Page) => page.evaluate(() => document.documentElement.scrollHeight);
const hashOf = (page: Page) => page.evaluate(() => location.hash);

describe.skipIf(!hasChromium)('the cafe editor on a phone', () => {
  it('moves between its tabs by keyboard and by address; Back and a bookmark return to a tab; a half-typed profile survives', async () => {
    const cafe = await newCafe('Café Tabs');
    const { context, page, problems } = await openPhone(`/cafes/${cafe.id}`);
    try {
      const tabs = page.getByRole('tablist', { name: 'Café Tabs: parts' });
      const tab = (name: string) => tabs.getByRole('tab', { name });
      await tab('Menu').waitFor();
      expect(await tabs.getByRole('tab').allTextContents()).toEqual(['Menu', 'Profile', 'Look', 'Import']);
      expect(await tab('Menu').getAttribute('aria-selected')).toBe('true');
      await page.getByRole('tabpanel', { name: 'Menu' }).getByRole('heading', { name: 'Menu', level: 2 }).waitFor();
      // Only the selected tab is in the Tab order.
      expect(await tabs.getByRole('tab').evaluateAll((all) => all.map((t) => (t as HTMLElement).tabIndex))).toEqual([0, -1, -1, -1]);

      // → opens the next tab, at its own address; what is typed there stays when another tab is looked at.
      await tab('Menu').focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => hashOf(page)).toBe(`#/cafes/${cafe.id}/profile`);
      expect(await tab('Profile').getAttribute('aria-selected')).toBe('true');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Profile');
      const profile = page.getByRole('tabpanel', { name: 'Profile' });
      await profile.getByLabel('Name', { exact: true }).fill('Café Tabs & Co');
      await tab('Profile').focus();
      await page.keyboard.press('End');
      await expect.poll(() => hashOf(page)).toBe(`#/cafes/${cafe.id}/import`);
      await page.getByRole('tabpanel', { name: 'Import' }).getByRole('heading', { name: 'Import a whole menu from a CSV file' }).waitFor();
      expect(await profile.isVisible()).toBe(false);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => hashOf(page)).toBe(`#/cafes/${cafe.id}/menu`);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => hashOf(page)).toBe(`#/cafes/${cafe.id}/import`);
      await page.keyboard.press('Home');
      await expect.poll(() => hashOf(page)).toBe(`#/cafes/${cafe.id}/menu`);

      // Back walks the tabs visited; the profile still holds what was typed.
      await page.goBack();
      await expect.poll(() => tab('Import').getAttribute('aria-selected')).toBe('true');
      await page.goBack();
      await expect.poll(() => tab('Menu').getAttribute('aria-selected')).toBe('true');
      await page.goBack();
      await page.goBack();
      await expect.poll(() => tab('Profile').getAttribute('aria-selected')).toBe('true');
      expect(await profile.getByLabel('Name', { exact: true }).inputValue()).toBe('Café Tabs & Co');

      // A click on a tab, and a bookmark of one.
      await tab('Look').click();
      await page.getByRole('tabpanel', { name: 'Look' }).getByRole('form', { name: 'Look of the menu page' }).waitFor();
      const bookmark = await context.newPage();
      await bookmark.goto(`${base}#/cafes/${cafe.id}/look`);
      await bookmark.getByRole('form', { name: 'Look of the menu page' }).waitFor();
      expect(await bookmark.getByRole('tab', { name: 'Look' }).getAttribute('aria-selected')).toBe('true');
      expect(await bookmark.locator('.menu-editor').count()).toBe(0);
      // A tab that does not exist is no page.
      await bookmark.goto(`${base}#/cafes/${cafe.id}/hours`);
      await bookmark.getByText(`There is no page at #/cafes/${cafe.id}/hours`).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('moves a dish dragged by its grip with a finger; the API agrees and a reload shows it', async () => {
    const cafe = await newCafe('Café Touch');
    const group = (await sendForm(api.app, owner.key, 'POST', `/api/v1/cafes/${cafe.id}/groups`, [textPart('name', 'Drinks')])).json().data;
    const category = (
      await call(api.app, owner.key, 'POST', `/api/v1/cafes/${cafe.id}/categories`, { name: 'Coffee', group_id: group.id })
    ).json().data;
    for (const name of ['Espresso', 'Cortado', 'Galão', 'Flat white']) {
      const made = await sendForm(api.app, owner.key, 'POST', `/api/v1/cafes/${cafe.id}/items`, [
        textPart('category_id', category.id),
        textPart('name', name),
        textPart('price', '2'),
        textPart('currency', 'EUR'),
      ]);
      expect(made.statusCode, made.body).toBe(200);
    }
    const apiOrder = async () =>
      ((await call(api.app, owner.key, 'GET', `/api/v1/cafes/${cafe.id}/items`)).json().data as Array<{ name: string; order: number }>)
        .sort((a, b) => a.order - b.order)
        .map((i) => i.name);
    const { context, page, problems } = await openPhone(`/cafes/${cafe.id}/menu`);
    try {
      const dishes = page.getByRole('list', { name: 'Dishes in Coffee' });
      const names = () => dishes.locator('.menu-item-name').allTextContents();
      await expect.poll(names).toEqual(['Espresso', 'Cortado', 'Galão', 'Flat white']);

      // A finger on Espresso's grip, moved in steps down onto Galão's place, then lifted: real touch events.
      const grip = (await dishes.locator('li').nth(0).locator('.drag-handle').boundingBox())!;
      const target = (await dishes.locator('li').nth(2).boundingBox())!;
      const cdp = await context.newCDPSession(page);
      const at = (x: number, y: number) => [{ x, y, id: 1, radiusX: 4, radiusY: 4, force: 1 }];
      const x = grip.x + grip.width / 2;
      const from = grip.y + grip.height / 2;
      const to = target.y + target.height / 2 + 4;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(x, from) });
      for (let step = 1; step <= 8; step++)
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(x, from + ((to - from) * step) / 8) });
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });

      await expect.poll(names).toEqual(['Cortado', 'Galão', 'Espresso', 'Flat white']);
      await expect.poll(apiOrder).toEqual(['Cortado', 'Galão', 'Espresso', 'Flat white']);
      // The page did not scroll under the finger, and it said so.
      await page.locator('.toast').filter({ hasText: '“Espresso” moved.' }).waitFor();
      await page.reload();
      await expect.poll(names).toEqual(['Cortado', 'Galão', 'Espresso', 'Flat white']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('keeps a 200-dish menu a short page: categories closed, thumb-sized controls, a search that opens what it finds', async () => {
    const cafe = await newCafe('Café Grande');
    const items = Array.from({ length: 200 }, (_, i) => ({
      name: `Dish ${i + 1}`,
      price: 2 + (i % 9),
      currency: 'EUR',
      category: `Category ${i % 20}`,
      group: `Group ${i % 4}`,
      ...(i % 2 ? { description: `Dish ${i + 1}, made fresh${i === 41 ? ' with saffron' : ''}` } : {}),
    }));
    const imported = await call(api.app, owner.key, 'POST', `/api/v1/cafes/${cafe.id}/items/bulk-insert`, { items });
    expect(imported.statusCode, imported.body).toBe(200);
    const { context, page, problems } = await openPhone(`/cafes/${cafe.id}/menu`);
    try {
      const editor = page.locator('.menu-editor');
      const dishLists = editor.getByRole('list', { name: /^Dishes in / });
      await editor.getByText('200 dishes in 20 categories').waitFor();
      await editor.getByRole('heading', { name: 'Category 19', level: 4 }).waitFor();
      // Closed categories: each a row with its count; no dish on the page yet.
      expect(await dishLists.count()).toBe(0);
      expect(await editor.getByRole('button', { name: 'Category 7', exact: true }).getAttribute('aria-expanded')).toBe('false');
      expect(await pageHeight(page)).toBeLessThan(2500);
      expect(await smallButtons(page)).toEqual([]);
      expect(await overflowingElements(page, PHONE.viewport.width)).toEqual([]);
      await consoleScreenshot(page, 'cafe-editor-menu-200-dishes', { dark: true });

      // Search: by name, then by description; the categories holding matches open, the rest leave.
      const search = editor.getByRole('searchbox', { name: 'Search dishes' });
      await search.fill('dish 17');
      await editor.getByRole('status').filter({ hasText: '11 dishes match “dish 17”.' }).waitFor();
      expect((await editor.locator('.menu-item-name').allTextContents()).sort()).toEqual(
        ['Dish 17', ...Array.from({ length: 10 }, (_, i) => `Dish ${170 + i}`)].sort(),
      );
      expect(await dishLists.count()).toBe(10);
      await consoleScreenshot(page, 'cafe-editor-menu-search', { dark: true });
      expect(await editor.locator('.menu-category').count()).toBe(10);
      // No grips while searching: a drag among some of a category's dishes would say nothing of the rest.
      expect(await editor.locator('.drag-handle').count()).toBe(0);
      await search.fill('SAFFRON');
      await editor.getByRole('status').filter({ hasText: '1 dish matches “SAFFRON”.' }).waitFor();
      expect(await editor.locator('.menu-item-name').allTextContents()).toEqual(['Dish 42']);
      await search.fill('tiramisu');
      await editor.getByRole('status').filter({ hasText: 'No dish matches “tiramisu”.' }).waitFor();
      expect(await editor.locator('.menu-category').count()).toBe(0);
      await search.fill('');
      await expect.poll(() => editor.locator('.menu-category').count()).toBe(20);
      expect(await dishLists.count()).toBe(0);

      // One category opened by the owner stays open on reload (this tab's session); Open all opens every one.
      await editor.getByRole('button', { name: 'Category 3', exact: true }).click();
      await editor.getByRole('list', { name: 'Dishes in Category 3' }).waitFor();
      expect(await smallButtons(page)).toEqual([]);
      await page.reload();
      await page.getByRole('list', { name: 'Dishes in Category 3' }).waitFor();
      expect(
        await page
          .locator('.menu-editor')
          .getByRole('list', { name: /^Dishes in / })
          .count(),
      ).toBe(1);
      await page.getByRole('button', { name: 'Open all' }).click();
      await expect.poll(() => page.locator('.menu-editor .menu-dish').count()).toBe(200);
      expect(await smallButtons(page)).toEqual([]);
      expect(await overflowingElements(page, PHONE.viewport.width)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});
