/**
 * The console's unsaved-changes guard against the real api in headless Chromium: an editor with
 * changes not saved asks "Leave without saving?" before a move inside the console (a navigation
 * link, Back, signing out); Stay keeps the edit where it was, Leave goes where the person asked;
 * after a save, or with nothing changed, nothing asks; closing the tab gets the browser's own
 * question. The link editor, the template designer, a cafe's profile and look and a menu form
 * are each checked, and the dialog has no serious axe-core finding at either width, in either theme.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isOfflineFavicon,
  isSignedOutProbe,
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  PHONE,
  seriousViolationsByTheme,
  signInBeforeLoad,
} from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { choice } from '../../support/qr-designer.js';

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

async function open(hash: string, size: typeof PHONE | typeof DESKTOP = DESKTOP) {
  const context = await browser.newContext({ ...size });
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  // A step that cannot happen fails at that step, well inside the test's own time limit.
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on(
    'console',
    (m) =>
      m.type() === 'error' &&
      !isOfflineFavicon(m.text()) &&
      // Signed out, the sign-in page asks whether single sign-on is offered.
      !isSignedOutProbe(m.text(), m.location().url) &&
      problems.push(`console: ${m.text()}`),
  );
  await page.goto(`${base}#${hash}`);
  return { context, page, problems };
}

const question = (page: Page) => page.getByRole('dialog', { name: 'Leave without saving?' });
const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name, exact: true });
const hash = (page: Page) => page.evaluate(() => location.hash);
/**
 * The Back button, for a move the page holds: the traversal starts, and the page undoes it at once.
 * (Playwright's goBack waits for the move to settle where it went, which a held move never does.)
 */
const back = (page: Page) => page.evaluate(() => history.back());

async function websiteLink(name: string) {
  return createLinkVia(api.app, owner.key, { name, type: 'website', data: { url: 'https://example.com/' } });
}

describe.skipIf(!hasChromium)('leaving an editor with unsaved changes', () => {
  it('the link editor asks before another page; Stay keeps the edit, Leave goes; after Save nothing asks', async () => {
    const { slug } = await websiteLink('Spring menu');
    const { context, page, problems } = await open(`/links/${slug}/edit`);
    try {
      const name = page.getByLabel('Name', { exact: true });
      await page.getByRole('heading', { name: 'Edit Spring menu' }).waitFor();
      await page.getByTestId('qr-preview').waitFor();
      await name.fill('Summer menu');
      await nav(page, 'Templates').click();
      await question(page).waitFor();
      // The move is held: the address and the page are still the editor's.
      expect(await hash(page)).toBe(`#/links/${slug}/edit`);
      await question(page).getByRole('button', { name: 'Stay' }).click();
      await expect.poll(() => question(page).count()).toBe(0);
      expect(await name.inputValue()).toBe('Summer menu');
      expect(await hash(page)).toBe(`#/links/${slug}/edit`);

      // Leave goes where the person asked, and the edit is dropped.
      await nav(page, 'Templates').click();
      await question(page).getByRole('button', { name: 'Leave' }).click();
      await page.getByRole('heading', { name: 'Templates', exact: true }).waitFor();
      expect(await hash(page)).toBe('#/templates');
      expect((await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}`)).json().data.name).toBe('Spring menu');

      // Back to the editor (Back itself asks nothing: the templates list holds no edit), edit, save: nothing asks.
      await page.goBack();
      await page.getByRole('heading', { name: 'Edit Spring menu' }).waitFor();
      await page.getByTestId('qr-preview').waitFor();
      await name.fill('Autumn menu');
      await choice(page, 'Dot style', 'Dots').click();
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
      await nav(page, 'Jobs').click();
      await page.getByRole('heading', { name: 'Jobs', exact: true }).waitFor();
      expect(await question(page).count()).toBe(0);
      const saved = (await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}`)).json().data;
      expect([saved.name, saved.qr_options.dotsOptions.type]).toEqual(['Autumn menu', 'dots']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('holds Back too, and asks nothing of an editor left as it was loaded', async () => {
    const { slug } = await websiteLink('Back and forth');
    const { context, page, problems } = await open('/links');
    try {
      // Untouched: the editor is left without a question (a new link's form as well).
      await page.getByRole('link', { name: 'Back and forth', exact: true }).click();
      await page.getByRole('heading', { name: 'Edit Back and forth' }).waitFor();
      await page.getByTestId('qr-preview').waitFor();
      await nav(page, 'Links').click();
      await page.getByRole('heading', { name: 'Links', exact: true }).waitFor();
      await page.goto(`${base}#/links/new?type=website`);
      await page.getByTestId('qr-preview').waitFor();
      await nav(page, 'Links').click();
      await page.getByRole('heading', { name: 'Links', exact: true }).waitFor();
      expect(await question(page).count()).toBe(0);

      // Edited, then Back: held and asked; Stay stays on the edit, with its entry.
      await page.getByRole('link', { name: 'Back and forth', exact: true }).click();
      await page.getByRole('heading', { name: 'Edit Back and forth' }).waitFor();
      await page.getByTestId('qr-preview').waitFor();
      await page.getByLabel('Name', { exact: true }).fill('Forth and back');
      await back(page);
      await question(page).waitFor();
      await expect.poll(() => hash(page)).toBe(`#/links/${slug}/edit`);
      await question(page).getByRole('button', { name: 'Stay' }).click();
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Forth and back');
      // Escape is Stay as well.
      await back(page);
      await question(page).waitFor();
      await page.keyboard.press('Escape');
      await expect.poll(() => question(page).count()).toBe(0);
      await expect.poll(() => hash(page)).toBe(`#/links/${slug}/edit`);
      // Leave makes the same move: one step back, to the list.
      await back(page);
      await question(page).getByRole('button', { name: 'Leave' }).click();
      await page.getByRole('heading', { name: 'Links', exact: true }).waitFor();
      await expect.poll(() => hash(page)).toBe('#/links');
      // The edit page is still the entry ahead, loaded afresh.
      await page.goForward();
      await page.getByRole('heading', { name: 'Edit Back and forth' }).waitFor();
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Back and forth');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('closing the tab with unsaved changes gets the browser’s question, and none without', async () => {
    const { slug } = await websiteLink('Tab closing');
    const { context, page } = await open(`/links/${slug}/edit`);
    try {
      await page.getByTestId('qr-preview').waitFor();
      // A click first: browsers ask on leaving only a page the person has interacted with.
      await page.getByLabel('Name', { exact: true }).click();
      await page.getByLabel('Name', { exact: true }).fill('Changed');
      const asked = new Promise<string>((resolve) => page.once('dialog', (d) => (resolve(d.type()), void d.dismiss())));
      await page.close({ runBeforeUnload: true });
      expect(await asked).toBe('beforeunload');
      // Dismissed: the tab stays, with the edit.
      expect(page.isClosed()).toBe(false);
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Changed');

      const clean = await context.newPage();
      await clean.goto(`${base}#/links/${slug}/edit`);
      await clean.getByTestId('qr-preview').waitFor();
      await clean.getByLabel('Name', { exact: true }).click();
      const dialogs: string[] = [];
      clean.on('dialog', (d) => (dialogs.push(d.type()), void d.dismiss()));
      await clean.close({ runBeforeUnload: true });
      await expect.poll(() => clean.isClosed()).toBe(true);
      expect(dialogs).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the template designer, a cafe’s profile, look and menu forms, and signing out ask too', async () => {
    const cafe = (await call(api.app, owner.key, 'POST', '/api/v1/cafes', { name: 'Guarded cafe' })).json().data as { id: string };
    const { context, page, problems } = await open('/templates/new');
    try {
      await page.getByTestId('qr-preview').waitFor();
      await choice(page, 'Code colour', 'Navy').click();
      await nav(page, 'Cafes').click();
      await question(page).getByRole('button', { name: 'Leave' }).click();
      await page.getByRole('heading', { name: 'Cafes', exact: true }).waitFor();

      await page.getByRole('link', { name: 'Guarded cafe' }).click();
      await page.getByRole('heading', { name: 'Guarded cafe' }).waitFor();
      await page.getByRole('tab', { name: 'Profile' }).click();
      await page.getByLabel('Phone', { exact: true }).fill('+351 210 000 000');
      // The cafe's own tabs do not leave it: the Menu tab opens unasked, and the edit waits there.
      await page.getByRole('tab', { name: 'Menu' }).click();
      await expect.poll(() => new URL(page.url()).hash).toBe(`#/cafes/${cafe.id}/menu`);
      expect(await question(page).count()).toBe(0);
      await page.getByRole('tab', { name: 'Profile' }).click();
      expect(await page.getByLabel('Phone', { exact: true }).inputValue()).toBe('+351 210 000 000');
      await nav(page, 'Links').click();
      await question(page).getByRole('button', { name: 'Stay' }).click();
      await page.getByRole('button', { name: 'Save profile' }).click();
      await page.getByText('Saved. The menu page shows it now.').waitFor();
      // The look's form: its own changes, its own question.
      await page.getByRole('tab', { name: 'Look' }).click();
      await page.getByLabel('Use my own primary colour').check();
      await nav(page, 'Links').click();
      await question(page).waitFor();
      await question(page).getByRole('button', { name: 'Stay' }).click();
      await page.getByRole('button', { name: 'Save look' }).click();
      await page.getByText('Saved. Guests now see this look.').waitFor();
      // A menu form with a name typed, and the address changed past its modal dialog: asked as well.
      await page.getByRole('tab', { name: 'Menu' }).click();
      await page.getByRole('button', { name: 'Add a group' }).first().click();
      const groupDialog = page.getByRole('dialog', { name: 'Add a group' });
      await groupDialog.getByLabel('Group name').fill('Drinks');
      await page.evaluate(() => (location.hash = '#/links'));
      await question(page).getByRole('button', { name: 'Stay' }).click();
      expect(await groupDialog.getByLabel('Group name').inputValue()).toBe('Drinks');
      await groupDialog.getByRole('button', { name: 'Cancel' }).click();
      await nav(page, 'Links').click();
      await page.getByRole('heading', { name: 'Links', exact: true }).waitFor();
      expect(await question(page).count()).toBe(0);

      // Signing out drops an edit too: asked first.
      await page.goto(`${base}#/templates/new`);
      await page.getByTestId('qr-preview').waitFor();
      await choice(page, 'Dot style', 'Dots').click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await question(page).getByRole('button', { name: 'Stay' }).click();
      expect(await choice(page, 'Dot style', 'Dots').isChecked()).toBe(true);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await question(page).getByRole('button', { name: 'Leave' }).click();
      await page.getByText('You are signed out').waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the question has no serious or critical axe-core finding, at both widths, in both themes', async () => {
    const { slug } = await websiteLink('Axe check');
    for (const size of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ ...size, bypassCSP: true });
      await signInBeforeLoad(context, owner.key);
      const page = await context.newPage();
      try {
        await page.goto(`${base}#/links/${slug}/edit`);
        await page.getByTestId('qr-preview').waitFor();
        await page.getByLabel('Name', { exact: true }).fill('Axe check, edited');
        await page.goto(`${base}#/jobs`);
        await question(page).waitFor();
        // Focus starts on the safe answer.
        expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Stay');
        await consoleScreenshot(page, 'leave-without-saving', { dark: true });
        expect(await seriousViolationsByTheme(page), `${size.viewport.width}`).toEqual({ light: [], dark: [] });
        // Both answers are thumb-sized on a phone.
        for (const button of await question(page).getByRole('button').all()) {
          const box = (await button.boundingBox())!;
          if (size === PHONE) expect(box.height).toBeGreaterThanOrEqual(44);
        }
      } finally {
        await context.close();
      }
    }
  }, 60_000);
});
