/**
 * The console's design system page (#/design) in headless Chromium against the real api: every
 * shared control works as its docs say (the row menu by keyboard and by letter, a toast beside
 * its button, an Undo that keeps a deferred action from happening), icons are drawn, buttons are
 * thumb-sized on a phone, and axe-core finds nothing serious in either theme at either width.
 * With UPDATE_SCREENSHOTS=1 it writes the screenshots docs/console-design.md shows.
 */
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
import { createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Lisbon Coffee Co' });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

describe.skipIf(!hasChromium)('console: the design system page', () => {
  it(
    'runs the row menu by keyboard and letter, shows toasts beside their button, and Undo stops a deferred action',
    { timeout: 60_000 },
    async () => {
      const context = await browser.newContext({ ...DESKTOP });
      try {
        const page = await context.newPage();
        await signInBeforeLoad(page, owner.key);
        await page.goto(`${base}#/design`);
        await page.getByRole('heading', { name: 'Design system' }).waitFor();
        expect(await page.title()).toBe('Design system · qrlinks console');
        await consoleScreenshot(page, 'design-system', { dark: true });
        // Every icon is drawn (a path or shape inside its svg), none left empty.
        const emptyIcons = await page
          .locator('.ds-icons svg.icon')
          .evaluateAll((svgs) => svgs.filter((s) => s.childElementCount === 0).length);
        expect(emptyIcons).toBe(0);
        expect(await page.locator('.ds-icons svg.icon').count()).toBeGreaterThan(20);

        // The row menu: opened from the keyboard, arrows move, a letter runs its action.
        const menuButton = page.getByRole('button', { name: 'Actions for an example row' });
        await menuButton.focus();
        await page.keyboard.press('Enter');
        const menu = page.getByRole('menu', { name: 'Actions for an example row' });
        await menu.waitFor();
        expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Edit');
        await page.keyboard.press('ArrowDown');
        expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Download QR code');
        await page.keyboard.press('Escape');
        await menu.waitFor({ state: 'detached' });
        expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Actions for an example row');
        await page.keyboard.press('Enter');
        await menu.waitFor();
        await page.keyboard.press('d');
        await menu.waitFor({ state: 'detached' });
        await page.getByRole('status').filter({ hasText: 'Duplicate' }).waitFor();

        // A toast appears beside the button that raised it, not across the page.
        const trigger = page.getByRole('button', { name: 'Show a toast beside this button' });
        await trigger.click();
        const toast = page.locator('.toast').filter({ hasText: 'Saved' });
        await toast.waitFor();
        const [t, b] = [(await toast.boundingBox())!, (await trigger.boundingBox())!];
        expect(Math.abs(t.y - (b.y + b.height))).toBeLessThan(24);
        expect(Math.abs(t.x - b.x)).toBeLessThan(24);

        // Undo: the deferred action never happens; Ctrl+Z reaches the newest Undo too.
        await page.getByRole('button', { name: 'Show a toast with Undo' }).click();
        await page.locator('.toast').filter({ hasText: 'Example archived' }).getByRole('button', { name: 'Undo' }).click();
        await page.locator('.toast').filter({ hasText: 'Undone' }).waitFor();
        await page.getByRole('button', { name: 'Show a toast with Undo' }).click();
        await page.locator('.toast').filter({ hasText: 'Example archived' }).waitFor();
        await page.locator('body').click({ position: { x: 5, y: 400 } });
        await page.keyboard.press('Control+z');
        await page.locator('.toast').filter({ hasText: 'Example archived' }).waitFor({ state: 'detached' });
        expect(await page.locator('.toast').filter({ hasText: 'Undone' }).count()).toBeGreaterThan(0);
        expect(await page.locator('.toast').filter({ hasText: 'Made real' }).count()).toBe(0);
      } finally {
        await context.close();
      }
    },
  );

  it('is thumb-sized, fits a phone and is axe clean in both themes at both widths', async () => {
    for (const size of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ ...size, bypassCSP: true });
      try {
        const page = await context.newPage();
        await signInBeforeLoad(page, owner.key);
        await page.goto(`${base}#/design`);
        await page.getByRole('heading', { name: 'Design system' }).waitFor();
        if (size === PHONE) {
          expect(await overflowingElements(page, PHONE.viewport.width)).toEqual([]);
          const small = await page
            .locator('main button:visible')
            .evaluateAll((buttons) =>
              buttons
                .filter((b) => b.getBoundingClientRect().height < 44 || b.getBoundingClientRect().width < 44)
                .map((b) => b.textContent),
            );
          expect(small).toEqual([]);
          await consoleScreenshot(page, 'design-system', { dark: true });
        }
        expect(await seriousViolationsByTheme(page)).toEqual({ light: [], dark: [] });
      } finally {
        await context.close();
      }
    }
  });
});
