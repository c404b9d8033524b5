/**
 * The Profile page in headless Chromium against the real api: a new name reaches the header; a
 * wrong current password is refused at its field; two-factor sign-in is set up from the page's QR
 * code and secret, its recovery codes shown once, and the next sign-in asks for a code; sessions
 * elsewhere are signed out one at a time and all at once (the server refuses their cookies);
 * axe-core's serious and critical findings at 390 and 1440 px, light and dark.
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
} from '../../support/browser.js';
import { openConsolePage, signInWithPassword, startConsoleApi } from '../../support/console.js';
import { pollUntil } from '../../support/until.js';
import { createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, signIn, type TestPerson } from '../../support/people.js';
import { totpCode, totpStep } from '#domain/people/totp.js';
import { decodePng } from '../../support/qr-reference.js';

let api: TestApi;
let base: string;
let browser: Browser;
let lisboa: TestAccount;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  lisboa = await createTestAccount(api.ctx, { plan: 'business', name: 'Aroma Lisboa' });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

const open = (options: Parameters<Browser['newContext']>[0] = DESKTOP, url = base) => openConsolePage(browser, url, options);
const signInAs = signInWithPassword;

/** The refusals these tests ask for: a wrong password (403), a wrong code (400), the sign-in's code question (401). */
const isOwnRefusal = (p: string) => /status of (400|401|403) .*\/api\/v1\/(me\/password|me\/two-factor\/confirm|sessions) *$/.test(p);

const profileOf = async (page: Page, person: TestPerson) => {
  await signInAs(page, person);
  await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
};

describe.skipIf(!hasChromium)('console: profile', () => {
  it('a new name reaches the header; a wrong current password is refused at its field', async () => {
    const marta = await createTestPerson(api.ctx, lisboa.accountId, 'editor', { name: 'Marta Pires' });
    const { context, page, problems } = await open(DESKTOP, `${base}#/profile`);
    try {
      await profileOf(page, marta);
      await page.getByLabel('Name', { exact: true }).fill('Marta P. Pires');
      await page.getByRole('button', { name: 'Save name' }).click();
      await page.getByRole('button', { name: /Marta P\. Pires/ }).waitFor();

      await page.getByLabel('Current password').fill('not my password at all');
      await page.getByLabel('New password', { exact: true }).fill('a brand new long password');
      await page.getByLabel('New password again').fill('a brand new long password');
      await page.getByRole('button', { name: 'Change password' }).click();
      await expect.poll(() => page.locator('#current-password-error').textContent()).toBe('That is not your current password.');
      expect(await page.getByLabel('Current password').getAttribute('aria-invalid')).toBe('true');
      expect(problems.filter((p) => !isOwnRefusal(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it(
    'two-factor: set up from the QR code and secret, codes shown once, and the next sign-in asks for a code',
    { timeout: 60_000 },
    async () => {
      const tiago = await createTestPerson(api.ctx, lisboa.accountId, 'editor', { name: 'Tiago Neves' });
      const { context, page, problems } = await open(DESKTOP, `${base}#/profile`);
      let secret = '';
      let step = 0;
      try {
        await profileOf(page, tiago);
        const card = page.getByRole('region', { name: /Two-factor sign-in/ });
        expect(await card.locator('.badge').textContent()).toBe('Off');
        await card.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
        await card.getByRole('img', { name: /QR code of your two-factor secret/ }).waitFor();
        secret = (await card.locator('#two-factor-secret').textContent())!.replace(/\s/g, '');
        expect(secret).toMatch(/^[A-Z2-7]+$/);
        // The QR code an app scans holds the otpauth URI of the same secret.
        const scanned = decodePng(await card.getByRole('img', { name: /QR code/ }).screenshot());
        expect(scanned).toMatch(/^otpauth:\/\/totp\//);
        expect(new URL(scanned!).searchParams.get('secret')).toBe(secret);
        // A wrong code is refused at the field.
        await card.getByLabel('Code from the app').fill('000000');
        await card.getByRole('button', { name: 'Turn on' }).click();
        await expect.poll(() => card.locator('#two-factor-error').textContent()).toContain('not right');

        step = totpStep(new Date());
        await card.getByLabel('Code from the app').fill(totpCode(secret, step));
        await card.getByRole('button', { name: 'Turn on' }).click();
        const codes = page.getByRole('list', { name: 'Recovery codes' });
        await codes.waitFor();
        expect(await codes.getByRole('listitem').count()).toBe(10);
        await card.getByRole('button', { name: 'I have saved them' }).click();
        await expect.poll(() => card.locator('.badge').textContent()).toBe('On');
        expect(await page.getByRole('list', { name: 'Recovery codes' }).count()).toBe(0);
        await card.getByRole('button', { name: 'Turn off' }).waitFor();
        expect(problems.filter((p) => !isOwnRefusal(p))).toEqual([]);
      } finally {
        await context.close();
      }

      // Another browser: the password alone is not enough.
      const again = await open(PHONE);
      try {
        await signInAs(again.page, tiago);
        await again.page.getByRole('heading', { name: 'Two-factor check' }).waitFor();
        step = Math.max(step + 1, totpStep(new Date()) - 1);
        await again.page.getByLabel('Authentication code').fill(totpCode(secret, step));
        await again.page.getByRole('button', { name: 'Verify and sign in' }).click();
        await again.page.getByRole('button', { name: /Tiago Neves/ }).waitFor();

        // New recovery codes and turning it off each ask for the password; a wrong one is said in the dialog.
        await again.page.evaluate(() => (location.hash = '#/profile'));
        const card = again.page.getByRole('region', { name: /Two-factor sign-in/ });
        await card.getByRole('button', { name: 'New recovery codes' }).click();
        const ask = again.page.getByRole('dialog', { name: 'Make new recovery codes?' });
        await ask.getByLabel('Your password').fill('not the password');
        await ask.getByRole('button', { name: 'Make new codes' }).click();
        await expect.poll(() => ask.getByRole('alert').textContent()).toBe('That is not your current password.');
        await ask.getByLabel('Your password').fill(tiago.password);
        await ask.getByRole('button', { name: 'Make new codes' }).click();
        await expect.poll(() => card.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').count()).toBe(10);
        await card.getByRole('button', { name: 'I have saved them' }).click();
        await card.getByRole('button', { name: 'Turn off' }).click();
        const off = again.page.getByRole('dialog', { name: 'Turn two-factor sign-in off?' });
        await off.getByLabel('Your password').fill(tiago.password);
        await off.getByRole('button', { name: 'Turn off' }).click();
        await expect.poll(() => card.locator('.badge').textContent()).toBe('Off');
        expect((await callAs(api.app, await signIn(api.app, tiago.email, tiago.password), 'GET', '/api/v1/me')).json().user.twoFactor).toBe(
          false,
        );
      } finally {
        await again.context.close();
      }
    },
  );

  it('sessions elsewhere are listed and signed out, one and then all; this one stays', { timeout: 60_000 }, async () => {
    const sofia = await createTestPerson(api.ctx, lisboa.accountId, 'viewer', { name: 'Sofia Dias' });
    const elsewhere = [await signIn(api.app, sofia.email, sofia.password)];
    const { context, page, problems } = await open(PHONE, `${base}#/profile`);
    try {
      await profileOf(page, sofia);
      const sessions = page.getByRole('region', { name: 'Where you are signed in' });
      await expect.poll(() => sessions.getByRole('listitem').count()).toBe(2);
      expect(await sessions.getByRole('listitem').filter({ hasText: 'This browser' }).count()).toBe(1);
      await sessions.getByRole('button', { name: /^Sign out .*signed in/ }).click();
      await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
      await pollUntil(
        async () => (await callAs(api.app, elsewhere[0]!, 'GET', '/api/v1/me')).statusCode,
        (status) => status === 401,
      );

      elsewhere.push(await signIn(api.app, sofia.email, sofia.password), await signIn(api.app, sofia.email, sofia.password));
      await page.reload();
      await expect.poll(() => sessions.getByRole('listitem').count()).toBe(3);
      await sessions.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await expect.poll(() => sessions.getByRole('listitem').count()).toBe(1);
      expect(await sessions.getByRole('button', { name: 'Sign out everywhere else' }).isDisabled()).toBe(true);
      for (const cookie of elsewhere.slice(1)) {
        await pollUntil(
          async () => (await callAs(api.app, cookie, 'GET', '/api/v1/me')).statusCode,
          (status) => status === 401,
        );
      }
      // This browser is still signed in.
      await page.reload();
      await page.getByRole('heading', { name: 'Profile', level: 1 }).waitFor();
      expect(problems.filter((p) => !isOwnRefusal(p))).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('the profile has no serious axe finding at 390 and 1440 px, light and dark', { timeout: 120_000 }, async () => {
    const lia = await createTestPerson(api.ctx, lisboa.accountId, 'admin', { name: 'Lia Matos' });
    for (const size of [PHONE, DESKTOP]) {
      const { context, page } = await open(size, `${base}#/profile`);
      try {
        const width = size.viewport.width;
        await profileOf(page, lia);
        await page.getByRole('region', { name: 'Where you are signed in' }).getByRole('listitem').first().waitFor();
        expect(await overflowingElements(page, width)).toEqual([]);
        await consoleScreenshot(page, 'profile', { dark: true });
        expect(await seriousViolationsByTheme(page), `profile ${width}`).toEqual({ light: [], dark: [] });
        await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
        await page.getByRole('img', { name: /QR code/ }).waitFor();
        expect(await overflowingElements(page, width)).toEqual([]);
        await consoleScreenshot(page, 'profile-two-factor', { dark: true });
        expect(await seriousViolationsByTheme(page), `two-factor ${width}`).toEqual({ light: [], dark: [] });
      } finally {
        await context.close();
      }
    }
  });
});
