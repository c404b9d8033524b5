/**
 * The console's link editor against the real api in headless Chromium: each of the 16 types
 * created through its form and read back over the API, files uploaded through the file input and
 * by drag and drop (with the progress bar), API validation errors at their fields, an edit that
 * keeps what the form does not show (smart-url rules, the link's settings), a link made by
 * keyboard alone, and axe-core's serious and critical findings at both widths.
 */
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import bcrypt from 'bcrypt';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
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
import { pdfBytes, pngBytes, uploadFile } from '../../support/fixtures.js';
import { choice } from '../../support/qr-designer.js';
import { decodesAll } from '../../support/qr-reference.js';
import { call, createLinkVia, createTestAccount, type TestAccount, type TestApi } from '../../support/harness.js';

const ZONE = 'America/New_York';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let api: TestApi;
let base: string;
let browser: Browser;
let owner: TestAccount;
/** One signed-in desktop tab for the tests that need no other size. */
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

/** A valid PNG padded with a private chunk to `bytes`, so its upload takes long enough to watch. */
function paddedPng(bytes: number): Buffer {
  const png = pngBytes(4, 4, [...randomBytes(3)] as [number, number, number]);
  const data = randomBytes(bytes);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from('qrPd', 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([png.subarray(0, png.length - 12), head, body, crc, png.subarray(png.length - 12)]);
}
const png = (name: string) => ({ name, mimeType: 'image/png', buffer: pngBytes(3, 3, [...randomBytes(3)] as [number, number, number]) });
const pdf = (name: string) => ({ name, mimeType: 'application/pdf', buffer: pdfBytes(`${name} ${randomBytes(4).toString('hex')}`) });

async function signedInTab(options: Parameters<Browser['newContext']>[0] = {}) {
  const tab = await browser.newContext({ ...DESKTOP, timezoneId: ZONE, ...options });
  await signInBeforeLoad(tab, owner.key);
  const opened = await tab.newPage();
  opened.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  // A CSP refusal (of the editor's lazily loaded script or style, say) is logged as an error.
  opened.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  return { tab, opened };
}

beforeAll(async () => {
  ({ api, base } = await startConsoleApi());
  owner = await createTestAccount(api.ctx, { plan: 'pro', name: 'Cafe Aroma' });
  if (!hasChromium) return;
  browser = await launchChromium();
  ({ tab: context, opened: page } = await signedInTab());
  // The browser's question on leaving a form a test left unsaved: leave.
  page.on('dialog', (d) => void d.accept());
  // A step that cannot happen fails at that step, well inside the test's own time limit.
  page.setDefaultTimeout(20_000);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** The input a body path names (Field's id for it). */
const at = (path: string) => page.locator(`#field-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`);
const open = async (hash: string) => {
  // The page left as it was stored first (a form a test left with unsaved changes would hold the
  // move and ask): the console loaded afresh where it is.
  if (page.url().startsWith(base)) await page.reload();
  await page.goto(`${base}#${hash}`);
  await page.locator('h1').first().waitFor();
};
/** The id of the account's file uploaded under `name` (file names in these tests are unique). */
async function fileNamed(name: string): Promise<string> {
  const { rows } = await api.ctx.database.pool.query<{ id: string }>('select id from files where account_id = $1 and original_name = $2', [
    owner.accountId,
    name,
  ]);
  expect(rows).toHaveLength(1);
  return rows[0]!.id;
}
const storedLink = async (slug: string) => (await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}`)).json().data;
/** The slug of the link the editor now shows (after a create it goes to the link's edit page). */
async function createdSlug(): Promise<string> {
  await page.waitForURL(/#\/links\/[^/]+\/edit\?saved=created$/);
  await page.getByRole('status').filter({ hasText: 'Link created.' }).waitFor();
  return decodeURIComponent(/#\/links\/([^/]+)\/edit/.exec(page.url())![1]!);
}
async function upload(path: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  await at(path).setInputFiles(file);
  await page
    .locator('.field', { has: at(path) })
    .getByText(`Attached: ${file.name}`)
    .waitFor();
}

interface TypeCase {
  fill?: Record<string, string>;
  select?: Record<string, string>;
  check?: string[];
  /** Buttons to press first ("Add link"), by name. */
  press?: string[];
  uploads?: Record<string, { name: string; mimeType: string; buffer: Buffer }>;
  data: Record<string, unknown>;
}

const fileRef = { fileId: expect.stringMatching(UUID) };
const CASES: Record<string, TypeCase> = {
  website: { fill: { url: 'https://example.com/menu' }, data: { url: 'https://example.com/menu' } },
  email: {
    fill: { email: 'hi@example.com', subject: 'Table booking', body: 'Four people at eight.' },
    data: { email: 'hi@example.com', subject: 'Table booking', body: 'Four people at eight.' },
  },
  sms: { fill: { phone: '+351 912 345 678' }, data: { phone: '+351 912 345 678' } },
  vcard: {
    fill: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com', phone: '+1 555 0100 ext. 12', company: 'Cafe Aroma' },
    data: { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com', phone: '+1 555 0100 ext. 12', company: 'Cafe Aroma' },
  },
  wifi: {
    fill: { ssid: 'Cafe guests', password: 'espresso' },
    select: { encryption: 'WEP' },
    check: ['hidden'],
    data: { ssid: 'Cafe guests', encryption: 'WEP', password: 'espresso', hidden: true },
  },
  location: { fill: { latitude: '38.7223', longitude: '-9.1393' }, data: { latitude: 38.7223, longitude: -9.1393 } },
  event: {
    fill: {
      eventTitle: 'Tasting',
      description: 'New roasts',
      location: 'Lisbon',
      startDateTime: '2030-05-01T18:00',
      endDateTime: '2030-05-01T20:30',
      registrationUrl: 'https://example.com/rsvp',
    },
    uploads: { 'image.fileId': png('poster.png') },
    // The time zone is left as the browser's.
    data: {
      eventTitle: 'Tasting',
      description: 'New roasts',
      location: 'Lisbon',
      startDateTime: '2030-05-01T18:00',
      endDateTime: '2030-05-01T20:30',
      timezone: ZONE,
      registrationUrl: 'https://example.com/rsvp',
      image: fileRef,
    },
  },
  image: { uploads: { 'files.0.fileId': png('photo.png') }, data: { files: [fileRef] } },
  pdf: { uploads: { 'files.0.fileId': pdf('menu.pdf') }, data: { files: [fileRef] } },
  gallery: {
    press: ['Add image'],
    uploads: { 'files.0.fileId': png('one.png'), 'files.1.fileId': png('two.png') },
    data: { files: [fileRef, fileRef] },
  },
  landing: { fill: { landingHTML: '<h1>Welcome</h1><p>Open daily.</p>' }, data: { landingHTML: '<h1>Welcome</h1><p>Open daily.</p>' } },
  product: {
    fill: {
      productName: 'Beans',
      productDescription: 'Single origin',
      currency: 'EUR',
      subTotal: '10',
      tax: '2.3',
      totalNet: '12.3',
      'discount.value': '1.5',
    },
    select: { 'discount.type': 'amount' },
    press: ['Add product image'],
    uploads: { 'images.files.0.fileId': png('beans.png') },
    data: {
      productName: 'Beans',
      productDescription: 'Single origin',
      currency: 'EUR',
      subTotal: 10,
      tax: 2.3,
      totalNet: 12.3,
      discount: { type: 'amount', value: 1.5 },
      images: { files: [fileRef] },
    },
  },
  'multi-links': {
    press: ['Add link', 'Add link'],
    select: { 'links.0.type': 'social' },
    fill: {
      title: 'Aroma everywhere',
      'design.backgroundColor': '#fdf6e3',
      'design.textColor': '#222222',
      'links.0.value': 'https://mastodon.social/@aroma',
      'links.0.icon': 'mastodon',
      'links.1.value': 'https://example.com/order',
      'links.1.title': 'Order ahead',
    },
    data: {
      title: 'Aroma everywhere',
      design: { backgroundColor: '#fdf6e3', linkBackgroundColor: '#1f4fd1', textColor: '#222222' },
      links: [
        { type: 'social', value: 'https://mastodon.social/@aroma', icon: 'mastodon' },
        { type: 'custom', value: 'https://example.com/order', title: 'Order ahead' },
      ],
    },
  },
  'multi-pdf': {
    fill: { pageTitle: 'Menus', 'pdfs.0.label': 'Lunch' },
    uploads: { 'pdfs.0.fileId': pdf('lunch.pdf') },
    data: { pageTitle: 'Menus', pdfs: [{ label: 'Lunch', fileId: expect.stringMatching(UUID) }] },
  },
  'smart-url': { fill: { defaultUrl: 'https://example.com/app' }, data: { defaultUrl: 'https://example.com/app' } },
  menu: { fill: { name: 'Lunch menu' }, data: { name: 'Lunch menu' } },
};

describe.skipIf(!hasChromium)('console link editor', () => {
  it('creates each of the 16 types through its form; the API has exactly the data typed', async () => {
    for (const [type, c] of Object.entries(CASES)) {
      await open(`/links/new?type=${type}`);
      await page.getByLabel('Name', { exact: true }).fill(`My ${type}`);
      for (const button of c.press ?? []) await page.getByRole('button', { name: button, exact: true }).click();
      for (const [path, value] of Object.entries(c.select ?? {})) await at(`data.${path}`).selectOption(value);
      for (const [path, value] of Object.entries(c.fill ?? {})) await at(`data.${path}`).fill(value);
      for (const path of c.check ?? []) await at(`data.${path}`).check();
      for (const [path, file] of Object.entries(c.uploads ?? {})) await upload(`data.${path}`, file);
      await page.getByRole('button', { name: 'Create link' }).click();
      const link = await storedLink(await createdSlug());
      expect(link.type, type).toBe(type);
      expect(link.name).toBe(`My ${type}`);
      expect(link.meta_data, type).toEqual(c.data);
      // The files the data names are the link's, each of the kind uploaded.
      const named = JSON.stringify(link.meta_data).match(/[0-9a-f]{8}-[0-9a-f-]{27}/g) ?? [];
      expect(link.files.map((f: { fileId: string }) => f.fileId).sort(), type).toEqual([...new Set(named)].sort());
      // The edit page it went to shows what was saved.
      expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe(`My ${type}`);
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('drag and drop uploads with a progress bar; entries reorder by keyboard; a refused file says why', async () => {
    await open('/links/new?type=gallery');
    await page.getByLabel('Name', { exact: true }).fill('Dropped');
    // A slow uplink, so the progress bar can be seen moving.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 400 * 1024,
    });
    const fullSpeed = () =>
      cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    onTestFinished(async () => {
      await fullSpeed();
      await cdp.detach();
    });
    const big = paddedPng(600 * 1024).toString('base64');
    const zone = page.locator('.drop-zone').first();
    // The editor's own styles, loaded with it on demand, apply under the console's CSP.
    expect(await zone.evaluate((e) => getComputedStyle(e).borderTopStyle)).toBe('dashed');
    const transfer = await page.evaluateHandle((b64) => {
      const bytes = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'big.png', { type: 'image/png' }));
      return data;
    }, big);
    await zone.dispatchEvent('dragover', { dataTransfer: transfer });
    await zone.dispatchEvent('drop', { dataTransfer: transfer });
    const bar = page.getByRole('progressbar', { name: 'Uploading big.png' });
    await bar.waitFor();
    await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 10_000 }).toBeGreaterThan(0);
    await fullSpeed();
    await page.getByText('Attached: big.png').waitFor();
    const firstId = await fileNamed('big.png');
    expect(await zone.locator('img').getAttribute('src')).toMatch(/^blob:/);

    await page.getByRole('button', { name: 'Add image' }).click();
    await upload('data.files.1.fileId', png('second.png'));
    // Image 1 moves down by keyboard, and focus stays on the moved entry's button.
    await page.getByRole('button', { name: 'Move down (Image 1)' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.list-item').first().textContent()).toContain('second.png');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move up (Image 2)');

    // A file the API refuses: its message, in words, at the field.
    await page.getByRole('button', { name: 'Add image' }).click();
    await at('data.files.2.fileId').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    const refusal = page.locator('#field-data-files-2-fileId-error');
    await expect.poll(() => refusal.textContent()).toContain('Unsupported file type');
    await page.getByRole('button', { name: 'Remove Image 3' }).click();

    await page.getByRole('button', { name: 'Create link' }).click();
    const link = await storedLink(await createdSlug());
    expect(link.meta_data.files).toHaveLength(2);
    expect(link.meta_data.files[1].fileId).toBe(firstId);
    expect(link.files.find((f: { fileId: string }) => f.fileId === firstId)).toMatchObject({ contentType: 'image/png' });
  }, 60_000);

  it("shows the API's validation errors at their fields and keeps what was typed", async () => {
    await open('/links/new?type=website');
    await page.getByLabel('Name', { exact: true }).fill('Refused');
    await at('data.url').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => page.locator('#field-data-url-error').textContent()).toBe('Must be a valid URL');
    expect(await at('data.url').getAttribute('aria-invalid')).toBe('true');
    // Focus moves to the first refused field in the commit after the errors show.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('field-data-url');
    expect(await at('data.url').inputValue()).toBe('javascript:alert(1)');
    expect(await page.getByLabel('Name', { exact: true }).inputValue()).toBe('Refused');

    // A gallery whose file was removed after it was uploaded: "File not found" at that file.
    await open('/links/new?type=gallery');
    await page.getByLabel('Name', { exact: true }).fill('Lost file');
    await upload('data.files.0.fileId', png('gone.png'));
    await api.ctx.database.pool.query('delete from files where id = $1', [await fileNamed('gone.png')]);
    await page.getByRole('button', { name: 'Create link' }).click();
    await expect.poll(() => page.locator('#field-data-files-0-fileId-error').textContent()).toBe('File not found');
    await page.getByText('The link was not created.').waitFor();
  });

  it('edits a link: the change is saved, its rules and settings are kept', async () => {
    const folder = (await call(api.app, owner.key, 'POST', '/api/v1/folders', { name: 'Campaigns' })).json().id;
    const rules = [{ conditionType: 'device', operator: 'is', url: 'https://apps.apple.com/app', devices: ['ios'] }];
    const { slug } = await createLinkVia(api.app, owner.key, {
      name: 'App download',
      type: 'smart-url',
      data: { defaultUrl: 'https://example.com/app', rules },
      linkConfigurations: {
        folder_id: folder,
        scheduleActive: true,
        startDate: '2030-01-01',
        endDate: '2030-12-31',
        scheduleTimezone: 'Europe/Lisbon',
        scanLimitActive: true,
        scanLimit: 500,
        passwordProtectedActive: true,
        password: 'let-me-in',
      },
    });
    const before = await storedLink(slug);
    await open('/links?search=App+download');
    // The link's name in its row leads to its editor.
    await page.getByRole('link', { name: 'App download', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit App download' }).waitFor();
    await page.getByText('Visitors on iPhone/iPad → https://apps.apple.com/app').waitFor();
    await at('data.defaultUrl').fill('https://example.com/get-the-app');
    await page.getByLabel('Name', { exact: true }).fill('App download (new)');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
    const after = await storedLink(slug);
    expect(after.meta_data).toEqual({ defaultUrl: 'https://example.com/get-the-app', rules });
    expect(after.name).toBe('App download (new)');
    for (const kept of [
      'folder_id',
      'schedule_active',
      'start_date',
      'end_date',
      'schedule_timezone',
      'scan_limit_active',
      'scan_limit',
      'password_protected_active',
      'password',
      'url_active',
      'custom_url',
    ]) {
      expect(after[kept], kept).toEqual(before[kept]);
    }
    expect(await bcrypt.compare('let-me-in', after.password)).toBe(true);
    await page.getByRole('heading', { name: 'Edit App download (new)' }).waitFor();
    // The link's analytics are a click away from its edit page.
    await page.getByRole('link', { name: 'Its scans and analytics' }).click();
    await expect.poll(() => new URL(page.url()).hash).toBe(`#/analytics/${slug}`);
  });

  it('designs the QR beside the form: a template applied and restyled is saved with the link and served by its /qr', async () => {
    await call(api.app, owner.key, 'POST', '/api/v1/templates', {
      name: 'Green dots',
      qrOptions: { dotsOptions: { type: 'dots', color: '#0b3d2e' } },
    });
    await open('/links/new?type=website');
    await page.getByLabel('Name', { exact: true }).fill('Table card');
    await at('data.url').fill('https://example.com/menu');
    const preview = page.getByTestId('qr-preview');
    await preview.waitFor();
    const plain = await preview.getAttribute('src');
    await page.getByLabel('Apply a template', { exact: true }).selectOption({ label: 'Green dots' });
    await expect.poll(() => preview.getAttribute('src')).not.toBe(plain);
    expect(await choice(page, 'Dot style', 'Dots').isChecked()).toBe(true);
    await choice(page, 'Code colour', 'Royal blue').click();
    await page.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('heading', { name: 'Edit Table card' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Link created.' }).waitFor();
    const slug = decodeURIComponent(new URL(page.url()).hash.split('/')[2]!);
    const created = await storedLink(slug);
    expect(created.qr_options).toMatchObject({ data: created.full_dynamic_url, dotsOptions: { type: 'dots', color: '#1d4ed8' } });

    // The edit page shows the stored design; a change is saved with the link's other changes.
    expect(await choice(page, 'Code colour', 'Royal blue').isChecked()).toBe(true);
    await choice(page, 'Dot style', 'Rounded').click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Changes saved.' }).waitFor();
    expect((await storedLink(slug)).qr_options.dotsOptions).toMatchObject({ type: 'rounded', color: '#1d4ed8' });
    const png = await call(api.app, owner.key, 'GET', `/api/v1/links/${slug}/qr?format=png&size=512`);
    expect(png.statusCode).toBe(200);
    expect(await decodesAll([png.rawPayload], `${created.full_dynamic_url}?q`)).toEqual([true]);
  });

  it('creates a link by keyboard alone; an unknown page and type say so', async () => {
    await open('/links');
    await page.getByRole('link', { name: 'New link' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New link' }).waitFor();
    // Tab from the page's start to the Website card, the first of the 16.
    await page.getByRole('link', { name: 'Back to links' }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('WebsiteOpens a web page.');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New website link' }).waitFor();
    await page.getByRole('link', { name: 'Choose another type' }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.type('Typed by keyboard');
    await page.keyboard.press('Tab');
    await page.keyboard.type('https://example.com/keyboard');
    await page.keyboard.press('Enter');
    const link = await storedLink(await createdSlug());
    expect([link.name, link.meta_data]).toEqual(['Typed by keyboard', { url: 'https://example.com/keyboard' }]);

    await open('/links/nope');
    await page.getByRole('heading', { name: 'No such page' }).waitFor();
    await open('/links/new?type=fax');
    await page.getByRole('heading', { name: 'No such link type' }).waitFor();
    await open('/links/not-a-link/edit');
    await page.getByRole('heading', { name: 'No such link' }).waitFor();
  });

  it('has no serious or critical axe-core finding on the type chooser, a new form and an edit form, at both widths', async () => {
    const { slug } = await createLinkVia(api.app, owner.key, {
      name: 'Lunch menus',
      type: 'multi-pdf',
      data: {
        pageTitle: 'Lunch',
        pdfs: [{ label: 'Weekdays', fileId: (await uploadFile(api.app, owner.key, pdf('weekdays.pdf').buffer)).fileId }],
      },
    });
    for (const size of [PHONE, DESKTOP]) {
      const { tab, opened } = await signedInTab({ ...size, bypassCSP: true });
      try {
        for (const [hash, shot] of [
          ['/links/new', 'link-new-types'],
          ['/links/new?type=event', 'link-new'],
          [`/links/${slug}/edit`, 'link-edit'],
        ] as const) {
          await opened.goto(`${base}#${hash}`);
          await opened.locator('.link-editor-page h1').waitFor();
          expect(await overflowingElements(opened, size.viewport.width), `${hash} wider than ${size.viewport.width} px`).toEqual([]);
          await opened.locator('.link-editor-page').evaluate((e) => e.scrollIntoView());
          await consoleScreenshot(opened, shot, { dark: true });
          expect(await seriousViolationsByTheme(opened), `${hash} ${size.viewport.width}`).toEqual({ light: [], dark: [] });
        }
      } finally {
        await tab.close();
      }
    }
  }, 60_000);
});
