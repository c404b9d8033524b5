/**
 * The console's Cafes screens against the real api in headless Chromium: the empty list invites
 * creating a cafe; a blank name is refused at its field; a created cafe shows its menu link and QR
 * code at once (the PNG downloaded is the API's), and is listed; its profile form saves contact
 * fields, a logo and cover, hours with two ranges in the cafe's time zone, social links and
 * facilities, with the API's refusals at their fields; the guest menu page served by the redirect
 * shows them (the menu editor has its own file, console-cafes-menu-browser); a cafe made in the
 * console is in the browser's time zone and offered a usual week of hours, Monday's copied to
 * Tuesday–Friday; the look's preview frame shows the real menu page in the unsaved theme and
 * colour, and once saved they are on it; axe-core finds nothing serious or critical on the list
 * and on each of a cafe's tabs at 390 and 1440 px in either theme.
 */
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
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
import { startConsoleApi } from '../../support/console.js';
import { pngBytes, sendForm, textPart } from '../../support/fixtures.js';
import { call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { freePort } from '../../support/processes.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';
import { MENU_THEMES } from '#domain/cafes/themes.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
let redirect: TestRedirect;

beforeAll(async () => {
  // Real origins in the settings: the console frames the menu preview from SHORT_URL_BASE, which
  // lets PUBLIC_API_URL's origin (the console's) frame it.
  const [apiPort, redirectPort] = [await freePort(), await freePort()];
  ({ api, base } = await startConsoleApi(
    { PUBLIC_API_URL: `http://127.0.0.1:${apiPort}/api/v1`, SHORT_URL_BASE: `http://127.0.0.1:${redirectPort}` },
    apiPort,
  ));
  redirect = await startTestRedirect(api.ctx, redirectPort);
  if (hasChromium) browser = await launchChromium();
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  // The name the console shows in its header, as a cafe owner's account would be called.
}, 120_000);
afterAll(async () => {
  await redirect?.close();
  await api?.close();
  await browser?.close();
});

/** A signed-in page (the key in this tab's sessionStorage, as signing in leaves it) at `hash`. */
async function openConsole(hash: string, size: typeof PHONE | typeof DESKTOP, options: { bypassCSP?: boolean; timezoneId?: string } = {}) {
  const context = await browser.newContext({
    ...size,
    bypassCSP: options.bypassCSP ?? false,
    acceptDownloads: true,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${base}#${hash}`);
  return { context, page, problems };
}

async function accessible(page: Awaited<ReturnType<typeof openConsole>>['page'], what: string) {
  expect(await seriousViolationsByTheme(page), what).toEqual({ light: [], dark: [] });
}

describe.skipIf(!hasChromium)('console cafes', () => {
  it('lists none, creates a cafe and shows its menu link and QR at once, with the PNG download', async () => {
    const { context, page, problems } = await openConsole('/cafes', DESKTOP);
    try {
      await page.getByRole('heading', { name: 'Cafes', exact: true }).waitFor();
      await page.getByText('No cafes yet').waitFor();

      await page.getByRole('button', { name: 'Create cafe' }).click();
      expect(await page.locator('#field-name-error').textContent()).toContain('Give the cafe a name');
      expect(await page.getByLabel('Cafe name').getAttribute('aria-invalid')).toBe('true');

      await page.getByLabel('Cafe name').fill('Café Lisboa');
      await page.getByRole('button', { name: 'Create cafe' }).click();
      const panel = page.getByRole('region', { name: '“Café Lisboa” is ready' });
      await panel.waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.id || document.activeElement?.className)).toContain('new-cafe');

      const cafes = (await call(api.app, owner.key, 'GET', '/api/v1/cafes')).json().data;
      expect(cafes).toHaveLength(1);
      const url: string = cafes[0].link.full_dynamic_url;
      expect(await panel.getByRole('link', { name: url }).getAttribute('href')).toBe(url);
      const qr = panel.getByRole('img', { name: `QR code for ${url}` });
      await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(512);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        panel.getByRole('button', { name: 'Download QR (PNG)' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('cafe-lisboa-menu-512.png');
      const saved = await readFile(await download.path());
      const fromApi = await call(api.app, owner.key, 'GET', `/api/v1/links/${cafes[0].link.dynamic_link_id}/qr?format=png&size=512`);
      expect(saved.equals(fromApi.rawPayload)).toBe(true);

      const listed = page.getByRole('list', { name: 'Your cafes' });
      await listed.getByRole('link', { name: 'Café Lisboa' }).waitFor();
      expect(await listed.getByRole('link', { name: 'Café Lisboa' }).getAttribute('href')).toBe(`#/cafes/${cafes[0].id}`);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("edits the profile: the API's refusal at its field, then contact, images, hours and facilities saved and on the guest page", async () => {
    const cafe = (await call(api.app, owner.key, 'POST', '/api/v1/cafes', { name: 'Bar Noite' })).json().data;
    const { context, page, problems } = await openConsole(`/cafes/${cafe.id}/profile`, DESKTOP);
    try {
      await page.getByRole('heading', { name: 'Bar Noite', level: 1 }).waitFor();
      await page.getByLabel('Description').fill('Late drinks by the river.');
      await page.getByLabel('Phone').fill('+351 21 123 4567');
      await page.getByLabel('Address', { exact: true }).fill('Rua do Cais 1, Lisboa');
      await page.getByLabel('Website').fill('not a web address');
      await page.getByLabel('Logo (optional)').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngBytes(64, 64) });
      await page
        .getByLabel('Cover photo (optional)')
        .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: pngBytes(390, 160, [20, 90, 160]) });
      await page.getByRole('img', { name: 'Logo chosen, saved with the profile' }).waitFor();
      await page.getByLabel('Time zone').selectOption('Europe/Lisbon');
      expect(await page.getByLabel('Menu language').inputValue()).toBe('');
      await page.getByLabel('Menu language').selectOption({ label: 'Português (Portugal)' });
      // Friday: open with a second evening range running past midnight.
      await page.getByLabel('Open on Friday').check();
      const friday = page.getByRole('group', { name: 'Friday opening 1' });
      await friday.getByLabel('Opens').fill('08:00');
      await friday.getByLabel('Closes').fill('15:00');
      await page.getByRole('button', { name: 'Add a Friday opening' }).click();
      const evening = page.getByRole('group', { name: 'Friday opening 2' });
      await evening.getByLabel('Opens').fill('19:00');
      await evening.getByLabel('Closes').fill('02:00');
      await page.getByRole('button', { name: 'Add a social link' }).click();
      await page.getByRole('group', { name: 'Social link 1' }).getByLabel('Platform').fill('Instagram');
      await page.getByRole('group', { name: 'Social link 1' }).getByLabel('Address (URL)').fill('https://instagram.com/bar.noite');
      await page.getByLabel('Facilities').fill('Terrace\nLive music');
      await page.getByRole('button', { name: 'Save profile' }).click();

      // The website is refused by the API, in its words at its field.
      await expect.poll(() => page.locator('#field-website-error').count()).toBe(1);
      expect(await page.locator('#field-website-error').textContent()).toBe('Must be an http(s) URL, or empty to clear it');
      expect(await page.getByLabel('Website').getAttribute('aria-invalid')).toBe('true');
      await page.getByLabel('Website').fill('https://bar-noite.example');
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(await page.locator('#field-website-error').count()).toBe(0);

      const saved = (await call(api.app, owner.key, 'GET', `/api/v1/cafes/${cafe.id}`)).json().data;
      expect(saved).toMatchObject({
        description: 'Late drinks by the river.',
        phone: '+351 21 123 4567',
        website: 'https://bar-noite.example/',
        timezone: 'Europe/Lisbon',
        language: 'pt-PT',
        facilities: ['Terrace', 'Live music'],
        social_links: [{ platform: 'Instagram', url: 'https://instagram.com/bar.noite' }],
      });
      expect(saved.operating_hours.find((d: { day: string }) => d.day === 'friday')).toEqual({
        day: 'friday',
        enabled: true,
        ranges: [
          { from: '08:00', to: '15:00' },
          { from: '19:00', to: '02:00' },
        ],
      });
      // The days not changed are the suggested week's, saved with the rest.
      expect(saved.operating_hours.find((d: { day: string }) => d.day === 'monday')).toEqual({
        day: 'monday',
        enabled: true,
        ranges: [{ from: '08:00', to: '18:00' }],
      });
      expect(saved.logo).toMatch(/\/files\//);
      expect(saved.cover).toMatch(/\/files\//);
      expect(problems).toEqual([]);

      // What the guest sees, served by the redirect.
      const guest = await context.newPage();
      await guest.goto(`${redirect.base}/${cafe.link.dynamic_link_id}`);
      const text = await guest.locator('body').textContent();
      for (const shown of ['Bar Noite', 'Late drinks by the river.', 'Terrace', 'Live music', 'Instagram']) expect(text).toContain(shown);
      // In the cafe's language.
      expect(await guest.getAttribute('html', 'lang')).toBe('pt-PT');
      expect(
        await guest
          .getByRole('img', { name: 'Logótipo de Bar Noite' })
          .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
      ).toBeGreaterThan(0);
      expect(text).toContain('08:00 – 15:00, 19:00 – 02:00');
    } finally {
      await context.close();
    }
  });

  it('sets the look: the preview frame follows the form before saving; a theme, an own primary colour, the dietary section off; the guest page follows', async () => {
    const cafe = (await call(api.app, owner.key, 'POST', '/api/v1/cafes', { name: 'Tasca' })).json().data;
    const { context, page, problems } = await openConsole(`/cafes/${cafe.id}/look`, DESKTOP);
    try {
      const look = page.getByRole('form', { name: 'Look of the menu page' });
      await look.waitFor();
      const frame = look.locator('iframe[title="Preview of the menu page"]');
      /** A custom property of the framed page's root, read from the frame's own document. */
      const framed = async (name: string) => {
        const doc = await (await frame.elementHandle())?.contentFrame();
        return doc
          ?.evaluate(
            (n) => (document.readyState === 'complete' ? getComputedStyle(document.documentElement).getPropertyValue(n).trim() : ''),
            name,
          )
          .catch(() => '');
      };
      await look.getByRole('status').filter({ hasText: 'This is the look on the form' }).waitFor();
      expect(await framed('--bg')).toBe(MENU_THEMES.classic.palette.background);
      expect(new URL((await frame.getAttribute('src'))!).origin).toBe(redirect.base);
      expect(await frame.evaluate((f: HTMLIFrameElement) => f.getBoundingClientRect().width)).toBe(390);

      expect(await look.getByLabel('Theme').inputValue()).toBe('classic');
      await look.getByLabel('Theme').selectOption('rustic');
      await expect.poll(() => framed('--bg')).toBe(MENU_THEMES.rustic.palette.background);
      expect(await look.getByLabel('Primary (headings, prices) colour').isDisabled()).toBe(true);
      await look.getByLabel('Use my own primary colour').check();
      await look.getByLabel('Primary (headings, prices) colour').fill('#aa2200');
      await expect.poll(() => framed('--primary')).toBe('#aa2200');
      await look.getByLabel(/Show the dietary section/).uncheck();
      await look.getByRole('status').filter({ hasText: 'This is the look on the form' }).waitFor();
      // Only previewed: nothing is saved, and guests still get the classic look.
      expect((await call(api.app, owner.key, 'GET', `/api/v1/cafes/${cafe.id}`)).json().data).toMatchObject({
        themeImage: 'classic',
        primaryColor: null,
      });
      expect(await (await fetch(`${redirect.base}/${cafe.link.dynamic_link_id}`)).text()).not.toContain('#aa2200');

      await look.getByRole('button', { name: 'Save look' }).click();
      await look.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      const saved = (await call(api.app, owner.key, 'GET', `/api/v1/cafes/${cafe.id}`)).json().data;
      expect(saved).toMatchObject({ themeImage: 'rustic', primaryColor: '#aa2200', secondaryColor: null, showDietarySection: false });
      const open = look.getByRole('link', { name: /Open the saved menu page/ });
      expect(await open.getAttribute('href')).toBe(cafe.link.full_dynamic_url);
      expect(await open.getAttribute('target')).toBe('_blank');
      const guest = await context.newPage();
      await guest.goto(`${redirect.base}/${cafe.link.dynamic_link_id}`);
      expect(await guest.content()).toContain('#aa2200');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('shows the preview at 390 px, scaled to the column, with nothing wider than the screen; a refused preview in words', async () => {
    const cafe = (await call(api.app, owner.key, 'POST', '/api/v1/cafes', { name: 'Tasca pequena' })).json().data;
    const { context, page, problems } = await openConsole(`/cafes/${cafe.id}/look`, PHONE);
    try {
      const look = page.getByRole('form', { name: 'Look of the menu page' });
      await look.getByRole('status').filter({ hasText: 'This is the look on the form' }).waitFor();
      expect(await overflowingElements(page, PHONE.viewport.width)).toEqual([]);
      const box = await look.locator('iframe[title="Preview of the menu page"]').boundingBox();
      expect(box!.width).toBeLessThan(390);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.viewport.width);
      // A preview the API refuses (the cafe deleted meanwhile) is said in words; the last page stays.
      expect((await call(api.app, owner.key, 'DELETE', `/api/v1/cafes/${cafe.id}`)).statusCode).toBe(200);
      await look.getByLabel('Theme').selectOption('dark');
      await look.getByRole('alert').filter({ hasText: 'The preview could not be updated: ' }).waitFor();
      expect(await look.getByRole('alert').textContent()).toMatch(/not found/i);
      expect(await look.locator('iframe[title="Preview of the menu page"]').count()).toBe(1);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("puts a cafe made here in the browser's time zone and offers a usual week; Monday's hours copy to Tuesday–Friday and to every day", async () => {
    const { context, page, problems } = await openConsole('/cafes', DESKTOP, { timezoneId: 'Asia/Tokyo' });
    try {
      await page.getByLabel('Cafe name').fill('Kissaten');
      await page.getByRole('button', { name: 'Create cafe' }).click();
      const panel = page.getByRole('region', { name: '“Kissaten” is ready' });
      await panel.waitFor();
      const made = (await call(api.app, owner.key, 'GET', '/api/v1/cafes'))
        .json()
        .data.find((c: { name: string }) => c.name === 'Kissaten');
      // POST /cafes takes no zone; the console set it at once, so the menu page's clock is the cafe's.
      expect(made).toMatchObject({ timezone: 'Asia/Tokyo', operating_hours: [] });

      await panel.getByRole('link', { name: 'Edit Kissaten' }).click();
      await page.getByRole('tab', { name: 'Profile' }).click();
      const profile = page.locator('.cafe-profile');
      expect(await profile.getByLabel('Time zone').inputValue()).toBe('Asia/Tokyo');
      // One zone picker: the link editor's, its own zone first, then common zones and regions.
      expect(await profile.getByLabel('Time zone').locator('optgroup').first().getAttribute('label')).toBe('Yours');
      await profile.getByText("Suggested: a cafe's usual hours, open every day.").waitFor();
      const day = (name: string) => profile.getByRole('group', { name: `${name} opening 1` });
      for (const name of ['Monday', 'Friday', 'Sunday']) expect(await profile.getByLabel(`Open on ${name}`).isChecked()).toBe(true);
      expect([await day('Monday').getByLabel('Opens').inputValue(), await day('Monday').getByLabel('Closes').inputValue()]).toEqual([
        '08:00',
        '18:00',
      ]);
      expect(await day('Saturday').getByLabel('Opens').inputValue()).toBe('09:00');

      // Monday as this cafe keeps it: early, with a lunch break; copied to Tuesday–Friday, the weekend left.
      await day('Monday').getByLabel('Opens').fill('07:30');
      await day('Monday').getByLabel('Closes').fill('12:00');
      await profile.getByRole('button', { name: 'Add a Monday opening' }).click();
      await profile.getByRole('group', { name: 'Monday opening 2' }).getByLabel('Opens').fill('14:00');
      await profile.getByRole('group', { name: 'Monday opening 2' }).getByLabel('Closes').fill('19:00');
      await profile.getByRole('button', { name: "Copy Monday's hours to Tuesday–Friday" }).click();
      await page.locator('.toast').filter({ hasText: "Monday's hours copied to Tuesday–Friday." }).waitFor();
      for (const name of ['Tuesday', 'Wednesday', 'Thursday', 'Friday']) {
        expect(await day(name).getByLabel('Opens').inputValue()).toBe('07:30');
        expect(
          await profile
            .getByRole('group', { name: `${name} opening 2` })
            .getByLabel('Closes')
            .inputValue(),
        ).toBe('19:00');
      }
      expect(await profile.getByRole('group', { name: 'Saturday opening 2' }).count()).toBe(0);
      await profile.getByLabel('Open on Sunday').uncheck();
      await profile.getByRole('button', { name: 'Save profile' }).click();
      await profile.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      expect(await profile.getByText('Suggested:').count()).toBe(0);
      const split = [
        { from: '07:30', to: '12:00' },
        { from: '14:00', to: '19:00' },
      ];
      const saved = (await call(api.app, owner.key, 'GET', `/api/v1/cafes/${made.id}`)).json().data;
      expect(saved.timezone).toBe('Asia/Tokyo');
      expect(saved.operating_hours).toEqual([
        ...['monday', 'tuesday', 'wednesday', 'thursday', 'friday'].map((d) => ({ day: d, enabled: true, ranges: split })),
        { day: 'saturday', enabled: true, ranges: [{ from: '09:00', to: '18:00' }] },
        { day: 'sunday', enabled: false, ranges: [{ from: '09:00', to: '18:00' }] },
      ]);

      // And to every day: the weekend too, Sunday opened as Monday is.
      await profile.getByRole('button', { name: "Copy Monday's hours to every day" }).click();
      expect(await profile.getByLabel('Open on Sunday').isChecked()).toBe(true);
      expect(await profile.getByRole('group', { name: 'Sunday opening 2' }).getByLabel('Opens').inputValue()).toBe('14:00');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("has no serious or critical axe-core finding on the cafes list and each of a cafe's tabs, at both widths and in both themes", async () => {
    const cafe = (await call(api.app, owner.key, 'POST', '/api/v1/cafes', { name: 'Pastelaria' })).json().data;
    const group = (await sendForm(api.app, owner.key, 'POST', `/api/v1/cafes/${cafe.id}/groups`, [textPart('name', 'Food')])).json().data;
    const category = (
      await call(api.app, owner.key, 'POST', `/api/v1/cafes/${cafe.id}/categories`, { name: 'Pastries', group_id: group.id })
    ).json().data;
    await sendForm(api.app, owner.key, 'POST', `/api/v1/cafes/${cafe.id}/items`, [
      textPart('category_id', category.id),
      textPart('name', 'Pastel de nata'),
      textPart('price', '1.5'),
      textPart('currency', 'EUR'),
    ]);
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await openConsole('/cafes', size, { bypassCSP: true });
      try {
        await page.getByRole('list', { name: 'Your cafes' }).waitFor();
        expect(await overflowingElements(page, size.viewport.width), `wider than ${size.viewport.width} px`).toEqual([]);
        await page.locator('.cafes').evaluate((e) => e.scrollIntoView());
        await consoleScreenshot(page, 'cafes', { dark: true });
        await accessible(page, `cafes ${size.viewport.width}`);
        await page.getByRole('link', { name: 'Pastelaria' }).click();
        await page.getByRole('list', { name: 'Dishes in Pastries' }).waitFor();
        const tabs = page.getByRole('tablist', { name: 'Pastelaria: parts' });
        for (const [tab, ready, shot] of [
          ['Menu', '.menu-editor', 'cafe-editor-menu'],
          ['Profile', '.cafe-profile', 'cafe-editor-profile'],
          ['Look', '.cafe-theme', 'cafe-editor-theme'],
          ['Import', '.menu-import', 'cafe-editor-import'],
        ] as const) {
          await tabs.getByRole('tab', { name: tab }).click();
          await page.locator(ready).waitFor();
          if (tab === 'Look') await page.getByRole('status').filter({ hasText: 'This is the look on the form' }).waitFor();
          expect(await overflowingElements(page, size.viewport.width), `${tab} wider than ${size.viewport.width} px`).toEqual([]);
          await consoleScreenshot(page, shot, { dark: true });
          await accessible(page, `${tab} tab ${size.viewport.width}`);
        }
      } finally {
        await context.close();
      }
    }
  }, 120_000);
});
