/**
 * The hosted pages in headless Chromium on a phone-sized screen, served with their own headers
 * (CSP included) by a local server that also serves the link's files: the visible content, no
 * console errors or CSP reports, no request leaving the server's host, tap targets, no sideways
 * scrolling, and a screenshot per page under test-output/pages/.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkType } from '#domain/links/data/index.js';
import type { ResolvedLink, ResolvedLinkFile } from '#domain/links/resolve/resolved-link.js';
import * as pages from '#redirect/pages/index.js';
import { renderMenuPage } from '#redirect/pages/menu/menu-page.js';
import type { PublishedMenu } from '#domain/cafes/published-menu.js';
import {
  hasChromium,
  imagesLoaded,
  launchChromium,
  PHONE,
  screenshot,
  seriousAccessibilityViolations,
  seriousViolationsOn,
  visitPage,
  type PageVisit,
} from '../../support/browser.js';
import { pdfBytes, pngBytes } from '../../support/fixtures.js';
import { exampleData, resolvedLink } from '../../support/link-examples.js';

const SCREENSHOTS = fileURLToPath(new URL('../../../test-output/pages', import.meta.url));
/** With UPDATE_SCREENSHOTS=1 the first screen of each page is also written here (checked in, linked from docs/guide/scanning.md). */
const DOC_SCREENSHOTS =
  process.env.UPDATE_SCREENSHOTS === '1' ? fileURLToPath(new URL('../../../docs/screenshots/pages', import.meta.url)) : null;
const XSS = '<img src=x onerror=alert(1)>';

const IMAGES = ['7a1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e01', '7a1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e02', '7a1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e03'];
const PDFS = ['7a1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e04', '7a1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e05'];
const FILE_BYTES = new Map<string, { contentType: string; bytes: Buffer }>([
  [IMAGES[0]!, { contentType: 'image/png', bytes: pngBytes(320, 200, [214, 110, 60]) }],
  [IMAGES[1]!, { contentType: 'image/png', bytes: pngBytes(200, 200, [60, 130, 200]) }],
  [IMAGES[2]!, { contentType: 'image/png', bytes: pngBytes(200, 300, [90, 170, 90]) }],
  [PDFS[0]!, { contentType: 'application/pdf', bytes: pdfBytes('Lunch') }],
  [PDFS[1]!, { contentType: 'application/pdf', bytes: pdfBytes('Dinner') }],
]);
// A PDF's first page as made at upload (a WebP copy under the file's URL), served for every copy asked for.
const PAGE_COPY = pngBytes(96, 136, [245, 245, 240]);
const FILES: ResolvedLinkFile[] = [...FILE_BYTES].map(([id, { contentType, bytes }], i) => ({
  id,
  contentType,
  size: bytes.length,
  originalName: i === 0 ? `terrace ${XSS}.png` : contentType === 'application/pdf' ? `menu-2026-${i}.pdf` : null,
  variants: contentType === 'application/pdf' ? [{ format: 'webp' as const, width: 96, height: 136, size: PAGE_COPY.length }] : null,
}));
const URLS = { file: (id: string) => `/files/${id}`, vcard: '/contact.vcf', ics: '/event.ics' };
// A 1×1 PNG, for images carried in the data itself.
const PIXEL = `data:image/png;base64,${pngBytes(1, 1, [255, 200, 0]).toString('base64')}`;

/** A link with no page style: its own name ("Cafe Aroma") is the owner's label and never shown. */
function linkOf(type: LinkType, overrides: Record<string, unknown> = {}): ResolvedLink {
  const data = { ...exampleData(type, { images: IMAGES, pdfs: PDFS }), ...overrides };
  return { ...resolvedLink(type, data, FILES, 'a1'), id: 'l1', name: 'Cafe Aroma' };
}

const LANDING_HTML = [
  '<h1>Hello &amp; welcome</h1><p style="color:#b00020;text-align:center">Fresh <strong>bread</strong> every morning.</p>',
  '<script>alert(1)</script><img src=x onerror="alert(2)"><img src="https://evil.example/t.gif">',
  '<a href="javascript:alert(3)">bad link</a> <a href="https://example.com/menu">See the menu</a>',
  '<iframe src="https://evil.example"></iframe><style>body{background:url(https://evil.example/b.png)}</style>',
  `<figure><img src="/files/${IMAGES[1]}" alt="Our bread"><figcaption>Sourdough</figcaption></figure><img src="${PIXEL}" alt="dot" width="8" height="8">`,
].join('\n');

interface PageCase {
  name: string;
  page: () => pages.Page;
  status: number;
  heading: string;
  /** Texts the reader must see in <main>. */
  texts: string[];
  /** Links (by accessible name) that must be visible. */
  links?: string[];
  images?: number;
}

const LINK_CASES: PageCase[] = [
  {
    name: 'email',
    page: () => pages.renderLinkPage(linkOf('email'), URLS),
    status: 200,
    heading: 'Send an email',
    texts: ['hello@example.com', 'Booking', 'A table for two, please.'],
    links: ['Write email'],
  },
  {
    name: 'sms',
    page: () => pages.renderLinkPage(linkOf('sms'), URLS),
    status: 200,
    heading: 'Send a text message',
    texts: ['+1 (555) 010-2030', 'Hi!'],
    links: ['Write message'],
  },
  {
    name: 'vcard',
    page: () => pages.renderLinkPage(linkOf('vcard', { firstName: XSS }), URLS),
    status: 200,
    heading: `${XSS} Lovelace`,
    texts: ['Analytical Engines', 'ada@example.com', 'United Kingdom'],
    links: ['Save contact', '+44 20 7946 0000'],
  },
  {
    name: 'wifi',
    page: () => pages.renderLinkPage(linkOf('wifi', { hidden: true }), URLS),
    status: 200,
    heading: 'Join the Wi-Fi',
    texts: ['Cafe Guest', 'WPA/WPA2/WPA3', 'Show password'],
  },
  {
    name: 'location',
    page: () => pages.renderLinkPage(linkOf('location'), URLS),
    status: 200,
    heading: '48.8584° N, 2.2945° E',
    texts: [],
    links: ['Open in Google Maps', 'OpenStreetMap', 'Apple Maps', 'Other maps app'],
  },
  {
    name: 'event',
    page: () => pages.renderLinkPage(linkOf('event'), URLS),
    status: 200,
    heading: 'Jazz at the Aroma',
    texts: ['Thursday, December 24, 2026 7:00 – 11:00 PM, Paris time', 'Main hall', 'Cafe Aroma', 'Live jazz night'],
    links: ['Add to calendar', 'Register'],
    images: 1,
  },
  { name: 'image', page: () => pages.renderLinkPage(linkOf('image'), URLS), status: 200, heading: 'Image', texts: [], images: 1 },
  {
    name: 'gallery',
    page: () => pages.renderLinkPage(linkOf('gallery', { files: IMAGES.map((fileId) => ({ fileId })) }), URLS),
    status: 200,
    heading: 'Gallery',
    texts: [],
    images: 3,
  },
  {
    name: 'pdf',
    page: () => pages.renderLinkPage(linkOf('pdf'), URLS),
    status: 200,
    heading: 'Document',
    texts: ['menu-2026-3.pdf', 'PDF ·'],
    links: ['Open PDF'],
    images: 1,
  },
  {
    name: 'multi-pdf',
    page: () => pages.renderLinkPage(linkOf('multi-pdf'), URLS),
    status: 200,
    heading: 'Menus',
    texts: ['Lunch', 'Dinner', 'menu-2026-4.pdf'],
    images: 2,
  },
  {
    name: 'landing',
    page: () => pages.renderLinkPage(linkOf('landing', { landingHTML: LANDING_HTML }), URLS),
    status: 200,
    heading: 'Hello & welcome',
    texts: ['Fresh bread every morning.', 'Sourdough', 'bad link'],
    links: ['See the menu'],
    images: 2,
  },
  {
    name: 'product',
    page: () => pages.renderLinkPage(linkOf('product', { images: { files: IMAGES.map((fileId) => ({ fileId })) } }), URLS),
    status: 200,
    heading: 'House blend',
    texts: ['250 g whole beans', 'Discount (10%)', '−€1.25', '€15.00'],
    images: 3,
  },
  {
    name: 'multi-links',
    page: () =>
      pages.renderLinkPage(
        linkOf('multi-links', {
          logo: PIXEL,
          design: { backgroundColor: '#1e3a5f', linkBackgroundColor: '#ffd166', textColor: '#ffffff' },
        }),
        URLS,
      ),
    status: 200,
    heading: 'Cafe Aroma',
    texts: ['Find us everywhere'],
    links: ['Order online', 'Instagram'],
    images: 1,
  },
  {
    name: 'menu',
    page: () => pages.renderLinkPage(linkOf('menu'), URLS),
    status: 200,
    heading: 'Dinner menu',
    texts: ['This menu is being prepared.'],
  },
  {
    name: 'cafe-menu',
    page: () =>
      renderMenuPage(CAFE_MENU, { now: new Date('2026-11-25T12:00:00Z'), urls: { file: URLS.file }, baseUrl: 'http://127.0.0.1' }),
    status: 200,
    heading: 'Cafe Aroma',
    texts: ['Opening hours', 'Pastel de nata'],
    images: 1,
  },
];

/** A cafe's menu with one dish with a photo (its web-sized copies made) and weekly hours. */
const CAFE_MENU: PublishedMenu = {
  cafeId: 'c1',
  version: '1',
  name: 'Cafe Aroma',
  description: null,
  title: null,
  subtitle: null,
  timezone: 'Europe/Lisbon',
  operatingHours: [
    { day: 'monday', enabled: true, ranges: [{ from: '08:00', to: '19:00' }] },
    {
      day: 'wednesday',
      enabled: true,
      ranges: [
        { from: '08:00', to: '12:00' },
        { from: '14:00', to: '19:00' },
      ],
    },
  ],
  facilities: [],
  socialLinks: [],
  address: null,
  phone: null,
  email: null,
  website: null,
  logo: null,
  cover: null,
  imageVariants: { [PDFS[0]!]: [{ format: 'webp', width: 96, height: 136, size: 1 }] },
  theme: 'classic',
  primaryColor: null,
  secondaryColor: null,
  showDietarySection: false,
  groups: [
    {
      id: null,
      name: null,
      image: null,
      categories: [
        {
          id: 'k1',
          name: 'Pastries',
          description: null,
          image: null,
          items: [
            {
              id: 'i1',
              name: 'Pastel de nata',
              description: 'Custard tart.',
              price: '1.6',
              currency: 'EUR',
              isFeatured: false,
              isNew: false,
              isRecommended: false,
              spiceLevel: 'none',
              ingredients: [],
              allergens: [],
              tags: [],
              image: PDFS[0]!,
            },
          ],
        },
      ],
    },
  ],
};

/** A brand as a link's page style gives it: a logo the link has, the owner's title and website, and an accent. */
const BRANDED = {
  name: 'Table flyer',
  pageStyle: { title: 'Cafe Aroma', website: 'https://cafe-aroma.example/', accentColor: '#8a4b2a', logo: { fileId: IMAGES[1]! } },
  files: FILES,
} as const;
const brandedLink = (schedule: { startDate?: number; endDate?: number; scheduleTimezone?: string } = {}) => ({
  startDate: null,
  endDate: null,
  scheduleTimezone: null,
  ...BRANDED,
  ...schedule,
});

/** A scheduled or expired link's page (in Paris), branded or not, saying when it opens or ended. */
function scheduleCase(
  name: string,
  reason: 'scheduled' | 'expired',
  schedule: { startDate?: number; endDate?: number },
  when: string,
  branded = true,
): PageCase {
  const link = { scheduleTimezone: 'Europe/Paris', ...schedule };
  return {
    name,
    page: () => pages.renderUnavailablePage(reason, branded ? brandedLink(link) : { startDate: null, endDate: null, ...link }),
    status: 410,
    heading: reason === 'scheduled' ? 'This link is not active yet' : 'This link has expired',
    texts: branded ? ['Cafe Aroma', when, 'Visit Cafe Aroma'] : [when],
    images: branded ? 1 : 0,
  };
}

const STATUS_CASES: PageCase[] = [
  {
    name: 'paused-branded',
    page: () => pages.renderUnavailablePage('paused', brandedLink()),
    status: 410,
    heading: 'This link is paused',
    texts: ['Cafe Aroma', 'Visit Cafe Aroma'],
    images: 1,
  },
  // In the owner's language whatever the visitor's; a date in Portuguese, the zone by its city.
  {
    name: 'expired-branded-pt',
    page: () =>
      pages.renderUnavailablePage(
        'expired',
        {
          ...brandedLink({ endDate: Date.parse('2026-12-01T00:00:00Z'), scheduleTimezone: 'Europe/Lisbon' }),
          pageStyle: { ...BRANDED.pageStyle, language: 'pt-PT' },
        },
        'de',
      ),
    status: 410,
    heading: 'Este link expirou',
    texts: ['Terminou em segunda-feira, 30 de novembro de 2026 (hora de Lisbon)', 'Visitar Cafe Aroma'],
    images: 1,
  },
  // Without an owner's language, the visitor's: German; Japanese (no catalogue) reads English.
  {
    name: 'not-found-de',
    page: () => pages.notFoundPage('de-DE,de;q=0.9,en;q=0.5'),
    status: 404,
    heading: 'Link nicht gefunden',
    texts: ['führt nirgendwohin'],
  },
  {
    name: 'not-found-ja',
    page: () => pages.notFoundPage('ja-JP,ja;q=0.9'),
    status: 404,
    heading: 'Link not found',
    texts: ['does not lead anywhere'],
  },
  scheduleCase(
    'scheduled-branded',
    'scheduled',
    { startDate: Date.parse('2026-12-23T23:00:00Z') },
    'Opens on Thursday, December 24, 2026 (Paris time)',
  ),
  // Ends 30 November (a date: through that day), stored as the next midnight in Paris.
  scheduleCase(
    'expired-branded',
    'expired',
    { endDate: Date.parse('2026-11-30T23:00:00Z') },
    'Ended on Monday, November 30, 2026 (Paris time)',
  ),
  scheduleCase(
    'expired-at-time',
    'expired',
    { endDate: Date.parse('2026-11-30T14:30:00Z') },
    'Ended on Monday, November 30, 2026 at 3:30 PM (Paris time)',
    false,
  ),
  {
    name: 'limit-reached-branded',
    page: () => pages.renderUnavailablePage('limit_reached', brandedLink()),
    status: 410,
    heading: 'This link has reached its limit',
    texts: ['Cafe Aroma'],
    images: 1,
  },
  // A protected link's files are not shown before it is unlocked: its name is.
  {
    name: 'password-branded',
    page: () => pages.renderPasswordPage({ action: '/password', brand: pages.statusBrand({ ...BRANDED, passwordHash: 'x' }) }),
    status: 200,
    heading: 'This link is protected',
    texts: ['Cafe Aroma', 'Password'],
  },
  {
    name: 'not-found',
    page: () => pages.renderUnavailablePage('not_found'),
    status: 404,
    heading: 'Link not found',
    texts: ['does not lead anywhere'],
  },
  {
    name: 'paused',
    page: () => pages.renderUnavailablePage('paused'),
    status: 410,
    heading: 'This link is paused',
    texts: ['try again later'],
  },
  {
    name: 'scheduled',
    page: () =>
      pages.renderUnavailablePage('scheduled', {
        startDate: Date.parse('2026-12-24T18:00:00Z'),
        endDate: null,
        scheduleTimezone: 'Europe/Paris',
      }),
    status: 410,
    heading: 'This link is not active yet',
    texts: ['goes live', 'Opens on Thursday, December 24, 2026 at 7:00 PM (Paris time)'],
  },
  {
    name: 'expired',
    page: () => pages.renderUnavailablePage('expired'),
    status: 410,
    heading: 'This link has expired',
    texts: ['limited time'],
  },
  {
    name: 'limit-reached',
    page: () => pages.renderUnavailablePage('limit_reached'),
    status: 410,
    heading: 'This link has reached its limit',
    texts: ['as many times'],
  },
  {
    name: 'password',
    page: () => pages.renderPasswordPage({ action: '/password' }),
    status: 200,
    heading: 'This link is protected',
    texts: ['Password'],
  },
  {
    name: 'password-wrong',
    page: () => pages.renderPasswordPage({ action: '/password', error: 'wrong' }),
    status: 401,
    heading: 'This link is protected',
    texts: ['That password is not right.'],
  },
  {
    name: 'password-too-many',
    page: () => pages.renderPasswordPage({ action: '/password', error: 'too_many', retryAfterSeconds: 120 }),
    status: 429,
    heading: 'This link is protected',
    texts: ['Please wait 2 minutes'],
  },
  {
    name: 'service-unavailable',
    page: () => pages.renderServiceUnavailablePage(),
    status: 503,
    heading: 'Please try again in a moment',
    texts: ['Reload the page'],
  },
  {
    name: 'broken-destination',
    page: () => pages.renderUnavailablePage('broken_destination'),
    status: 502,
    heading: 'This link cannot be opened',
    texts: ['not a valid web address'],
  },
  {
    name: 'too-many-unknown',
    page: () => pages.renderTooManyNotFoundPage(60),
    status: 429,
    heading: 'Too many unknown links',
    texts: ['Please wait 1 minute'],
  },
  {
    name: 'bad-request',
    page: () => pages.renderClientErrorPage(400),
    status: 400,
    heading: 'This request could not be read',
    texts: ['The address is not valid'],
  },
  {
    name: 'headers-too-large',
    page: () => pages.renderClientErrorPage(431),
    status: 431,
    heading: 'The request headers are too large',
    texts: ['cookies'],
  },
];

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Buffer) {
  res.writeHead(status, headers);
  res.end(body);
}

/** Serves /page/<name>, the files, the .vcf and .ics, and the password form's answer. */
function pagesServer(destination: () => string): Server {
  const cases = new Map([...LINK_CASES, ...STATUS_CASES].map((c) => [c.name, c]));
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const file = /^\/files\/([0-9a-f-]{36})(\/[0-9]+\.(?:webp|jpg))?$/.exec(path);
    if (file && FILE_BYTES.has(file[1]!) && file[2])
      return send(res, 200, { 'Content-Type': 'image/png', 'X-Content-Type-Options': 'nosniff' }, PAGE_COPY);
    if (file && FILE_BYTES.has(file[1]!)) {
      const { contentType, bytes } = FILE_BYTES.get(file[1]!)!;
      return send(res, 200, { 'Content-Type': contentType, 'X-Content-Type-Options': 'nosniff' }, bytes);
    }
    if (path === '/contact.vcf')
      return send(res, 200, { 'Content-Type': 'text/vcard; charset=utf-8' }, pages.renderVcard(linkOf('vcard').data as never));
    if (path === '/event.ics') {
      return send(
        res,
        200,
        { 'Content-Type': 'text/calendar; charset=utf-8' },
        pages.renderIcs(linkOf('event').data as never, { uid: 'l1@test', url: 'http://127.0.0.1/abc1234' }),
      );
    }
    // As the redirect process will: a right password sets a cookie and sends the scanner on.
    if (path === '/password' && req.method === 'POST') return send(res, 303, { Location: '/opened' }, '');
    if (path === '/opened') return send(res, 302, { Location: destination() }, '');
    const page = cases.get(path.replace(/^\/page\//, ''));
    if (page) {
      const rendered = page.page();
      return send(res, rendered.status, rendered.headers ?? {}, rendered.body);
    }
    send(res, 404, { 'Content-Type': 'text/plain' }, 'not found');
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** What every page must satisfy on a phone. */
async function expectGoodPage(visit: PageVisit, expected: PageCase) {
  const { page } = visit;
  expect(visit.response?.status()).toBe(expected.status);
  expect(visit.response?.headers()['content-security-policy']).toContain("default-src 'none'");
  expect(await page.locator('h1').innerText()).toBe(expected.heading);
  // Intl puts thin and narrow no-break spaces into dates and times.
  const main = (await page.locator('main').innerText()).replace(/\s+/g, ' ');
  for (const text of expected.texts) expect(main).toContain(text);
  for (const name of expected.links ?? []) expect(await page.getByRole('link', { name, exact: true }).first().isVisible(), name).toBe(true);
  // Images on the page (not those of the gallery's viewer, loaded when it opens).
  // Photos in a viewer or a menu dish's sheet are the page's images again, larger, shown on demand.
  expect(await page.locator('img:not(.viewer img):not(.sheet img)').count()).toBe(expected.images ?? 0);
  expect(await imagesLoaded(page)).toBe(true);
  // Mobile-first: nothing scrolls sideways, and buttons are comfortable to tap.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const buttons = await page.$$eval('.button, .bio-link, button', (els) =>
    els.map((el) => ({
      height: el.getBoundingClientRect().height,
      color: getComputedStyle(el).color,
      background: getComputedStyle(el).backgroundColor,
    })),
  );
  for (const button of buttons) {
    expect(button.height).toBeGreaterThanOrEqual(44);
    expect(button.color).not.toBe(button.background);
  }
  // The main action (the first button) is on the first screen, without scrolling.
  const mainAction = await page.$$eval('.button', (els) => {
    const first = els.find((el) => (el as HTMLElement).offsetParent !== null);
    return first ? { bottom: first.getBoundingClientRect().bottom, screen: window.innerHeight } : null;
  });
  if (mainAction) expect(mainAction.bottom).toBeLessThanOrEqual(mainAction.screen);
  expect(visit.problems).toEqual([]);
  expect(visit.blockedRequests).toEqual([]);
  for (const url of visit.requests) expect(new URL(url).hostname).toBe('127.0.0.1');
}

describe.skipIf(!hasChromium)('hosted pages in headless Chromium', () => {
  let browser: Browser;
  let server: Server;
  let elsewhere: Server;
  let base: string;
  let elsewhereBase: string;

  beforeAll(async () => {
    // Another origin on the same host stands for a password-protected link's destination.
    elsewhere = createServer((_req, res) =>
      send(res, 200, { 'Content-Type': 'text/html; charset=utf-8' }, '<!doctype html><title>Destination</title><p>Arrived'),
    );
    elsewhereBase = await listen(elsewhere);
    server = pagesServer(() => `${elsewhereBase}/arrived`);
    base = await listen(server);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    elsewhere?.close();
  });

  async function withVisit(name: string, check: (visit: PageVisit) => Promise<void>) {
    const visit = await visitPage(browser, `${base}/page/${name}`);
    try {
      await check(visit);
    } finally {
      await visit.close();
    }
  }

  it.each([...LINK_CASES, ...STATUS_CASES].map((c) => [c.name, c] as const))('%s', async (name, expected) => {
    await withVisit(name, async (visit) => {
      await expectGoodPage(visit, expected);
      await screenshot(visit, `${SCREENSHOTS}${name}.png`);
      if (DOC_SCREENSHOTS) {
        await mkdir(DOC_SCREENSHOTS, { recursive: true });
        await visit.page.screenshot({ path: `${DOC_SCREENSHOTS}${name}.png` });
      }
    });
    // On a laptop too: the main action on the first screen, nothing sideways.
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await desktop.newPage();
      await page.goto(`${base}/page/${name}`);
      const fits = await page.evaluate(() => {
        const first = [...document.querySelectorAll('.button')].find((el) => (el as HTMLElement).offsetParent !== null);
        return (
          (!first || first.getBoundingClientRect().bottom <= window.innerHeight) &&
          document.documentElement.scrollWidth <= window.innerWidth
        );
      });
      expect(fits).toBe(true);
    } finally {
      await desktop.close();
    }
    // No serious or critical accessibility violation (axe-core), on a phone and on a laptop.
    for (const viewport of [PHONE.viewport, { width: 1280, height: 800 }]) {
      expect(await seriousAccessibilityViolations(browser, `${base}/page/${name}`, viewport), `${name} at ${viewport.width}px`).toEqual([]);
    }
  });

  /** Each word of each visible button or action link on `page`: how many lines it spans, and whether the whole label is on one line. */
  const buttonWords = (page: PageVisit['page']) =>
    page.$$eval('.button, .actions a', (els) =>
      els
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => {
          const text = el.firstChild as Text;
          const lineTops = (start: number, end: number) => {
            const range = document.createRange();
            range.setStart(text, start);
            range.setEnd(text, end);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          };
          const words = [...text.data.matchAll(/\S+/g)].map((m) => ({ word: m[0], lines: lineTops(m.index, m.index + m[0].length).size }));
          return { label: text.data, oneLine: lineTops(0, text.data.length).size === 1, words };
        }),
    );

  it.each(['pdf', 'multi-pdf'])('%s: each card has its cover in a first column beside a wide text column', async (name) => {
    await withVisit(name, async ({ page }) => {
      await imagesLoaded(page);
      const cards = await page.$$eval('.pdfs > li', (els) =>
        els.map((li) => {
          const box = (el: Element | null) => el && el.getBoundingClientRect().toJSON();
          return {
            card: box(li)!,
            cover: box(li.querySelector('img')),
            heading: box(li.querySelector('h2')),
            button: box(li.querySelector('.button')),
          };
        }),
      );
      expect(cards.length).toBeGreaterThan(0);
      for (const { card, cover, heading, button } of cards) {
        expect(cover).not.toBeNull();
        // The cover is first (left), beside the text (same row), and the text has room.
        expect(cover!.left - card.left).toBeLessThan(30);
        expect(heading!.left).toBeGreaterThanOrEqual(cover!.right);
        expect(Math.abs(heading!.top - cover!.top)).toBeLessThan(20);
        expect(button!.width).toBeGreaterThan(150);
      }
    });
  });

  it.each(['pdf', 'multi-pdf', 'vcard'])('%s: no button label is broken, no word split across lines', async (name) => {
    await withVisit(name, async ({ page }) => {
      const buttons = await buttonWords(page);
      expect(buttons.length).toBeGreaterThan(0);
      for (const button of buttons) {
        expect(button.oneLine, button.label).toBe(true);
        for (const { word, lines } of button.words) expect(lines, word).toBe(1);
      }
    });
  });

  it('vcard: each label reads on the line of its value; the company and department named as such', async () => {
    await withVisit('vcard', async ({ page }) => {
      const pairs = await page.$$eval('.facts dt', (dts) =>
        dts.map((dt) => {
          // The top of the first line of text (not of a box around it, like a link's 48 px tap target).
          const firstLineTop = (el: Element) => {
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, (n) =>
              n.textContent!.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP,
            );
            const range = document.createRange();
            range.selectNodeContents(walker.nextNode()!);
            return range.getClientRects()[0]!.top;
          };
          const dd = dt.nextElementSibling!;
          return { label: dt.textContent, value: dd.textContent, offset: Math.abs(firstLineTop(dt) - firstLineTop(dd)) };
        }),
      );
      for (const pair of pairs) expect(pair.offset, pair.label).toBeLessThan(3);
      const facts = Object.fromEntries(pairs.map((p) => [p.label, p.value]));
      expect(facts).toMatchObject({ Company: 'Analytical Engines', Department: 'Research' });
    });
  });

  it('cafe menu: dish photos start at the dish’s edge; the hours are a table of days and times', async () => {
    await withVisit('cafe-menu', async ({ page }) => {
      await imagesLoaded(page);
      const indents = await page.$$eval('.item', (items) =>
        items.map((item) => item.querySelector('img')!.getBoundingClientRect().left - item.getBoundingClientRect().left),
      );
      expect(indents.length).toBeGreaterThan(0);
      for (const indent of indents) expect(indent).toBeLessThan(1);
      const rows = await page.$$eval('.hours tr', (rows) =>
        rows.map((row) => {
          // The texts' own boxes: the cells touch, their padding is the gap a reader sees.
          const [day, times] = [row.querySelector('th')!, row.querySelector('td')!].map((el) => {
            const range = document.createRange();
            range.selectNodeContents(el);
            return range.getBoundingClientRect();
          });
          return {
            text: [...row.children].map((cell) => cell.textContent).join(' | '),
            gap: times!.left - day!.right,
            sameLine: Math.abs(times!.top - day!.top) < 3,
          };
        }),
      );
      expect(rows.map((r) => r.text)).toEqual([
        'Monday | 8:00 AM – 7:00 PM',
        'Tuesday | Closed',
        'Wednesday | 8:00 AM – 12:00 PM, 2:00 PM – 7:00 PM',
        'Thursday | Closed',
        'Friday | Closed',
        'Saturday | Closed',
        'Sunday | Closed',
      ]);
      for (const row of rows) {
        expect(row.gap, row.text).toBeGreaterThanOrEqual(12);
        expect(row.sameLine, row.text).toBe(true);
      }
    });
  });

  it.each(['paused-branded', 'scheduled-branded', 'expired-branded', 'limit-reached-branded', 'password-branded'])(
    '%s: the brand is inside the card, whole',
    async (name) => {
      await withVisit(name, async ({ page }) => {
        await imagesLoaded(page);
        const layout = await page.evaluate(() => {
          const card = document.querySelector('.status-card')!;
          const logo = document.querySelector('img');
          const inside = (r: DOMRect, outer: DOMRect) =>
            r.left >= outer.left && r.right <= outer.right && r.top >= outer.top && r.bottom <= outer.bottom;
          const logoBox = logo?.getBoundingClientRect();
          return {
            cardText: card.textContent,
            logoInCard: logoBox ? inside(logoBox, card.getBoundingClientRect()) : null,
            logoOnScreen: logoBox ? inside(logoBox, new DOMRect(0, 0, window.innerWidth, window.innerHeight)) : null,
            // Nothing covers or clips the logo: points near its edges (inside its rounded corners) are its own.
            logoUncovered:
              logo && logoBox
                ? [
                    [0.5, 0.05],
                    [0.5, 0.95],
                    [0.05, 0.5],
                    [0.95, 0.5],
                    [0.5, 0.5],
                  ].every(
                    ([x, y]) => document.elementFromPoint(logoBox.left + x! * logoBox.width, logoBox.top + y! * logoBox.height) === logo,
                  )
                : null,
          };
        });
        if (name !== 'password-branded')
          expect(layout, JSON.stringify(layout)).toMatchObject({ logoInCard: true, logoOnScreen: true, logoUncovered: true });
        expect(layout.cardText).toContain('Cafe Aroma');
      });
    },
  );

  it.each(['pdf', 'multi-pdf', 'vcard', 'cafe-menu', 'paused-branded', 'expired-branded', 'password-branded'])(
    '%s: no serious accessibility violation in dark mode',
    async (name) => {
      const context = await browser.newContext({ ...PHONE, colorScheme: 'dark', bypassCSP: true });
      try {
        const page = await context.newPage();
        await page.goto(`${base}/page/${name}`, { waitUntil: 'load' });
        expect(await seriousViolationsOn(page)).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );

  it('the accessibility check finds violations when there are some', async () => {
    const bad = 'data:text/html,<html><body><img src="x.png"><a href="/x"></a></body></html>';
    const ids = (await seriousAccessibilityViolations(browser, bad)).map((v) => v.id);
    expect(ids).toEqual(expect.arrayContaining(['html-has-lang', 'image-alt', 'link-name']));
  });

  it('gallery: a tap opens the picture in a viewer on the page, which moves on and closes', async () => {
    await withVisit('gallery', async ({ page }) => {
      const viewer = (n: number) => page.locator(`#view-${n}`);
      expect(await viewer(1).isVisible()).toBe(false);
      await page.locator('.gallery a').first().tap();
      expect(new URL(page.url()).pathname).toBe('/page/gallery');
      expect(await viewer(1).isVisible()).toBe(true);
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('#view-1 img');
        return !!img && img.complete && img.naturalWidth > 0;
      });
      await viewer(1).getByRole('link', { name: 'Next' }).tap();
      expect(await viewer(2).isVisible()).toBe(true);
      expect(await viewer(1).isVisible()).toBe(false);
      await viewer(2).getByRole('link', { name: 'Close' }).tap();
      // Closing returns to the list (the viewer's script goes back the one step opening it took).
      await expect.poll(() => viewer(2).isVisible()).toBe(false);
      expect(new URL(page.url()).hash).not.toMatch(/^#view-/);
    });
  });

  it('wifi: the password shows on request and selects whole on a tap', async () => {
    await withVisit('wifi', async ({ page }) => {
      const password = page.getByText('espresso42');
      expect(await password.isVisible()).toBe(false);
      await page.getByText('Show password').tap();
      expect(await password.isVisible()).toBe(true);
      await password.tap();
      expect(await page.evaluate(() => String(window.getSelection()))).toBe('espresso42');
    });
  });

  it('landing: hostile markup neither runs nor loads anything', async () => {
    await withVisit('landing', async (visit) => {
      const dialogs: string[] = [];
      visit.page.on('dialog', (dialog) => void dialog.dismiss().then(() => dialogs.push(dialog.message())));
      await visit.page.getByText('bad link').click();
      expect(visit.page.url()).toBe(`${base}/page/landing`);
      expect(dialogs).toEqual([]);
      expect(visit.problems).toEqual([]);
      expect(visit.blockedRequests).toEqual([]);
    });
  });

  it('the .vcf and .ics links answer with their files', async () => {
    for (const [name, link, type] of [
      ['vcard', 'Save contact', 'text/vcard'],
      ['event', 'Add to calendar', 'text/calendar'],
    ] as const) {
      await withVisit(name, async ({ page }) => {
        const href = await page.getByRole('link', { name: link }).getAttribute('href');
        const response = await page.request.get(new URL(href!, base).href);
        expect(response.headers()['content-type']).toContain(type);
      });
    }
  });

  it('password: the form posts and its answer may end at another origin (form-action allows it)', async () => {
    await withVisit('password', async (visit) => {
      await visit.page.getByLabel('Password').fill('secret');
      await Promise.all([visit.page.waitForURL(`${elsewhereBase}/arrived`), visit.page.getByRole('button', { name: 'Open link' }).tap()]);
      expect(await visit.page.title()).toBe('Destination');
      expect(visit.problems).toEqual([]);
    });
  });
});
