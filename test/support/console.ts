/** The browser console's test setup: the built console served by a real api on a free port. */
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { ensureConsoleBuilt } from '#console/build.js';
import { DESKTOP, isOfflineFavicon, isSignedOutProbe } from './browser.js';
import { startTestApi, type TestApi } from './harness.js';

/**
 * The api listening on 127.0.0.1 with the console built; `base` is its `/`. `overrides` are
 * settings (JOB_WAIT_MS, …); `port` one chosen beforehand (freePort), for settings that name it.
 */
export async function startConsoleApi(overrides: Record<string, string> = {}, port = 0): Promise<{ api: TestApi; base: string }> {
  await ensureConsoleBuilt();
  const api = await startTestApi(overrides);
  await api.app.listen({ port, host: '127.0.0.1' });
  return { api, base: `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}/` };
}

/**
 * A new browser context at `url`, its console's errors and warnings gathered in `problems` (the
 * signed-out console's own probes left out; refusals a test asks for are the test's to filter).
 */
export async function openConsolePage(browser: Browser, url: string, options: Parameters<Browser['newContext']>[0] = DESKTOP) {
  const context = await browser.newContext({ bypassCSP: true, ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error' && m.type() !== 'warning') return;
    if (isSignedOutProbe(m.text(), m.location().url) || isOfflineFavicon(m.text())) return;
    problems.push(`${m.type()}: ${m.text()} ${m.location().url}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(url, { waitUntil: 'load' });
  return { context, page, problems };
}

/** Signs in on the console's sign-in page with an email address and a password. */
export async function signInWithPassword(page: Page, person: { email: string; password: string }): Promise<void> {
  await page.getByLabel('Email address').fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}
