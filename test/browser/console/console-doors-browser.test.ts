/**
 * The console's pages outside the shell, in headless Chromium against the real api: first start
 * from a printed setup link (a database of this file's own, with nobody in it), joining from an
 * invitation as someone new and as someone who already signs in, a forgotten password reset
 * through a real SMTP server's mail, and signing in with two-factor on (codes computed from the
 * secret as a phone would). Each page: axe-core at 390 and 1440 px, light and dark.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { issueSetupToken } from '#domain/people/setup.js';
import { totpCode, totpStep } from '#domain/people/totp.js';
import { migrateDatabase } from '#platform/database/migrate.js';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsByTheme,
} from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { testEnv } from '../../support/env.js';
import { createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { freshDatabase } from '../../support/migration-db.js';
import { callAs, createTestPerson, signIn, type TestPerson } from '../../support/people.js';
import { startSmtpServer, type RunningSmtp } from '../../support/smtp.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

let browser: Browser;
beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const SIZES = [PHONE, DESKTOP] as const;

/** A fresh context at `size` on `url`; its page's errors are collected. */
async function open(size: (typeof SIZES)[number], url: string) {
  const context = await browser.newContext({ ...size, bypassCSP: true });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(url, { waitUntil: 'load' });
  return { context, page, problems };
}

/** Screenshots (with UPDATE_SCREENSHOTS=1), nothing past the right edge, and axe in both themes. */
async function checkScreen(page: Page, name: string) {
  const width = page.viewportSize()!.width;
  expect(await overflowingElements(page, width), `${name} ${width}`).toEqual([]);
  await consoleScreenshot(page, name, { dark: true });
  expect(await seriousViolationsByTheme(page), `${name} ${width}`).toEqual({ light: [], dark: [] });
}

const hashOf = (link: string) => new URL(link).hash;

describe.skipIf(!hasChromium)('console: first start', () => {
  let api: TestApi;
  let base: string;
  const url = new URL(testEnv.DATABASE_URL);
  url.pathname = `${url.pathname}_console_setup`;

  beforeAll(async () => {
    await freshDatabase(url);
    await migrateDatabase(url.toString());
    ({ api, base } = await startConsoleApi({ DATABASE_URL: url.toString() }));
  });
  afterAll(async () => {
    await api?.close();
    await freshDatabase(url, false);
  });

  it('the printed link makes the first account and its owner, signed in; then it is spent', async () => {
    const token = (await issueSetupToken(api.ctx.db))!;
    for (const size of SIZES) {
      const { context, page } = await open(size, `${base}#/setup?token=${token}`);
      try {
        await page.getByLabel('Account name').waitFor();
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('accountName');
        // A short password is refused at its field before anything is sent.
        await page.getByLabel('Account name').fill('Aroma Lisboa');
        await page.getByLabel('Your name').fill('Olga Costa');
        await page.getByLabel('Email address').fill('olga@aroma.example');
        await page.getByLabel('Password', { exact: true }).fill('short');
        await page.getByRole('button', { name: 'Create account' }).click();
        await expect.poll(() => page.locator('#password-error').textContent()).toContain('at least 10 characters');
        await checkScreen(page, 'setup');
      } finally {
        await context.close();
      }
    }
    const { context, page, problems } = await open(DESKTOP, `${base}#/setup?token=${token}`);
    try {
      await page.getByLabel('Account name').fill('Aroma Lisboa');
      await page.getByLabel('Your name').fill('Olga Costa');
      await page.getByLabel('Email address').fill('olga@aroma.example');
      await page.getByLabel('Password', { exact: true }).fill('a long enough first password');
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
      expect(new URL(page.url()).hash).toBe('#/');
      expect(await page.getByRole('button', { name: /Olga Costa/ }).textContent()).toContain('OC');
      await page.reload();
      await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
      // The link is spent: the page says setup is done and leads to sign-in.
      await page.goto(`${base}#/setup?token=${token}`);
      await page.getByRole('heading', { name: 'qrlinks is set up' }).waitFor();
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe.skipIf(!hasChromium)('console: joining, resetting, two-factor', () => {
  let api: TestApi;
  let base: string;
  let smtp: RunningSmtp;
  let lisboa: TestAccount;
  let ana: TestPerson;
  let anaCookie: string;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    ({ api, base } = await startConsoleApi({ SMTP_URL: smtp.url }));
    lisboa = await createTestAccount(api.ctx, { plan: 'business', name: 'Aroma Lisboa' });
    ana = await createTestPerson(api.ctx, lisboa.accountId, 'owner', { name: 'Ana Silva', email: `ana-${process.pid}@doors.example` });
    anaCookie = await signIn(api.app, ana.email, ana.password);
  });
  afterAll(async () => {
    await api?.close();
    await smtp?.close();
  });

  /**
   * Two-factor on for `person`, through the api with the current step's code; then `nextCode()`
   * gives the code of a step not used yet (the server takes each step's code once).
   */
  const turnOnTwoFactor = async (person: TestPerson) => {
    const cookie = await signIn(api.app, person.email, person.password);
    const { secret } = (await callAs(api.app, cookie, 'POST', '/api/v1/me/two-factor')).json();
    let step = totpStep(new Date());
    expect((await callAs(api.app, cookie, 'POST', '/api/v1/me/two-factor/confirm', { code: totpCode(secret, step) })).statusCode).toBe(200);
    return { nextCode: () => totpCode(secret, (step = Math.max(step + 1, totpStep(new Date()) - 1))) };
  };

  const invite = async (email: string, role: string) => {
    const res = await callAs(api.app, anaCookie, 'POST', '/api/v1/invitations', { email, role });
    expect(res.statusCode).toBe(200);
    return hashOf(res.json().link as string);
  };

  it('someone new joins from an invitation: who invited them, a name and a password, then in the account', async () => {
    const email = `new-${process.pid}@doors.example`;
    const hash = await invite(email, 'editor');
    for (const size of SIZES) {
      const { context, page } = await open(size, `${base}${hash}`);
      try {
        await page.getByText('Ana Silva invited you to Aroma Lisboa as an editor').waitFor();
        expect(await page.getByLabel('Email address').inputValue()).toBe(email);
        await checkScreen(page, 'join');
      } finally {
        await context.close();
      }
    }
    const { context, page, problems } = await open(PHONE, `${base}${hash}`);
    try {
      await page.getByLabel('Your name').fill('Nuno Reis');
      await page.getByLabel('Choose a password', { exact: true }).fill('a long enough new password');
      await page.getByRole('button', { name: 'Join', exact: true }).click();
      await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
      expect(await page.getByRole('button', { name: /Nuno Reis/ }).textContent()).toContain('NR');
      // The link is spent.
      await page.goto(`${base}${hash}`);
      await page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
      expect(await page.getByRole('alert').textContent()).toContain('not valid any more');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('someone who already signs in joins with their own password; a wrong one is refused at the field', async () => {
    const porto = await createTestAccount(api.ctx, { name: 'Aroma Porto' });
    const bruno = await createTestPerson(api.ctx, porto.accountId, 'owner', { name: 'Bruno Costa' });
    const hash = await invite(bruno.email, 'viewer');
    const { context, page } = await open(DESKTOP, `${base}${hash}`);
    try {
      await page.getByText('Ana Silva invited you to Aroma Lisboa as a viewer').waitFor();
      expect(await page.getByLabel('Your name').count()).toBe(0);
      await page.getByLabel('Your password', { exact: true }).fill('not my password at all');
      await page.getByRole('button', { name: 'Accept and sign in' }).click();
      await expect.poll(() => page.locator('#password-error').textContent()).toContain('not the password');
      await checkScreen(page, 'join-existing');
      await page.getByLabel('Your password', { exact: true }).fill(bruno.password);
      await page.getByRole('button', { name: 'Accept and sign in' }).click();
      await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
      // Now in two accounts: the header offers the other.
      expect(await page.getByRole('button', { name: /switch account/ }).textContent()).toContain('Aroma Lisboa');
    } finally {
      await context.close();
    }
  });

  it('someone with two-factor on joins with their password and then their code', async () => {
    const faro = await createTestAccount(api.ctx, { name: 'Aroma Faro' });
    const ines = await createTestPerson(api.ctx, faro.accountId, 'owner', { name: 'Inês Lima' });
    const app = await turnOnTwoFactor(ines);
    const hash = await invite(ines.email, 'viewer');
    for (const size of SIZES) {
      const { context, page, problems } = await open(size, `${base}${hash}`);
      try {
        await page.getByLabel('Your password', { exact: true }).fill(ines.password);
        await page.getByRole('button', { name: 'Accept and sign in' }).click();
        // The password was right: the code is asked for beside it, and focused.
        await page.getByLabel('Authentication code').waitFor();
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('totp');
        await checkScreen(page, 'join-code');
        if (size === PHONE) continue;
        await page.getByLabel('Authentication code').fill(app.nextCode());
        await page.getByRole('button', { name: 'Accept and sign in' }).click();
        await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });

  it('a forgotten password: the page never says whether the address is known; the mailed link sets a new one and signs in', async () => {
    const rita = await createTestPerson(api.ctx, lisboa.accountId, 'editor', { name: 'Rita Sousa' });
    for (const size of SIZES) {
      const { context, page } = await open(size, base);
      try {
        await page.getByRole('link', { name: 'Forgot password?' }).click();
        await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
        await checkScreen(page, 'forgot-password');
        // An unknown address gets the same words as a known one.
        await page.getByLabel('Email address').fill(`nobody-${size.viewport.width}@doors.example`);
        await page.getByRole('button', { name: 'Send the link' }).click();
        await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
        expect(await page.getByRole('status').textContent()).toContain('If nobody-');
      } finally {
        await context.close();
      }
    }
    const { context, page, problems } = await open(PHONE, `${base}#/forgot-password`);
    try {
      await page.getByLabel('Email address').fill(rita.email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
      const mail = await smtp.waitForMail((m) => m.envelope.to.includes(rita.email));
      const link = /https?:\/\/\S+#\/reset-password\?token=[\w-]+/.exec(mail.text)![0];
      await page.goto(`${base}${hashOf(link)}`);
      await page.getByLabel('New password', { exact: true }).waitFor();
      await checkScreen(page, 'reset-password');
      await page.getByLabel('New password', { exact: true }).fill('another long password');
      await page.getByRole('button', { name: 'Save and sign in' }).click();
      await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
      expect(
        (
          await api.app.inject({
            method: 'POST',
            url: '/api/v1/sessions',
            payload: { email: rita.email, password: 'another long password' },
          })
        ).statusCode,
      ).toBe(200);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('with two-factor on, sign-in asks for the code; a wrong one is refused at the field; a right one signs in', async () => {
    const tomas = await createTestPerson(api.ctx, lisboa.accountId, 'editor', { name: 'Tomás Alves' });
    const app = await turnOnTwoFactor(tomas);
    for (const size of SIZES) {
      const { context, page } = await open(size, base);
      try {
        await page.getByLabel('Email address').fill(tomas.email);
        await page.getByLabel('Password', { exact: true }).fill(tomas.password);
        await page.getByRole('button', { name: 'Sign in', exact: true }).click();
        await page.getByRole('heading', { name: 'Two-factor check' }).waitFor();
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('totp');
        await page.getByLabel('Authentication code').fill('000000');
        await page.getByRole('button', { name: 'Verify and sign in' }).click();
        await expect.poll(() => page.locator('#totp-error').textContent()).toContain('not right');
        await checkScreen(page, 'sign-in-code');
        if (size === PHONE) continue;
        await page.getByLabel('Authentication code').fill(app.nextCode());
        await page.getByRole('button', { name: 'Verify and sign in' }).click();
        await page.getByRole('heading', { name: 'Aroma Lisboa' }).waitFor();
      } finally {
        await context.close();
      }
    }
  });
});
