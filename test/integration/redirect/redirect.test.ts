/**
 * The scan path end to end: links made through the real api, scanned through the real redirect
 * app over HTTP, scans ingested by the real BullMQ workers into Postgres.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkCounters } from '#domain/schema.js';
import { uploadFile, pdfBytes, pngBytes } from '../../support/fixtures.js';
import { call, type TestAccount, type TestApi } from '../../support/harness.js';
import { geoSample } from '../../support/geo.js';
import { rawGet, startScanStack, type ScanStack, type TestRedirect } from '../../support/redirect.js';
import { sendPastTheAnswer } from '../../support/early-answer.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
const WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let stack: ScanStack;
let api: TestApi;
let redirect: TestRedirect;
let me: TestAccount;

beforeAll(async () => {
  stack = await startScanStack({ TRUSTED_PROXIES: '127.0.0.1' });
  ({ api, redirect, me } = stack);
});
afterAll(() => stack?.close());

const createLink = (body: Record<string, unknown>) => stack.createLink(body);
const website = (url = 'https://example.com/landing', linkConfigurations?: Record<string, unknown>) => ({
  name: 'Site',
  type: 'website',
  data: { url },
  ...(linkConfigurations ? { linkConfigurations } : {}),
});
const ua = (agent: string, extra: Record<string, string> = {}) => ({ headers: { 'user-agent': agent, ...extra } });

const waitForScans = (linkId: string, n: number) => stack.waitForScans(linkId, n);

describe('website links', () => {
  it('302 to the url, not cached by browsers; HEAD resolves too and is recorded as a bot', async () => {
    const link = await createLink(website());
    const res = await redirect.get(`/${link.slug}`, ua(IPHONE));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/landing');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const head = await redirect.get(`/${link.slug}`, { method: 'HEAD', ...ua(IPHONE) });
    expect(head.status).toBe(302);
    const recorded = await waitForScans(link.id, 2);
    expect(recorded).toHaveLength(2);
    expect(recorded.filter((s) => s.isBot)).toHaveLength(1);
    const human = recorded.find((s) => !s.isBot)!;
    expect(human).toMatchObject({
      accountId: me.accountId,
      osName: 'iOS',
      browserName: expect.stringMatching(/Safari/),
      deviceType: 'mobile',
    });
    const [row] = await api.ctx.db.select().from(linkCounters).where(eq(linkCounters.linkId, link.id));
    expect(row).toMatchObject({ scanCount: 2, humanScanCount: 1 });
    expect(row!.lastScannedAt).toBeInstanceOf(Date);
  });

  it('an unknown or malformed slug is a 404 page', async () => {
    for (const path of ['/no-such-slug-x', '/bad%20slug', '/' + 'a'.repeat(65)]) {
      const res = await redirect.get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(await res.text()).toMatch(/not found/i);
    }
  });

  it('pause, resume, update and delete take effect at once, even with the link cached', async () => {
    const link = await createLink(website('https://example.com/one'));
    expect((await redirect.get(`/${link.slug}`)).status).toBe(302);
    await call(api.app, me.key, 'POST', `/api/v1/links/${link.slug}/pause`);
    const paused = await redirect.get(`/${link.slug}`);
    expect(paused.status).toBe(410);
    expect(await paused.text()).toMatch(/paused/i);
    await call(api.app, me.key, 'POST', `/api/v1/links/${link.slug}/resume`);
    expect((await redirect.get(`/${link.slug}`)).headers.get('location')).toBe('https://example.com/one');
    const put = await call(api.app, me.key, 'PUT', `/api/v1/links/${link.slug}`, website('https://example.com/two'));
    expect(put.statusCode).toBe(200);
    expect((await redirect.get(`/${link.slug}`)).headers.get('location')).toBe('https://example.com/two');
    await call(api.app, me.key, 'DELETE', `/api/v1/links/${link.slug}`);
    expect((await redirect.get(`/${link.slug}`)).status).toBe(404);
  });

  it('a custom slug that was unknown resolves as soon as it is created', async () => {
    const slug = `later-${Date.now()}`;
    expect((await redirect.get(`/${slug}`)).status).toBe(404);
    await createLink(website('https://example.com/later', { urlActive: true, customUrl: slug }));
    expect((await redirect.get(`/${slug}`)).status).toBe(302);
  });
});

describe('schedule', () => {
  it('before the window: 410 not yet active; after it: 410 expired', async () => {
    const future = await createLink(
      website(undefined, { scheduleActive: true, startDate: '2099-01-01', endDate: '2099-02-01', scheduleTimezone: 'Europe/Paris' }),
    );
    const early = await redirect.get(`/${future.slug}`);
    expect(early.status).toBe(410);
    expect(await early.text()).toMatch(/not (yet )?active|not started|starts/i);
    const past = await createLink(
      website(undefined, { scheduleActive: true, startDate: '2020-01-01', endDate: '2020-02-01', scheduleTimezone: 'Asia/Tokyo' }),
    );
    const late = await redirect.get(`/${past.slug}`);
    expect(late.status).toBe(410);
    expect(await late.text()).toMatch(/expired|ended/i);
    const now = await createLink(
      website(undefined, { scheduleActive: true, startDate: '2020-01-01', endDate: '2099-01-01', scheduleTimezone: 'UTC' }),
    );
    expect((await redirect.get(`/${now.slug}`)).status).toBe(302);
  });
});

describe('scan limit', () => {
  it('scanLimit 10 and 50 concurrent scans: exactly 10 resolve and 10 human scans are recorded', async () => {
    const link = await createLink(website(undefined, { scanLimitActive: true, scanLimit: 10 }));
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => redirect.get(`/${link.slug}`, ua(ANDROID, { 'x-forwarded-for': `198.51.100.${i}` }))),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 302)).toHaveLength(10);
    expect(statuses.filter((s) => s === 410)).toHaveLength(40);
    const recorded = await waitForScans(link.id, 10);
    expect(recorded.filter((s) => !s.isBot)).toHaveLength(10);
    expect(recorded).toHaveLength(10);
    const [row] = await api.ctx.db.select().from(linkCounters).where(eq(linkCounters.linkId, link.id));
    expect(row).toMatchObject({ humanScanCount: 10, limitScanCount: 10 });
    const status = await call(api.app, me.key, 'GET', `/api/v1/links/${link.slug}`);
    expect(status.json().data.status).toBe('limit_reached');
  });

  it('bots resolve without using the limit; once it is reached they see the 410 too', async () => {
    const link = await createLink(website(undefined, { scanLimitActive: true, scanLimit: 2 }));
    const from = (address: string) => ({ 'x-forwarded-for': address });
    expect((await redirect.get(`/${link.slug}`, ua(GOOGLEBOT, from('192.0.2.1')))).status).toBe(302);
    expect((await redirect.get(`/${link.slug}`, ua(WINDOWS, from('192.0.2.2')))).status).toBe(302);
    expect((await redirect.get(`/${link.slug}`, ua(GOOGLEBOT, from('192.0.2.1')))).status).toBe(302);
    expect((await redirect.get(`/${link.slug}`, ua(WINDOWS, from('192.0.2.3')))).status).toBe(302);
    const gone = await redirect.get(`/${link.slug}`, ua(WINDOWS, from('192.0.2.4')));
    expect(gone.status).toBe(410);
    expect(await gone.text()).toMatch(/limit|no longer/i);
    expect((await redirect.get(`/${link.slug}`, ua(GOOGLEBOT))).status).toBe(410);
    const recorded = await waitForScans(link.id, 4);
    expect(recorded.map((s) => s.isBot).sort()).toEqual([false, false, true, true]);
  });

  it('a visitor counts once a day: one client replaying, or rotating its User-Agent, cannot use up a limit-5 link', async () => {
    const link = await createLink(website(undefined, { scanLimitActive: true, scanLimit: 5 }));
    const client = { 'x-forwarded-for': '203.0.113.77' };
    // Six requests as one visitor, then six more with another build of the same browser and system.
    for (let i = 0; i < 6; i++) expect((await redirect.get(`/${link.slug}`, ua(ANDROID, client))).status).toBe(302);
    for (let v = 120; v < 126; v++) {
      const rotated = ANDROID.replace('Chrome/126', `Chrome/${v}`);
      expect((await redirect.get(`/${link.slug}`, ua(rotated, client))).status).toBe(302);
    }
    // Its other device (another system) is another visitor; three more people use the rest.
    expect((await redirect.get(`/${link.slug}`, ua(WINDOWS, client))).status).toBe(302);
    for (const address of ['203.0.113.78', '203.0.113.79', '203.0.113.80'])
      expect((await redirect.get(`/${link.slug}`, ua(IPHONE, { 'x-forwarded-for': address }))).status).toBe(302);
    expect((await redirect.get(`/${link.slug}`, ua(IPHONE, { 'x-forwarded-for': '203.0.113.81' }))).status).toBe(410);
    // Every answered scan is recorded; five counted against the limit, as the api shows.
    await waitForScans(link.id, 16);
    const [row] = await api.ctx.db.select().from(linkCounters).where(eq(linkCounters.linkId, link.id));
    expect(row).toMatchObject({ humanScanCount: 16, limitScanCount: 5 });
    const view = (await call(api.app, me.key, 'GET', `/api/v1/links/${link.slug}`)).json().data;
    expect(view).toMatchObject({ status: 'limit_reached', human_scan_count: 16, limit_scan_count: 5 });
  });

  it('the limit reseeded from Postgres after Redis lost it counts visitors, not requests', async () => {
    const link = await createLink(website(undefined, { scanLimitActive: true, scanLimit: 3 }));
    const client = ua(IPHONE, { 'x-forwarded-for': '203.0.113.90' });
    for (let i = 0; i < 4; i++) expect((await redirect.get(`/${link.slug}`, client)).status).toBe(302);
    await waitForScans(link.id, 4);
    const namespace = api.ctx.config.REDIS_NAMESPACE;
    await api.ctx.redis.del(`${namespace}:link-human-scans:${link.id}`);
    // Seeded with 1 (one visitor so far): two more people get through, the third does not.
    expect((await redirect.get(`/${link.slug}`, ua(IPHONE, { 'x-forwarded-for': '203.0.113.91' }))).status).toBe(302);
    expect((await redirect.get(`/${link.slug}`, ua(IPHONE, { 'x-forwarded-for': '203.0.113.92' }))).status).toBe(302);
    expect((await redirect.get(`/${link.slug}`, ua(IPHONE, { 'x-forwarded-for': '203.0.113.93' }))).status).toBe(410);
  });
});

describe('password', () => {
  it('a form; a wrong password is refused; the right one sets a cookie that opens the link once counted', async () => {
    const link = await createLink(website('https://example.com/secret', { passwordProtectedActive: true, password: 'open sesame' }));
    const form = await redirect.get(`/${link.slug}`);
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toMatch(/<form[^>]*method="post"/i);
    expect(html).toMatch(/name="password"/);
    const post = (password: string, headers: Record<string, string> = {}) =>
      redirect.get(`/${link.slug}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ password }).toString(),
      });
    const wrong = await post('sesame');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const right = await post('open sesame');
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe(`/${link.slug}`);
    const cookie = right.headers.get('set-cookie')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(new RegExp(`Path=/${link.slug}`));
    const opened = await redirect.get(`/${link.slug}`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('https://example.com/secret');
    const forged = cookie.split(';')[0]!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect((await redirect.get(`/${link.slug}`, { headers: { cookie: forged } })).status).toBe(200);
    // Only the request that resolved is a scan: not the form, not the posts.
    expect(await waitForScans(link.id, 1)).toHaveLength(1);
  });

  it('too many wrong attempts from one client: 429 with Retry-After, even for the right password', async () => {
    const link = await createLink(website(undefined, { passwordProtectedActive: true, password: 'pw' }));
    const post = (password: string) =>
      redirect.get(`/${link.slug}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.7' },
        body: `password=${encodeURIComponent(password)}`,
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await post('nope')).status);
    expect(statuses.slice(0, 9).every((s) => s === 401)).toBe(true);
    expect(statuses[9]).toBe(429);
    const blocked = await post('pw');
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not blocked.
    const other = await redirect.get(`/${link.slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.9' },
      body: 'password=pw',
    });
    expect(other.status).toBe(303);
  });
});

describe('client errors get their own status and page, not the service-down page', () => {
  it('a password form over the body limit: 413, no Retry-After, and a page that says the request is too large', async () => {
    const link = await createLink(website(undefined, { passwordProtectedActive: true, password: 'pw' }));
    const res = await redirect.get(`/${link.slug}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `password=${'x'.repeat(10_000)}`,
    });
    expect(res.status).toBe(413);
    expect(res.headers.get('retry-after')).toBeNull();
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    expect(page).toContain('This request is too large');
    expect(page).not.toContain('try again in a moment');
  });

  it('a form far over the limit gets its 413 page while still being sent, not a reset', async () => {
    const link = await createLink(website(undefined, { passwordProtectedActive: true, password: 'pw' }));
    const port = Number(new URL(redirect.base).port);
    const head =
      `POST /${link.slug} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n` +
      `Content-Length: ${32 * 1024 * 1024}\r\n\r\npassword=`;
    const sent = await sendPastTheAnswer(port, head, { answeredWhen: /<\/html>/i, afterBytes: 1024 * 1024 });
    expect(sent.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent.failure).toBeNull();
    expect(sent.closedEarly).toBe(false);
  });
});

describe('smart-url', () => {
  it('device rules with real user agents, in order, else defaultUrl', async () => {
    const link = await createLink({
      name: 'Apps',
      type: 'smart-url',
      data: {
        defaultUrl: 'https://example.com/web',
        rules: [
          { conditionType: 'device', operator: 'is', devices: ['ios'], url: 'https://example.com/app-store' },
          { conditionType: 'device', operator: 'is', devices: ['android'], url: 'https://example.com/play' },
          { conditionType: 'device', operator: 'is', devices: ['mobile'], url: 'https://example.com/mobile' },
        ],
      },
    });
    const where = async (agent: string) => (await redirect.get(`/${link.slug}`, ua(agent))).headers.get('location');
    expect(await where(IPHONE)).toBe('https://example.com/app-store');
    expect(await where(ANDROID)).toBe('https://example.com/play');
    expect(await where(WINDOWS)).toBe('https://example.com/web');
  });

  it('location rules by the country of the client address (X-Forwarded-For from a trusted proxy)', async () => {
    const link = await createLink({
      name: 'Geo',
      type: 'smart-url',
      data: {
        defaultUrl: 'https://example.com/world',
        rules: [
          { conditionType: 'location', operator: 'is', countries: ['DE'], url: 'https://example.com/de' },
          { conditionType: 'location', operator: 'is', countries: ['JP', 'us'], url: 'https://example.com/jp-us' },
        ],
      },
    });
    const from = async (ip: string) =>
      (await redirect.get(`/${link.slug}`, { headers: { 'x-forwarded-for': ip } })).headers.get('location');
    // Addresses whose country this test reads from the geo database itself (see geoSample).
    const sample = await geoSample();
    expect(await from(sample.DE)).toBe('https://example.com/de');
    expect(await from(sample.JP)).toBe('https://example.com/jp-us');
    expect(await from(sample.US)).toBe('https://example.com/jp-us');
    expect(await from('10.1.2.3')).toBe('https://example.com/world');
    const recorded = await waitForScans(link.id, 4);
    expect(recorded.map((s) => s.countryName ?? '(none)').sort()).toEqual(['(none)', 'Germany', 'Japan', 'United States']);
  });
});

describe('pages and downloads', () => {
  it('a vcard link shows a contact page and its .vcf, which is not another scan', async () => {
    const link = await createLink({
      name: 'Ada',
      type: 'vcard',
      data: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', company: 'Analytical Engines' },
    });
    const page = await redirect.get(`/${link.slug}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await page.text();
    expect(html).toContain('Ada');
    expect(html).toContain(`/${link.slug}/contact.vcf`);
    const vcf = await redirect.get(`/${link.slug}/contact.vcf`);
    expect(vcf.status).toBe(200);
    expect(vcf.headers.get('content-type')).toMatch(/^text\/vcard/);
    expect(vcf.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Ada Lovelace\.vcf"; filename\*=UTF-8''Ada%20Lovelace\.vcf$/,
    );
    expect(await vcf.text()).toMatch(/BEGIN:VCARD[\s\S]*Lovelace[\s\S]*END:VCARD/);
    expect((await redirect.get(`/${link.slug}/event.ics`)).status).toBe(404);
    expect(await waitForScans(link.id, 1)).toHaveLength(1);
    // Pages go out compressed to clients that accept it (brotli first), the same page either way.
    const plain = await rawGet(redirect, `/${link.slug}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    for (const [accept, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
    ] as const) {
      const res = await rawGet(redirect, `/${link.slug}`, accept);
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.body.length).toBeLessThan(plain.body.length / 2);
      expect(decode(res.body).equals(plain.body)).toBe(true);
    }
  });

  it("a link's page is made once per version of the link, platform and language, and a change shows at once", async () => {
    const pagesMade = async () => {
      const text = await (await redirect.get('/metrics')).text();
      const line = text.split('\n').find((l) => l.startsWith('qrlinks_pages_rendered_total{') && l.includes('kind="link"'));
      return line ? Number(line.split(' ').pop()) : 0;
    };
    const card = (firstName: string) => ({
      name: 'Grace',
      type: 'vcard',
      data: { firstName, lastName: 'Hopper', email: 'grace@example.com', street: '1 Main St', city: 'Arlington' },
    });
    const link = await createLink(card('Grace'));
    const before = await pagesMade();
    const iphone = await (await redirect.get(`/${link.slug}`, ua(IPHONE))).text();
    expect(iphone).toContain('Grace');
    expect(iphone).toContain('https://maps.apple.com/');
    expect(await (await redirect.get(`/${link.slug}`, ua(IPHONE))).text()).toBe(iphone);
    expect(await pagesMade()).toBe(before + 1);
    // Each platform its own page: the address opens the platform's maps.
    const windows = await (await redirect.get(`/${link.slug}`, ua(WINDOWS))).text();
    expect(windows).toContain('https://www.google.com/maps/');
    expect(await pagesMade()).toBe(before + 2);
    // A page in the guest's language (the link sets none) is kept per language, and compressed too.
    const german = await rawGet(redirect, `/${link.slug}`, 'identity', { 'accept-language': 'de-DE,de;q=0.9', 'user-agent': IPHONE });
    expect(german.body.toString()).toContain('lang="de');
    const compressed = await rawGet(redirect, `/${link.slug}`, 'br', { 'accept-language': 'de-DE,de;q=0.9', 'user-agent': IPHONE });
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(String(compressed.headers.vary).split(/,\s*/).sort()).toEqual(['Accept-Encoding', 'Accept-Language']);
    expect(brotliDecompressSync(compressed.body).equals(german.body)).toBe(true);
    expect(await pagesMade()).toBe(before + 3);
    // A change to the link is on the next scan's page.
    expect((await call(api.app, me.key, 'PUT', `/api/v1/links/${link.slug}`, card('Gracie'))).statusCode).toBe(200);
    expect(await (await redirect.get(`/${link.slug}`, ua(IPHONE))).text()).toContain('Gracie');
    expect(await waitForScans(link.id, 6)).toHaveLength(6);

    // A page that shows the same on every phone (no map link) is made once for all platforms.
    const wifi = await createLink({
      name: 'Guest Wi-Fi',
      type: 'wifi',
      data: { ssid: 'Corner Cafe', password: 'espresso42', encryption: 'WPA' },
    });
    const first = await pagesMade();
    const pages = [];
    for (const agent of [IPHONE, ANDROID, WINDOWS, IPHONE]) pages.push(await (await redirect.get(`/${wifi.slug}`, ua(agent))).text());
    expect(pages[0]).toContain('Corner Cafe');
    expect(new Set(pages).size).toBe(1);
    expect(await pagesMade()).toBe(first + 1);
    // A contact without an address has no map link either.
    const noAddress = await createLink({
      name: 'Ada',
      type: 'vcard',
      data: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
    });
    for (const agent of [IPHONE, ANDROID, WINDOWS]) expect((await redirect.get(`/${noAddress.slug}`, ua(agent))).status).toBe(200);
    expect(await pagesMade()).toBe(first + 2);
  });

  it('an event link offers its .ics; image and pdf pages show files served by this host', async () => {
    const image = await uploadFile(api.app, me.key, pngBytes(4, 4), 'photo.png');
    const pdf = await uploadFile(api.app, me.key, pdfBytes('menu'), 'menu.pdf');
    const event = await createLink({
      name: 'Jazz',
      type: 'event',
      data: {
        description: 'Live jazz',
        location: 'Main hall',
        startDateTime: '2026-12-24T19:00',
        timezone: 'Europe/Paris',
        eventTitle: 'Jazz night',
      },
    });
    const ics = await redirect.get(`/${event.slug}/event.ics`);
    expect(ics.status).toBe(200);
    expect(ics.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(ics.headers.get('content-disposition')).toContain(`filename="Jazz night.ics"`);
    expect(await ics.text()).toMatch(/BEGIN:VCALENDAR[\s\S]*Jazz night/);
    const gallery = await createLink({ name: 'Photos', type: 'image', data: { files: [{ fileId: image.fileId }] } });
    const html = await (await redirect.get(`/${gallery.slug}`)).text();
    expect(html).toContain(`/files/${image.fileId}`);
    const served = await redirect.get(`/files/${image.fileId}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    const pdfLink = await createLink({ name: 'Menu', type: 'pdf', data: { files: [{ fileId: pdf.fileId }] } });
    expect(await (await redirect.get(`/${pdfLink.slug}`)).text()).toContain(`/files/${pdf.fileId}`);
  });

  it('a landing page is served without scripts, handlers or javascript: links', async () => {
    const link = await createLink({
      name: 'Landing',
      type: 'landing',
      data: {
        landingHTML:
          '<h1>Hello</h1><script>alert(1)</script><img src="data:image/png;base64,iVBORw0KGgo=" onerror="alert(2)"><a href="javascript:alert(3)">click</a><p onclick="x()">Menu</p>',
      },
    });
    const res = await redirect.get(`/${link.slug}`);
    const html = await res.text();
    expect(html).toContain('Hello');
    expect(html).toContain('Menu');
    expect(html).not.toMatch(/<script|onerror|onclick|javascript:/i);
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'none'|default-src 'none'/);
  });

  it('a menu link shows a placeholder page until the cafe feature serves it', async () => {
    const link = await createLink({ name: 'Menu', type: 'menu', data: {} });
    const res = await redirect.get(`/${link.slug}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/menu/i);
  });
});

/**
 * One IPv4 address per country, found in the DB-IP database the service ships with: the test
 * reads the database rather than assuming what it says about an address.
 */
