/**
 * The console's menu editor against the real api in headless Chromium, checked on the guest menu
 * page the redirect serves: a group, a category and two dishes with photos built in the editor
 * (the API's refusal shown at its field) are on the page with their photos, dietary badges and
 * allergens; a dish edited keeps what the form shows; dishes, categories and groups moved by
 * keyboard (Alt+arrows, or a row menu's Move up), or a dish by its grip, change the page's order;
 * hidden ones leave it; deletes say what goes with them and can be undone, and are made once the
 * Undo is gone; a category moves to another group and a group is renamed and shown again in their
 * dialogs. axe-core finds nothing serious at 390 and 1440 px in either theme (a row menu open
 * too), and nothing is wider than a phone.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
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
import { startConsoleApi } from '../../support/console.js';
import { pngBytes, sendForm, textPart } from '../../support/fixtures.js';
import { call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';

/** The api serving the console, the redirect serving guest pages, the browser, and the cafes' owner. */
let stack!: { api: TestApi; base: string; redirect: TestRedirect; browser?: Browser; owner: TestAccount };

beforeAll(async () => {
  const { api, base } = await startConsoleApi();
  const [redirect, owner] = await Promise.all([
    startTestRedirect(api.ctx),
    createTestAccount(api.ctx, { plan: 'pro', name: 'Menu Owner' }),
  ]);
  stack = { api, base, redirect, owner, ...(hasChromium ? { browser: await launchChromium() } : {}) };
}, 120_000);
afterAll(async () => {
  await Promise.all([stack?.redirect.close(), stack?.browser?.close()]);
  await stack?.api.close();
});

type Cafe = { id: string; link: { dynamic_link_id: string } };

async function newCafe(name: string): Promise<Cafe> {
  return (await call(stack.api.app, stack.owner.key, 'POST', `${API_PREFIX}/cafes`, { name })).json().data;
}

/** A group, a category in it and a dish in that, made through the API (the editor's own paths are tested below). */
async function addThroughApi(cafe: Cafe, group: string, category: string, dish: string) {
  const url = (path: string) => `${API_PREFIX}/cafes/${cafe.id}${path}`;
  const g = (await sendForm(stack.api.app, stack.owner.key, 'POST', url('/groups'), [textPart('name', group)])).json().data;
  const c = (await call(stack.api.app, stack.owner.key, 'POST', url('/categories'), { name: category, group_id: g.id })).json().data;
  const i = await sendForm(stack.api.app, stack.owner.key, 'POST', url('/items'), [
    textPart('category_id', c.id),
    textPart('name', dish),
    textPart('price', '2'),
    textPart('currency', 'EUR'),
  ]);
  expect(i.statusCode, i.body).toBe(200);
}

async function openEditor(cafe: Cafe, size: typeof PHONE | typeof DESKTOP, options: { bypassCSP?: boolean } = {}) {
  const context = await stack.browser!.newContext({ ...size, bypassCSP: options.bypassCSP ?? false });
  await signInBeforeLoad(context, stack.owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${stack.base}#/cafes/${cafe.id}/menu`);
  await page.getByRole('heading', { name: 'Menu', level: 2 }).waitFor();
  return { context, page, problems };
}

/** Opens the row menu of `row` (a dish's name, or "category Tea", "group Food") and runs `action` from it. */
async function rowAction(page: Page, row: string, action: string) {
  await page.getByRole('button', { name: `Actions for ${row}`, exact: true }).click();
  await page
    .getByRole('menu', { name: `Actions for ${row}` })
    .getByRole('menuitem', { name: action })
    .click();
}

/** The toast saying `text`, and its Undo and Dismiss buttons. */
function toast(page: Page, text: string) {
  const found = page.locator('.toast').filter({ hasText: text });
  return { found, undo: found.getByRole('button', { name: 'Undo' }), dismiss: found.getByRole('button', { name: 'Dismiss' }) };
}

/** The guest page as served now: its group, category and dish headings in order, and the page itself. */
async function guestView(page: Page, cafe: Cafe) {
  const guest = await page.context().newPage();
  await guest.goto(`${stack.redirect.base}/${cafe.link.dynamic_link_id}`);
  const view = {
    groups: await guest.locator('.grp h2').allTextContents(),
    categories: await guest.locator('.cat h3').allTextContents(),
    dishes: await guest.locator('.item h4').allTextContents(),
    text: (await guest.locator('main, body').first().textContent()) ?? '',
    guest,
  };
  return view;
}

const png = (name: string, rgb: [number, number, number]) => ({ name, mimeType: 'image/png', buffer: pngBytes(120, 90, rgb) });

describe.skipIf(!hasChromium)('console menu editor', () => {
  it('builds a menu tree with photos that the guest page shows; edits, reorders by keyboard and drag, hides, and deletes with an Undo', async () => {
    const cafe = await newCafe('Café Tree');
    const { context, page, problems } = await openEditor(cafe, DESKTOP);
    try {
      await page.getByText('No groups yet').waitFor();

      // A group: a blank name is refused at its field, in words.
      await page.getByRole('button', { name: 'Add a group' }).click();
      const groupDialog = page.getByRole('dialog', { name: 'Add a group' });
      await groupDialog.getByRole('button', { name: 'Add group' }).click();
      expect(await groupDialog.locator('#field-group-name-error').textContent()).toContain('Give the group a name');
      expect(await groupDialog.getByLabel('Group name').getAttribute('aria-invalid')).toBe('true');
      await groupDialog.getByLabel('Group name').fill('Drinks');
      await groupDialog.getByLabel('Image (optional)').setInputFiles(png('drinks.png', [20, 60, 120]));
      await groupDialog.getByRole('button', { name: 'Add group' }).click();
      await groupDialog.waitFor({ state: 'detached' });
      await page.getByRole('heading', { name: 'Drinks', level: 3 }).waitFor();
      const [drinks] = (await call(stack.api.app, stack.owner.key, 'GET', `${API_PREFIX}/cafes/${cafe.id}/groups`)).json().data;
      expect(drinks).toMatchObject({ name: 'Drinks', visible: true, image: expect.stringContaining('/files/') });

      // A category in it, with a description and an image.
      await page.getByRole('button', { name: 'Add a category to Drinks' }).click();
      const categoryDialog = page.getByRole('dialog', { name: 'Add a category' });
      await categoryDialog.getByLabel('Category name').fill('Coffee');
      await categoryDialog.getByLabel('Description (optional)').fill('Roasted in house');
      expect(await categoryDialog.getByLabel('Group').inputValue()).not.toBe('');
      // A file that is no image: the category is made, the refusal shown at the image; saving again sends the image to it.
      await categoryDialog
        .getByLabel('Image (optional)')
        .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
      await categoryDialog.getByRole('button', { name: 'Add category' }).click();
      await expect.poll(() => categoryDialog.locator('#field-category-image-error').textContent()).toContain('unsupported image type');
      await categoryDialog.getByLabel('Image (optional)').setInputFiles(png('coffee.png', [90, 60, 30]));
      await categoryDialog.getByRole('img', { name: 'Image chosen, saved with the category' }).waitFor();
      await categoryDialog.getByRole('button', { name: 'Add category' }).click();
      await categoryDialog.waitFor({ state: 'detached' });
      const categories = (await call(stack.api.app, stack.owner.key, 'GET', `${API_PREFIX}/cafes/${cafe.id}/categories`)).json().data;
      expect(
        categories.map((c: { name: string; description: string; image: string | null }) => [c.name, c.description, Boolean(c.image)]),
      ).toEqual([['Coffee', 'Roasted in house', true]]);
      await page.getByRole('heading', { name: 'Coffee', level: 4 }).waitFor();

      // Two dishes with photos; a currency the API does not know is refused at its field.
      await page.getByRole('button', { name: 'Add a dish to Coffee' }).click();
      let dish = page.getByRole('dialog', { name: 'Add a dish' });
      await dish.getByLabel('Dish name').fill('Espresso');
      await dish.getByLabel('Price').fill('1,20');
      await dish.getByLabel('Currency').fill('ZZZ');
      await dish.getByLabel('Description (optional)').fill('A short, strong coffee.');
      await dish.getByLabel('Ingredients (optional)').fill('coffee\nwater');
      await dish.getByLabel('Vegan').check();
      await dish.getByLabel('Featured').check();
      await dish.getByLabel('Photo (optional)').setInputFiles(png('espresso.png', [60, 30, 10]));
      await dish.getByRole('img', { name: 'Photo chosen, saved with the dish' }).waitFor();
      await dish.getByRole('button', { name: 'Add dish' }).click();
      await expect
        .poll(() => dish.locator('#field-item-currency-error').textContent())
        .toBe('Must be an ISO 4217 currency code such as USD');
      expect(await dish.getByLabel('Currency').getAttribute('aria-invalid')).toBe('true');
      await dish.getByLabel('Currency').fill('EUR');
      await dish.getByRole('button', { name: 'Add dish' }).click();
      await dish.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Add a dish to Coffee' }).click();
      dish = page.getByRole('dialog', { name: 'Add a dish' });
      expect(await dish.getByLabel('Currency').inputValue()).toBe('EUR');
      await dish.getByLabel('Dish name').fill('Flat white');
      await dish.getByLabel('Price').fill('3.10');
      await dish.getByLabel('Vegetarian').check();
      await dish.getByLabel('Milk').check();
      await dish.getByLabel('Other allergens (optional)').fill('Oat');
      await dish.getByLabel('Spice level').selectOption('mild');
      await dish.getByLabel('New', { exact: true }).check();
      await dish.getByLabel('Photo (optional)').setInputFiles(png('flat-white.png', [230, 220, 200]));
      await dish.getByRole('button', { name: 'Add dish' }).click();
      await dish.waitFor({ state: 'detached' });
      const dishes = page.getByRole('list', { name: 'Dishes in Coffee' });
      await expect.poll(() => dishes.locator('.menu-item-name').allTextContents()).toEqual(['Espresso', 'Flat white']);

      const items = (await call(stack.api.app, stack.owner.key, 'GET', `${API_PREFIX}/cafes/${cafe.id}/items`)).json().data;
      expect(items[0]).toMatchObject({
        name: 'Espresso',
        price: 1.2,
        currency: 'EUR',
        description: 'A short, strong coffee.',
        ingredients: ['coffee', 'water'],
        tags: ['Vegan'],
        allergens: [],
        is_featured: true,
        spice_level: 'none',
      });
      expect(items[1]).toMatchObject({
        name: 'Flat white',
        price: 3.1,
        tags: ['Vegetarian'],
        allergens: ['Milk', 'Oat'],
        is_new: true,
        spice_level: 'mild',
      });
      expect(items.every((i: { image: string | null }) => i.image)).toBe(true);

      // The guest page: the group, the category, both dishes with their photos loaded.
      let view = await guestView(page, cafe);
      expect(view).toMatchObject({ groups: ['Drinks'], categories: ['Coffee'], dishes: ['Espresso', 'Flat white'] });
      for (const shown of ['Roasted in house', 'Vegan', 'Vegetarian', 'Milk, Oat', 'Featured', 'New', 'coffee, water'])
        expect(view.text).toContain(shown);
      for (const name of ['Espresso', 'Flat white']) {
        const photo = view.guest.getByRole('img', { name });
        await photo.scrollIntoViewIfNeeded();
        await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
      }
      await view.guest.close();

      // Editing a dish keeps its other fields and its photo; the form shows what is stored.
      await rowAction(page, 'Espresso', 'Edit');
      const edit = page.getByRole('dialog', { name: 'Edit the dish “Espresso”' });
      expect(await edit.getByLabel('Vegan').isChecked()).toBe(true);
      expect(await edit.getByLabel('Ingredients (optional)').inputValue()).toBe('coffee\nwater');
      await edit.getByLabel('Price').fill('1.30');
      await edit.getByLabel('Gluten-free').check();
      await edit.getByRole('button', { name: 'Save dish' }).click();
      await edit.waitFor({ state: 'detached' });
      const espresso = (await call(stack.api.app, stack.owner.key, 'GET', `${API_PREFIX}/cafes/${cafe.id}/items/${items[0].id}`)).json()
        .data;
      expect(espresso).toMatchObject({
        price: 1.3,
        tags: ['Vegan', 'Gluten-free'],
        ingredients: ['coffee', 'water'],
        is_featured: true,
        image: items[0].image,
      });

      // More of the menu, through the API, so categories and groups have something to reorder.
      await addThroughApi(cafe, 'Food', 'Pastries', 'Pastel de nata');
      const tea = (
        await call(stack.api.app, stack.owner.key, 'POST', `${API_PREFIX}/cafes/${cafe.id}/categories`, {
          name: 'Tea',
          group_id: (await call(stack.api.app, stack.owner.key, 'GET', `${API_PREFIX}/cafes/${cafe.id}/groups`)).json().data[0].id,
        })
      ).json().data;
      await sendForm(stack.api.app, stack.owner.key, 'POST', `${API_PREFIX}/cafes/${cafe.id}/items`, [
        textPart('category_id', tea.id),
        textPart('name', 'Green tea'),
        textPart('price', '2'),
        textPart('currency', 'EUR'),
      ]);
      await page.reload();
      await page.getByRole('heading', { name: 'Tea', level: 4 }).waitFor();
      view = await guestView(page, cafe);
      expect(view).toMatchObject({ groups: ['Drinks', 'Food'], categories: ['Coffee', 'Tea', 'Pastries'] });
      await view.guest.close();

      // Keyboard: a dish moved up with Alt+↑, a category with its menu's Move up (U), a group with
      // Alt+↑ again; focus stays with the moved row's menu button.
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
      await page.getByRole('button', { name: 'Actions for Flat white', exact: true }).focus();
      await page.keyboard.press('Alt+ArrowUp');
      await expect.poll(() => dishes.locator('.menu-item-name').allTextContents()).toEqual(['Flat white', 'Espresso']);
      await expect.poll(focused).toBe('Actions for Flat white');
      await page.getByRole('button', { name: 'Actions for category Tea' }).focus();
      await page.keyboard.press('Enter');
      await expect.poll(focused).toBe(null);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('EditE');
      await page.keyboard.press('u');
      await expect
        .poll(() => page.getByRole('list', { name: 'Categories in Drinks' }).locator('h4').allTextContents())
        .toEqual(['Tea', 'Coffee']);
      await expect.poll(focused).toBe('Actions for category Tea');
      await page.getByRole('button', { name: 'Actions for group Food' }).focus();
      await page.keyboard.press('Alt+ArrowUp');
      await expect.poll(() => page.locator('.menu-group h3').allTextContents()).toEqual(['Food', 'Drinks']);
      await expect.poll(focused).toBe('Actions for group Food');
      view = await guestView(page, cafe);
      expect(view).toMatchObject({
        groups: ['Food', 'Drinks'],
        categories: ['Pastries', 'Tea', 'Coffee'],
        dishes: ['Pastel de nata', 'Green tea', 'Flat white', 'Espresso'],
      });
      await view.guest.close();

      // By mouse: the first dish of Coffee dragged by its grip onto the second's place.
      const rows = dishes.locator('li');
      await rows.nth(0).locator('.drag-handle').dragTo(rows.nth(1));
      await expect.poll(() => dishes.locator('.menu-item-name').allTextContents()).toEqual(['Espresso', 'Flat white']);
      // Saved: the API orders Coffee's dishes so.
      const coffeeOrder = async () =>
        (
          (await call(stack.api.app, stack.owner.key, 'GET', `${API_PREFIX}/cafes/${cafe.id}/items`)).json().data as Array<{
            name: string;
            order: number;
          }>
        )
          .filter((i) => ['Espresso', 'Flat white'].includes(i.name))
          .sort((x, y) => x.order - y.order)
          .map((i) => i.name);
      await expect.poll(coffeeOrder).toEqual(['Espresso', 'Flat white']);

      // Hidden: a dish, a category, a group each leave the guest page.
      await rowAction(page, 'Espresso', 'Hide');
      await rows.filter({ hasText: 'Espresso' }).locator('.badge', { hasText: 'hidden' }).waitFor();
      await rowAction(page, 'category Tea', 'Hide');
      await page
        .locator('.menu-category.menu-hidden')
        .filter({ has: page.getByRole('heading', { name: 'Tea', level: 4 }) })
        .waitFor();
      await rowAction(page, 'group Food', 'Hide');
      await page
        .locator('.menu-group.menu-hidden')
        .filter({ has: page.getByRole('heading', { name: 'Food', level: 3 }) })
        .waitFor();
      await page.getByRole('button', { name: 'Actions for Espresso', exact: true }).click();
      await page.getByRole('menuitem', { name: 'Show' }).waitFor();
      await page.keyboard.press('Escape');
      view = await guestView(page, cafe);
      expect(view).toMatchObject({ groups: ['Drinks'], categories: ['Coffee'], dishes: ['Flat white'] });
      await view.guest.close();

      // A category's delete says its dishes go with it; Undo brings it back, and nothing was deleted.
      const itemNames = async () =>
        (await call(stack.api.app, stack.owner.key, 'GET', `${API_PREFIX}/cafes/${cafe.id}/items`))
          .json()
          .data.map((i: { name: string }) => i.name)
          .sort();
      await rowAction(page, 'category Coffee', 'Delete');
      const coffeeGone = toast(page, '“Coffee” deleted, with its 2 dishes.');
      await coffeeGone.found.waitFor();
      await page.getByRole('heading', { name: 'Coffee', level: 4 }).waitFor({ state: 'detached' });
      await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('menu-title');
      await coffeeGone.undo.click();
      await page.getByRole('heading', { name: 'Coffee', level: 4 }).waitFor();
      expect(await itemNames()).toEqual(['Espresso', 'Flat white', 'Green tea', 'Pastel de nata']);
      // Deleted again, and the toast closed: the delete is made then.
      await rowAction(page, 'category Coffee', 'Delete');
      await coffeeGone.dismiss.click();
      await expect.poll(itemNames).toEqual(['Green tea', 'Pastel de nata']);
      expect(await page.getByRole('heading', { name: 'Coffee', level: 4 }).count()).toBe(0);

      // A group's delete says its categories stay, ungrouped; they are shown there at once.
      await rowAction(page, 'group Drinks', 'Delete');
      await toast(page, '“Drinks” deleted: its 1 category (1 dish) stays on the menu page, under “Not in a group”.').found.waitFor();
      await page.getByRole('heading', { name: 'Not in a group', level: 3 }).waitFor();
      expect(await page.getByRole('list', { name: 'Categories in no group' }).locator('h4').allTextContents()).toEqual(['Tea']);
      await toast(page, '“Drinks” deleted').dismiss.click();
      await expect
        .poll(async () => (await call(stack.api.app, stack.owner.key, 'GET', `${API_PREFIX}/cafes/${cafe.id}/groups`)).json().data.length)
        .toBe(1);

      // A category moves to another group, and a group is renamed, in their dialogs.
      await rowAction(page, 'category Tea', 'Edit');
      const teaDialog = page.getByRole('dialog', { name: 'Edit the category “Tea”' });
      expect(await teaDialog.getByLabel('Group').inputValue()).toBe('');
      await teaDialog.getByLabel('Group').selectOption({ label: 'Food' });
      await teaDialog.getByRole('button', { name: 'Save category' }).click();
      await page.getByRole('heading', { name: 'Not in a group', level: 3 }).waitFor({ state: 'detached' });
      expect((await page.getByRole('list', { name: 'Categories in Food' }).locator('h4').allTextContents()).sort()).toEqual([
        'Pastries',
        'Tea',
      ]);
      await rowAction(page, 'group Food', 'Edit');
      const foodDialog = page.getByRole('dialog', { name: 'Edit the group “Food”' });
      expect(await foodDialog.getByLabel('Shown on the menu page').isChecked()).toBe(false);
      await foodDialog.getByLabel('Group name').fill('Kitchen');
      await foodDialog.getByLabel('Shown on the menu page').check();
      await foodDialog.getByRole('button', { name: 'Save group' }).click();
      await page.getByRole('heading', { name: 'Kitchen', level: 3 }).waitFor();
      view = await guestView(page, cafe);
      expect(view).toMatchObject({ groups: ['Kitchen'], categories: ['Pastries'], dishes: ['Pastel de nata'] });
      await view.guest.close();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('has no serious axe-core finding on the menu tree and its dialogs, at both widths and in both themes, and nothing wider than the screen', async () => {
    const cafe = await newCafe('Café Screens');
    await addThroughApi(cafe, 'Drinks', 'Coffee', 'Espresso');
    await addThroughApi(cafe, 'Food', 'Pastries', 'Pastel de nata');
    const coffee = (await call(stack.api.app, stack.owner.key, 'GET', `${API_PREFIX}/cafes/${cafe.id}/categories`)).json().data[0];
    await call(stack.api.app, stack.owner.key, 'PUT', `${API_PREFIX}/cafes/${cafe.id}/categories/${coffee.id}`, {
      description: 'Single origin, roasted in house',
    });
    const flat = await sendForm(stack.api.app, stack.owner.key, 'POST', `${API_PREFIX}/cafes/${cafe.id}/items`, [
      textPart('category_id', coffee.id),
      textPart('name', 'Flat white'),
      textPart('price', '3.1'),
      textPart('currency', 'EUR'),
      textPart('description', 'Double shot, steamed milk.'),
      textPart('tags', '["Vegetarian"]'),
      textPart('allergens', '["Milk"]'),
      textPart('is_new', 'true'),
      { name: 'image', data: pngBytes(40, 40, [230, 220, 200]), filename: 'flat.png', contentType: 'image/png' },
    ]);
    expect(flat.statusCode, flat.body).toBe(200);
    await sendForm(stack.api.app, stack.owner.key, 'POST', `${API_PREFIX}/cafes/${cafe.id}/items`, [
      textPart('category_id', coffee.id),
      textPart('name', 'Decaf'),
      textPart('price', '1.5'),
      textPart('visible', 'false'),
    ]);
    for (const size of [PHONE, DESKTOP]) {
      const { context, page, problems } = await openEditor(cafe, size, { bypassCSP: true });
      try {
        await page.getByRole('list', { name: 'Dishes in Coffee' }).waitFor();
        expect(await overflowingElements(page, size.viewport.width), `tree wider than ${size.viewport.width} px`).toEqual([]);
        await page.locator('.menu-editor').evaluate((e) => e.scrollIntoView());
        await consoleScreenshot(page, 'cafe-editor-menu-tree', { dark: true });
        expect(await seriousViolationsByTheme(page), `tree ${size.viewport.width}`).toEqual({ light: [], dark: [] });

        // A row's menu open, then its Edit.
        await page.getByRole('button', { name: 'Actions for Flat white', exact: true }).click();
        await page.getByRole('menu', { name: 'Actions for Flat white' }).waitFor();
        expect(await seriousViolationsByTheme(page), `row menu ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        await page.getByRole('menuitem', { name: 'Edit' }).click();
        const form = page.getByRole('dialog', { name: 'Edit the dish “Flat white”' });
        await form.waitFor();
        await form.getByLabel('Photo (optional)').setInputFiles(png('new-photo.png', [120, 80, 40]));
        await form.getByRole('img', { name: 'Photo chosen, saved with the dish' }).waitFor();
        expect(await overflowingElements(page, size.viewport.width), `dish form wider than ${size.viewport.width} px`).toEqual([]);
        await consoleScreenshot(page, 'cafe-editor-menu-item-form', { dark: true });
        expect(await seriousViolationsByTheme(page), `dish form ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        await page.keyboard.press('Escape');
        await form.waitFor({ state: 'detached' });

        // The group and category dialogs, with a long-named file chosen.
        for (const [row, title] of [
          ['group Drinks', 'Edit the group “Drinks”'],
          ['category Coffee', 'Edit the category “Coffee”'],
        ] as const) {
          await rowAction(page, row, 'Edit');
          const dialog = page.getByRole('dialog', { name: title });
          await dialog.getByLabel('Image (optional)').setInputFiles(png(`${'a-very-long-file-name-'.repeat(4)}.png`, [10, 10, 10]));
          expect(await overflowingElements(page, size.viewport.width), `${title} wider than ${size.viewport.width} px`).toEqual([]);
          expect(await seriousViolationsByTheme(page), `${title} ${size.viewport.width}`).toEqual({ light: [], dark: [] });
          await page.keyboard.press('Escape');
          await dialog.waitFor({ state: 'detached' });
        }
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
