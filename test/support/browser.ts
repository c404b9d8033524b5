/**
 * Headless Chromium (Debian's `chromium`) driven by playwright-core, for checking hosted pages as
 * a phone sees them. Works with any URL: the pages test's own server or a running redirect
 * process. Launch once per test file; each visit gets a fresh context (no cookies carried over).
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
/**
 * Whether the browser tests run. A machine without Chromium skips them, except under CI (CI set,
 * as every CI service sets it, and .ci/run): there a missing Chromium fails them, loudly, rather
 * than letting a green run hide that nothing looked at a page.
 */
export const hasChromium = existsSync(CHROMIUM_PATH) || isCi(process.env.CI);

function isCi(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    return Promise.reject(
      new Error(`Chromium is missing at ${CHROMIUM_PATH} (under CI the browser tests fail rather than skip): apt-get install chromium`),
    );
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A console message that is not the console's fault: the links list shows each destination's
 * favicon from the destination's own site, the test links point at hosts that do not resolve in
 * the sandbox, and Chromium logs each image it could not load.
 */
export const isOfflineFavicon = (text: string) => text === 'Failed to load resource: net::ERR_NAME_NOT_RESOLVED';

/**
 * An answer the signed-out console asks for by design, which Chromium logs as a failed load: the
 * session cookie is HttpOnly, so whether there is one is learnt from GET /me (401: none), and
 * whether single sign-on is offered from its settings' route (404 on a server without it).
 */
export function isSignedOutProbe(text: string, url: string): boolean {
  if (!text.startsWith('Failed to load resource')) return false;
  const path = URL.canParse(url) ? new URL(url).pathname : '';
  return (
    (path === '/api/v1/me' && text.includes('status of 401')) || (path === '/api/v1/sessions/oidc/config' && text.includes('status of 404'))
  );
}

/** An iPhone-sized touch screen. */
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } as const;
export const DESKTOP = { viewport: { width: 1440, height: 900 } } as const;

/**
 * With UPDATE_SCREENSHOTS=1, the page as it is now, written to docs/screenshots/console/ as
 * `<name>-<viewport width>.png` (checked in, linked from docs/guide/console.md), and with `dark` also in the
 * dark theme as `<name>-dark-<width>.png`; otherwise nothing.
 */
export async function consoleScreenshot(page: Page, name: string, options: { dark?: boolean } = {}): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  const width = page.viewportSize()!.width;
  const path = (suffix: string) => fileURLToPath(new URL(`../../docs/screenshots/console/${name}${suffix}-${width}.png`, import.meta.url));
  await mkdir(dirname(path('')), { recursive: true });
  await page.screenshot({ path: path('') });
  if (!options.dark) return;
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? '');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  await page.screenshot({ path: path('-dark') });
  await page.evaluate((theme) => (document.documentElement.dataset.theme = theme), before);
}

/**
 * The elements reaching past the right edge of a `width`-wide screen (a phone's layout viewport
 * grows to fit them, so scrollWidth alone misses them). What lies inside a box that scrolls or
 * clips sideways (a wide data table in its own scroller) is that box's business, not the page's.
 */
export function overflowingElements(page: Page, width: number): Promise<string[]> {
  return page.evaluate((w) => {
    const contained = (e: Element) => {
      for (let a = e.parentElement; a && a !== document.body; a = a.parentElement)
        if (getComputedStyle(a).overflowX !== 'visible') return true;
      return false;
    };
    return [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > w + 0.5 && !contained(e))
      .map((e) => `${e.tagName}.${e.className}#${e.id}`);
  }, width);
}

export interface VisitOptions {
  /** Hosts the page may fetch from; any other request is blocked and reported. Default: the visited URL's host. */
  allowedHosts?: readonly string[];
}

export interface PageVisit {
  context: BrowserContext;
  page: Page;
  /** The response of the visited URL (after redirects), if it answered. */
  response: Response | null;
  /** Console errors and warnings (CSP violations among them) and uncaught page errors. */
  problems: string[];
  /** Every URL the page requested over the network, in order. */
  requests: string[];
  /** Requests to a host outside `allowedHosts`: these were blocked. */
  blockedRequests: string[];
  close(): Promise<void>;
}

/** Opens `url` in a new phone-sized context, recording what the page logs and requests. */
export async function visitPage(browser: Browser, url: string, options: VisitOptions = {}): Promise<PageVisit> {
  const allowedHosts = new Set(options.allowedHosts ?? [new URL(url).hostname]);
  const context = await browser.newContext({ ...PHONE });
  const visit: PageVisit = {
    context,
    page: await context.newPage(),
    response: null,
    problems: [],
    requests: [],
    blockedRequests: [],
    close: () => context.close(),
  };
  await context.route('**/*', (route) => {
    const requested = new URL(route.request().url());
    if (allowedHosts.has(requested.hostname)) return route.continue();
    visit.blockedRequests.push(requested.href);
    return route.abort('blockedbyclient');
  });
  visit.page.on('request', (request) => {
    if (/^https?:/.test(request.url())) visit.requests.push(request.url());
  });
  visit.page.on('console', (message) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    // Chromium logs every 4xx/5xx document as a failed load; for a 404 or 410 page that is the point.
    const isDocumentStatus = message.text().startsWith('Failed to load resource') && message.location().url === visit.page.url();
    if (!isDocumentStatus && !isSignedOutProbe(message.text(), message.location().url))
      visit.problems.push(`${message.type()}: ${message.text()}`);
  });
  visit.page.on('pageerror', (error) => visit.problems.push(`pageerror: ${error.message}`));
  visit.response = await visit.page.goto(url, { waitUntil: 'load' });
  return visit;
}

/** A full-page screenshot at `path` (folders created). */
export async function screenshot(visit: PageVisit, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await visit.page.screenshot({ path, fullPage: true });
}

/** Whether every <img> the page shows finished loading with real pixels. */
export async function imagesLoaded(page: Page, timeoutMs = 5000): Promise<boolean> {
  // Images not rendered (in a closed viewer, display:none) are not fetched while lazy; the rest must
  // load. Lazy images in view start after layout and may finish after the load event: waited for.
  const settled = () =>
    [...document.images].filter((img) => img.getClientRects().length > 0).every((img) => img.complete && img.currentSrc !== '');
  await page.waitForFunction(settled, undefined, { timeout: timeoutMs }).catch(() => undefined);
  return page.$$eval('img', (images) =>
    images.filter((img) => img.getClientRects().length > 0).every((img) => img.complete && img.naturalWidth > 0),
  );
}

/** A rule axe-core found broken on a page, with the elements that break it. */
export interface AccessibilityViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/**
 * The serious and critical accessibility violations axe-core (the engine of Lighthouse's and most
 * audits' accessibility checks) finds on `url` at `viewport`. The audit runs in a context of its
 * own that bypasses the page's CSP, which would (rightly) refuse axe's injected script.
 */
export async function seriousAccessibilityViolations(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number } = PHONE.viewport,
): Promise<AccessibilityViolation[]> {
  const context = await browser.newContext({ ...PHONE, viewport, bypassCSP: true });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return await seriousViolationsOn(page);
  } finally {
    await context.close();
  }
}

/** The same audit of a page as it is now (after signing in, say); its context must bypass CSP. */
/** The serious and critical findings on the page in the light theme and in the dark one; the page's theme is as it was after. */
export async function seriousViolationsByTheme(page: Page): Promise<Record<'light' | 'dark', AccessibilityViolation[]>> {
  const before = await page.evaluate(() => document.documentElement.dataset.theme ?? null);
  const found = { light: [] as AccessibilityViolation[], dark: [] as AccessibilityViolation[] };
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => (document.documentElement.dataset.theme = t), theme);
    found[theme] = await seriousViolationsOn(page);
  }
  await page.evaluate(
    (t) => (t === null ? delete document.documentElement.dataset.theme : (document.documentElement.dataset.theme = t)),
    before,
  );
  return found;
}

export async function seriousViolationsOn(page: Page): Promise<AccessibilityViolation[]> {
  return (await accessibilityViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Every violation of the rules axe-core runs by default (best practices included), of any impact; the page's context must bypass CSP. */
export async function accessibilityViolations(page: Page): Promise<AccessibilityViolation[]> {
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  return page.evaluate(async () => {
    const axe = (
      window as typeof window & {
        axe: {
          run(): Promise<{ violations: Array<{ id: string; impact?: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }>;
        };
      }
    ).axe;
    return (await axe.run()).violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => String(n.target)),
    }));
  });
}

/** Drops a CSV file named `name` holding `text` on the element at `selector`, as a file dragged from the desktop. */
export async function dropCsvFile(page: Page, selector: string, name: string, text: string): Promise<void> {
  const transfer = await page.evaluateHandle(
    ([fileName, contents]) => {
      const data = new DataTransfer();
      data.items.add(new File([contents], fileName, { type: 'text/csv' }));
      return data;
    },
    [name, text] as const,
  );
  await page.dispatchEvent(selector, 'dragover', { dataTransfer: transfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer: transfer });
}

/**
 * Signs the console in with `key` before its script runs, as a sign-in that was not remembered
 * would. Only the top document: frames (the sandboxed menu preview) have no storage to write.
 */
export async function signInBeforeLoad(target: BrowserContext | Page, key: string): Promise<void> {
  await target.addInitScript((k) => {
    if (window === window.top) sessionStorage.setItem('qrlinks.apiKey', k);
  }, key);
}
