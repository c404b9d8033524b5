/**
 * The cafe look's preview frame from every origin the console is served on, in headless
 * Chromium: with the default settings' shapes (PUBLIC_API_URL and SHORT_URL_BASE on `localhost`),
 * the console opened at 127.0.0.1, as the README says, and at localhost both show the menu page
 * in the frame; the preview names only the origin that asked for it, so another site still cannot
 * frame it; and where the preview's framer is not the console's own origin (a proxy that changed
 * what the api sees), the console says so in words instead of showing a broken frame.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launchChromium, signInBeforeLoad } from '../../support/browser.js';
import { startConsoleApi } from '../../support/console.js';
import { call, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';
import { freePort } from '../../support/processes.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';

let api: TestApi;
let apiPort: number;
let browser: Browser;
let owner: TestAccount;
let redirect: TestRedirect;
let cafe: { id: string; name: string };

beforeAll(async () => {
  // The defaults' shapes: both public addresses on localhost, while the processes listen on 127.0.0.1.
  const redirectPort = await freePort();
  apiPort = await freePort();
  ({ api } = await startConsoleApi(
    { PUBLIC_API_URL: `http://localhost:${apiPort}/api/v1`, SHORT_URL_BASE: `http://localhost:${redirectPort}` },
    apiPort,
  ));
  redirect = await startTestRedirect(api.ctx, redirectPort);
  if (hasChromium) browser = await launchChromium();
  owner = await createTestAccount(api.ctx, { plan: 'pro' });
  cafe = (await call(api.app, owner.key, 'POST', '/api/v1/cafes', { name: 'Casa Azul' })).json().data;
}, 120_000);
afterAll(async () => {
  await redirect?.close();
  await api?.close();
  await browser?.close();
});

/** An HTTP proxy on a free loopback port to `upstream` (host:port), sending it `Host: upstream`. */
async function hostRewritingProxy(upstream: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const forwarded = request(
      `http://${upstream}${req.url}`,
      { method: req.method, headers: { ...req.headers, host: upstream } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The cafe's page in the console at `origin`, signed in. */
async function openLook(origin: string) {
  const context = await browser.newContext({ ...DESKTOP });
  await signInBeforeLoad(context, owner.key);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${origin}/#/cafes/${cafe.id}/look`);
  const look = page.getByRole('form', { name: 'Look of the menu page' });
  await look.waitFor();
  return { context, page, look, problems };
}

/** The framed page's text, '' until its document has loaded (a blocked frame's never has the menu). */
async function framedText(page: Page): Promise<string> {
  const handle = await page.locator('iframe[title="Preview of the menu page"]').elementHandle({ timeout: 1000 });
  const frame: Frame | null | undefined = await handle?.contentFrame();
  return (await frame?.evaluate(() => (document.readyState === 'complete' ? (document.body?.innerText ?? '') : '')).catch(() => '')) ?? '';
}

describe.skipIf(!hasChromium)('theme preview from every origin of the console', () => {
  for (const host of ['127.0.0.1', 'localhost']) {
    it(`renders the menu in the preview frame with the console at http://${host}`, async () => {
      const origin = `http://${host}:${apiPort}`;
      const { context, page, look, problems } = await openLook(origin);
      try {
        await look.getByRole('status').filter({ hasText: 'This is the look on the form' }).waitFor();
        await expect.poll(() => framedText(page), { timeout: 15_000 }).toContain('Casa Azul');
        // The frame's page lets exactly this console's origin frame it, nothing wider.
        const src = (await look.locator('iframe[title="Preview of the menu page"]').getAttribute('src'))!;
        const policy = (await fetch(src.replace(/^http:\/\/localhost:/, 'http://127.0.0.1:'))).headers.get('content-security-policy');
        expect(policy?.split('; ')).toContain(`frame-ancestors ${origin}`);
        expect(problems).toEqual([]);
      } finally {
        await context.close();
      }
    });
  }

  it('leaves the preview unframable by another site', async () => {
    const { context, page, look } = await openLook(`http://127.0.0.1:${apiPort}`);
    try {
      await look.getByRole('status').filter({ hasText: 'This is the look on the form' }).waitFor();
      await expect.poll(() => framedText(page), { timeout: 15_000 }).toContain('Casa Azul');
      const src = (await look.locator('iframe[title="Preview of the menu page"]').getAttribute('src'))!;
      // A page of another site framing the same live preview URL.
      const other = await context.newPage();
      await other.route('http://elsewhere.example/', (route) =>
        route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><title>other</title><iframe src="${src}" onload="document.title='framed'"></iframe>`,
        }),
      );
      await other.goto('http://elsewhere.example/');
      await expect.poll(() => other.title()).toBe('framed');
      const framed = other.frames().find((f) => f !== other.mainFrame())!;
      expect(framed.url()).not.toBe(src);
      expect(await framed.evaluate(() => document.body?.innerText ?? '').catch(() => '')).not.toContain('Casa Azul');
    } finally {
      await context.close();
    }
  });

  it('a preview request whose Origin is not where it was sent falls back to PUBLIC_API_URL, and the console says why instead of a frame', async () => {
    // Without a browser: a client naming an origin that is not the one it talks to gets the configured one.
    const made = await call(
      api.app,
      owner.key,
      'POST',
      `/api/v1/cafes/${cafe.id}/theme/preview`,
      { themeImage: 'rustic' },
      {
        origin: 'http://elsewhere.example',
      },
    );
    expect(made.statusCode).toBe(200);
    const policy = (await fetch(made.json().url.replace(/^http:\/\/localhost:/, 'http://127.0.0.1:'))).headers.get(
      'content-security-policy',
    );
    expect(policy?.split('; ')).toContain(`frame-ancestors http://localhost:${apiPort}`);

    // In the console behind a proxy that sends the api its own upstream address as Host (nginx's
    // default): the request's Origin is not where the api sees it sent, so the preview is framable by
    // PUBLIC_API_URL's origin only; the console says where to see it rather than showing a refused frame.
    const proxy = await hostRewritingProxy(`127.0.0.1:${apiPort}`);
    const context = await browser.newContext({ ...DESKTOP });
    await signInBeforeLoad(context, owner.key);
    const page = await context.newPage();
    try {
      await page.goto(`${proxy.origin}/#/cafes/${cafe.id}/look`);
      const look = page.getByRole('form', { name: 'Look of the menu page' });
      const alert = look.getByRole('alert');
      await alert.waitFor();
      expect(await alert.textContent()).toBe(
        `The preview can be shown only in the console at http://localhost:${apiPort}: open it there to see the look before saving.`,
      );
      expect(await look.locator('iframe[title="Preview of the menu page"]').count()).toBe(0);
    } finally {
      await context.close();
      await proxy.close();
    }
  });
});
