/**
 * The console's API keys and Jobs screens in headless Chromium against the real api and workers:
 * a key created with chosen scopes is shown once and listed; revoked (after a confirm dialog that
 * takes focus and closes on Escape) it is marked revoked and can no longer sign in; an export
 * started over the API is followed to 100% and its file downloaded; axe-core finds nothing
 * serious or critical on either screen at either width.
 */
import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import {
  consoleScreenshot,
  DESKTOP,
  hasChromium,
  launchChromium,
  overflowingElements,
  PHONE,
  seriousViolationsOn,
} from '../../support/browser.js';
import { pollUntil } from '../../support/until.js';
import { call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { startConsoleApi } from '../../support/console.js';

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
let workers: RunningWorkers | undefined;

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  if (hasChromium) browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await workers?.close();
  await api?.close();
});

async function signedIn(page: Page, key: string, path: string) {
  await page.goto(base);
  await page.getByText('sign in with an API key').click();
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in with key' }).click();
  await page.getByRole('heading', { name: 'Cafe Aroma' }).waitFor();
  await page.goto(`${base}#${path}`);
}

describe.skipIf(!hasChromium)('console: API keys and jobs', () => {
  it('creates a key with chosen scopes, shows it once, lists it; revoking it marks it revoked and it cannot sign in', async () => {
    let newKey = '';
    const context = await browser.newContext({ ...DESKTOP });
    const problems: string[] = [];
    try {
      const page = await context.newPage();
      page.on('pageerror', (e) => problems.push(e.message));
      await signedIn(page, owner.key, '/keys');
      await page.getByRole('heading', { name: 'Keys of this account' }).waitFor();

      // Nothing chosen: refused in words before any request.
      await page.getByLabel('Name').fill('Shop sync');
      await page.getByRole('button', { name: 'Create key' }).click();
      expect(await page.getByRole('alert').textContent()).toContain('Choose at least one scope');

      await page.getByLabel('links.read').check();
      await page.getByLabel('bulk.create').check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const shown = page.locator('#new-key-value');
      await shown.waitFor();
      newKey = (await shown.textContent())!.trim();
      expect(newKey).toMatch(/^key-/);
      expect(await page.getByRole('region', { name: /New key/ }).textContent()).toContain('only time it is shown');
      const row = page.getByRole('row', { name: /Shop sync/ });
      await row.waitFor();
      expect(await row.textContent()).toContain('links.read, bulk.create');
      expect(await row.textContent()).toContain('active');
      // The key really has those scopes.
      expect((await call(api.app, newKey, 'GET', '/api/v1/me')).json().key.scopes).toEqual(['links.read', 'bulk.create']);
      await page.getByRole('button', { name: 'I have saved it' }).click();
      expect(await page.locator('#new-key-value').count()).toBe(0);

      // Revoke: the dialog takes focus; Escape cancels and nothing changes.
      await row.getByRole('button', { name: 'Revoke Shop sync' }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke “Shop sync”?' });
      await dialog.waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest('dialog') !== null)).toBe(true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect((await call(api.app, newKey, 'GET', '/api/v1/me')).statusCode).toBe(200);

      await row.getByRole('button', { name: 'Revoke Shop sync' }).click();
      await dialog.getByRole('button', { name: 'Revoke key' }).click();
      await expect.poll(() => row.textContent()).toContain('revoked');
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Keys of this account');
      expect(await row.getByRole('button').count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
    // The revoked key is refused at sign-in, with the reason at the field.
    const fresh = await browser.newContext({ ...PHONE });
    try {
      const page = await fresh.newPage();
      await page.goto(base);
      await page.getByText('sign in with an API key').click();
      await page.getByLabel('API key').fill(newKey);
      await page.getByRole('button', { name: 'Sign in with key' }).click();
      await expect.poll(() => page.locator('#api-key-error').textContent()).toContain('revoked');
      expect(await page.getByLabel('API key').getAttribute('aria-invalid')).toBe('true');
    } finally {
      await fresh.close();
    }
  });

  it('creates a key from the keyboard alone, and moves focus to the new key', async () => {
    const context = await browser.newContext({ ...PHONE });
    try {
      const page = await context.newPage();
      await signedIn(page, owner.key, '/keys');
      await page.getByRole('heading', { name: 'Keys of this account' }).waitFor();
      const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent);
      await page.getByLabel('Name').focus();
      await page.keyboard.type('Keyboard key');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('scope-all');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('scope-links.read');
      expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineWidth)).toBe('3px');
      await page.keyboard.press('Space');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      await page.locator('#new-key-value').waitFor();
      await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-labelledby'))).toBe('new-key-title');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('Copy key');
      const row = page.getByRole('row', { name: /Keyboard key/ });
      await row.waitFor();
      expect(await row.textContent()).toContain('links.read');
    } finally {
      await context.close();
    }
  });

  it('follows an export started over the API to 100% and downloads its file', async () => {
    const started = await call(api.app, owner.key, 'POST', '/api/v1/analytics/export', {}, { prefer: 'respond-async' });
    expect(started.statusCode).toBe(202);
    const { jobId } = started.json();
    const context = await browser.newContext({ ...PHONE, acceptDownloads: true });
    try {
      const page = await context.newPage();
      await signedIn(page, owner.key, '/jobs');
      // No worker yet: queued at 0%.
      const bar = page.getByRole('progressbar', { name: 'Scan export' });
      await bar.waitFor();
      expect(await bar.getAttribute('aria-valuenow')).toBe('0');
      expect(await page.locator('.job').first().textContent()).toContain('queued');

      workers = await startWorkers(api.ctx);
      const download = page.getByRole('button', { name: /^Download scans-.*\.csv$/ });
      await download.waitFor({ timeout: 20_000 });
      expect(await page.getByRole('progressbar').count()).toBe(0);
      expect(await page.locator('.job').first().textContent()).toContain('completed');
      const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
      const expected = (await call(api.app, owner.key, 'GET', `/api/v1/jobs/${jobId}/download`)).body;
      expect(await readFile(await file.path(), 'utf8')).toBe(expected);
      expect(expected.split('\r\n')[0]).toContain('created_at');
    } finally {
      await context.close();
    }
  });

  it('has no serious or critical axe-core finding on the keys and jobs screens, at both widths', async () => {
    // The jobs page as a user meets it: a finished bulk generation with its ZIP, and an export
    // waiting in a paused queue, with its progress bar.
    const bulk = await call(api.app, owner.key, 'POST', '/api/v1/bulk-generate', {
      type: 'website',
      data: [{ name: 'Table 1', url: 'https://example.com/t/1' }],
    });
    expect(bulk.statusCode).toBe(200);
    const bulkJob = `/api/v1/jobs/${bulk.json().jobId}`;
    expect(
      await pollUntil(
        async () => (await call(api.app, owner.key, 'GET', bulkJob)).json().state,
        (state) => state === 'completed',
      ),
    ).toBe('completed');
    const exports = api.ctx.queues['analytics-export'];
    await exports.pause();
    try {
      expect((await call(api.app, owner.key, 'POST', '/api/v1/analytics/export', {}, { prefer: 'respond-async' })).statusCode).toBe(202);
      await auditBothScreens();
    } finally {
      await exports.resume();
    }
  });
});

/** The keys and jobs screens at both widths: no overflow, no serious axe-core finding; screenshots on request. */
async function auditBothScreens() {
  for (const size of [PHONE, DESKTOP]) {
    const context = await browser.newContext({ ...size, bypassCSP: true });
    try {
      const page = await context.newPage();
      await signedIn(page, owner.key, '/keys');
      await page.getByRole('table').waitFor();
      expect(await overflowingElements(page, size.viewport.width), `keys wider than ${size.viewport.width} px`).toEqual([]);
      await consoleScreenshot(page, 'api-keys', { dark: true });
      expect(await seriousViolationsOn(page), `keys ${size.viewport.width}`).toEqual([]);
      await page.goto(`${base}#/jobs`);
      await page.getByRole('progressbar').waitFor();
      await page.getByRole('button', { name: 'Download qr-codes.zip' }).waitFor();
      expect(await overflowingElements(page, size.viewport.width), `jobs wider than ${size.viewport.width} px`).toEqual([]);
      await consoleScreenshot(page, 'jobs', { dark: true });
      expect(await seriousViolationsOn(page), `jobs ${size.viewport.width}`).toEqual([]);
    } finally {
      await context.close();
    }
  }
}
