/**
 * The analytics GETs against real scans, recorded through the scans worker's own ingestion SQL:
 * every endpoint's exact shape and counts, bots in and out, limit 1 and past the cap, another
 * account's link, local-day edges and DST days in Europe/Berlin, and the 400s.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import type { ScanEvent } from '#domain/scans/types.js';
import { analyticsWindow, type Duration } from '#domain/analytics/window.js';
import { addKey, call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
/** Two links (Alpha, Beta) with known scans in the last 48 hours and one 3 days ago. */
let owner: TestAccount;
/** Another account with scans of its own link. */
let other: TestAccount;
/** Scans at local-day edges and DST days in Europe/Berlin. */
let berlin: TestAccount;
/** 1001 scans from 1001 cities. */
let wide: TestAccount;
/** Scans around local hour edges in Asia/Kolkata (UTC+5:30). */
let kolkata: TestAccount;
const slugs: Record<string, string> = {};
const now = Date.now();
const HOUR = 3_600_000;
/** The instants of the owner's human scans, for the expected day and hour buckets. */
const ownerHumanTimes: number[] = [];

async function makeLink(account: TestAccount, name: string): Promise<{ slug: string; id: string }> {
  const res = await call(api.app, account.key, 'POST', `${API_PREFIX}/links`, {
    name,
    type: 'website',
    data: { url: 'https://example.com/' },
  });
  expect(res.statusCode).toBe(200);
  const slug = res.json().id as string;
  const { rows } = await api.ctx.database.pool.query<{ id: string }>('select id from links where slug = $1', [slug]);
  return { slug, id: rows[0]!.id };
}

type Who = Partial<Omit<ScanEvent, 'id' | 'linkId' | 'accountId' | 'at'>>;
const CHROME: Who = {
  browserName: 'Chrome',
  osName: 'Android',
  countryName: 'Germany',
  region: 'Berlin',
  city: 'Berlin',
  deviceType: 'mobile',
};
const SAFARI: Who = {
  browserName: 'Mobile Safari',
  osName: 'iOS',
  countryName: 'France',
  region: 'Île-de-France',
  city: 'Paris',
  deviceType: 'mobile',
};
const FIREFOX: Who = {
  browserName: 'Firefox',
  osName: 'Windows',
  countryName: 'Germany',
  region: 'Bavaria',
  city: 'Munich',
  deviceType: 'desktop',
};
const NOTHING: Who = {};
const BOT: Who = { browserName: 'Googlebot', countryName: 'United States', isBot: true };

function scan(account: TestAccount, linkId: string, at: number, who: Who): ScanEvent {
  return {
    id: randomUUID(),
    linkId,
    accountId: account.accountId,
    at,
    browserName: null,
    deviceType: null,
    deviceVendor: null,
    osName: null,
    countryName: null,
    region: null,
    city: null,
    isBot: false,
    ...who,
  };
}

async function ingest(scans: ScanEvent[]) {
  const result = await ingestScanBatches(api.ctx.database.pool, [encodeScanBatch(scans)]);
  expect(result.inserted).toBe(scans.length);
}

/** The instant of a wall-clock time in Europe/Berlin, found by trying its two offsets (independent of the code under test). */
function berlinInstant(date: string, time: string): number {
  for (const offsetHours of [1, 2]) {
    const instant = Date.parse(`${date}T${time}Z`) - offsetHours * HOUR;
    if (berlinWall(instant) === `${date} ${time}`) return instant;
  }
  throw new Error(`no Berlin instant for ${date} ${time}`);
}

function berlinWall(instant: number): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin', dateStyle: 'short', timeStyle: 'medium' }).format(instant);
}

const berlinDate = (instant: number) => berlinWall(instant).slice(0, 10);
const shiftDate = (date: string, days: number) => new Date(Date.parse(`${date}T12:00:00Z`) + days * 24 * HOUR).toISOString().slice(0, 10);

beforeAll(async () => {
  api = await startTestApi();
  owner = await createTestAccount(api.ctx);
  other = await createTestAccount(api.ctx);
  berlin = await createTestAccount(api.ctx);
  wide = await createTestAccount(api.ctx);
  kolkata = await createTestAccount(api.ctx);
  const alpha = await makeLink(owner, 'Alpha');
  const beta = await makeLink(owner, 'Beta');
  const theirs = await makeLink(other, 'Theirs');
  const edges = await makeLink(berlin, 'Edges');
  const cities = await makeLink(wide, 'Cities');
  const halves = await makeLink(kolkata, 'Halves');
  Object.assign(slugs, {
    alpha: alpha.slug,
    beta: beta.slug,
    theirs: theirs.slug,
    edges: edges.slug,
    cities: cities.slug,
    halves: halves.slug,
  });

  const recent = (i: number) => now - HOUR - i * 60_000;
  const ownerScans = [
    ...[0, 1, 2].map((i) => scan(owner, alpha.id, recent(i), CHROME)),
    ...[3, 4].map((i) => scan(owner, alpha.id, recent(i), SAFARI)),
    scan(owner, alpha.id, recent(5), NOTHING),
    ...[6, 7].map((i) => scan(owner, alpha.id, recent(i), BOT)),
    scan(owner, beta.id, recent(8), FIREFOX),
    // Inside 7_days, outside 48_hours.
    scan(owner, alpha.id, now - 72 * HOUR, CHROME),
  ];
  ownerHumanTimes.push(...ownerScans.filter((s) => !s.isBot).map((s) => s.at));
  await ingest(ownerScans);
  await ingest(
    [0, 1, 2, 3, 4].map((i) =>
      scan(other, theirs.id, recent(i), { browserName: 'Edge', osName: 'Windows', countryName: 'Japan', city: 'Tokyo' }),
    ),
  );

  // Berlin: the edges of today and yesterday, and two DST days of 2026 (spring forward on 29 March,
  // 23 hours; fall back on 25 October, 25 hours).
  const today = berlinDate(now);
  const yesterday = shiftDate(today, -1);
  await ingest([
    scan(berlin, edges.id, berlinInstant(today, '00:00:00'), CHROME),
    scan(berlin, edges.id, berlinInstant(today, '00:00:00') - 1000, CHROME), // yesterday 23:59:59
    scan(berlin, edges.id, berlinInstant(yesterday, '00:00:00'), CHROME),
    scan(berlin, edges.id, berlinInstant(yesterday, '00:00:00') - 1000, CHROME), // the day before
    scan(berlin, edges.id, Date.parse('2026-03-28T22:59:59Z'), CHROME), // Sat 28 March 23:59:59 CET
    scan(berlin, edges.id, Date.parse('2026-03-28T23:00:00Z'), CHROME), // Sun 29 March 00:00 CET
    scan(berlin, edges.id, Date.parse('2026-03-29T01:30:00Z'), CHROME), // 03:30 CEST
    scan(berlin, edges.id, Date.parse('2026-03-29T21:59:59Z'), CHROME), // 23:59:59 CEST
    scan(berlin, edges.id, Date.parse('2026-03-29T22:00:00Z'), CHROME), // Mon 30 March 00:00 CEST
    scan(berlin, edges.id, Date.parse('2026-10-24T21:59:59Z'), CHROME), // Sat 24 October 23:59:59 CEST
    scan(berlin, edges.id, Date.parse('2026-10-25T00:30:00Z'), CHROME), // 02:30 CEST
    scan(berlin, edges.id, Date.parse('2026-10-25T01:30:00Z'), CHROME), // 02:30 CET, the hour again
    scan(berlin, edges.id, Date.parse('2026-10-25T22:59:59Z'), CHROME), // 23:59:59 CET
    scan(berlin, edges.id, Date.parse('2026-10-25T23:00:00Z'), CHROME), // Mon 26 October 00:00 CET
  ]);
  // Kolkata, 15 January 2026: each pair either side of a local hour's start, which is a UTC half hour.
  await ingest(
    [
      '2026-01-14T18:29:59Z', // 14 January 23:59:59, the day before
      '2026-01-14T18:30:00Z', // 15 January 00:00
      '2026-01-15T05:29:59Z', // 10:59:59
      '2026-01-15T05:30:00Z', // 11:00
      '2026-01-15T05:59:59Z', // 11:29:59, same UTC hour as 11:00 and 10:59:59's neighbour
      '2026-01-15T18:29:59Z', // 23:59:59
      '2026-01-15T18:30:00Z', // 16 January 00:00, the day after
    ].map((t) => scan(kolkata, halves.id, Date.parse(t), CHROME)),
  );
  await ingest(Array.from({ length: 1001 }, (_, i) => scan(wide, cities.id, recent(0), { city: `City ${String(i).padStart(4, '0')}` })));
}, 120_000);
afterAll(() => api.close());

async function get(account: TestAccount, path: string) {
  const res = await call(api.app, account.key, 'GET', `${API_PREFIX}${path}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const row = (number: number, name: string, scans: number, percentage: string) => ({ number, name, scans, percentage });

describe('account-wide', () => {
  it("general: the account's links and its human scans of the last 48 hours; with bots on request", async () => {
    expect(await get(owner, '/analytics/general')).toMatchObject({ data: { numberOfLinks: 2, numberOfScans: 7 } });
    expect(await get(owner, '/analytics/general?exclude_bots=false')).toEqual({
      data: { numberOfLinks: 2, numberOfScans: 9, humanScans: 7, botScans: 2, uniqueVisitors: 0 },
    });
    expect((await get(owner, '/analytics/general')).data).toMatchObject({ humanScans: 7, botScans: 2 });
    expect(await get(owner, '/analytics/general?duration=7_days')).toMatchObject({ data: { numberOfLinks: 2, numberOfScans: 8 } });
  });

  it('browser, ops, country, region (by city) and qr-code (by link name): ranked, ties by name, Unknown for missing values', async () => {
    expect(await get(owner, '/analytics/browser')).toEqual({
      data: [
        row(1, 'Chrome', 3, '42.86'),
        row(2, 'Mobile Safari', 2, '28.57'),
        row(3, 'Firefox', 1, '14.29'),
        row(4, 'Unknown', 1, '14.29'),
      ],
    });
    expect(await get(owner, '/analytics/browser?exclude_bots=false')).toEqual({
      data: [
        row(1, 'Chrome', 3, '33.33'),
        row(2, 'Googlebot', 2, '22.22'),
        row(3, 'Mobile Safari', 2, '22.22'),
        row(4, 'Firefox', 1, '11.11'),
        row(5, 'Unknown', 1, '11.11'),
      ],
    });
    expect(await get(owner, '/analytics/ops')).toEqual({
      data: [row(1, 'Android', 3, '42.86'), row(2, 'iOS', 2, '28.57'), row(3, 'Unknown', 1, '14.29'), row(4, 'Windows', 1, '14.29')],
    });
    expect(await get(owner, '/analytics/country')).toEqual({
      data: [row(1, 'Germany', 4, '57.14'), row(2, 'France', 2, '28.57'), row(3, 'Unknown', 1, '14.29')],
    });
    expect(await get(owner, '/analytics/region')).toEqual({
      data: [row(1, 'Berlin', 3, '42.86'), row(2, 'Paris', 2, '28.57'), row(3, 'Munich', 1, '14.29'), row(4, 'Unknown', 1, '14.29')],
    });
    // qr-code's rows name the link's slug too, for its own analytics.
    const link = (slug: string) => ({ dynamicLinkId: slugs[slug] });
    expect(await get(owner, '/analytics/qr-code')).toEqual({
      data: [
        { ...row(1, 'Alpha', 6, '85.71'), ...link('alpha') },
        { ...row(2, 'Beta', 1, '14.29'), ...link('beta') },
      ],
    });
    expect(await get(owner, '/analytics/qr-code?exclude_bots=false&duration=7_days')).toEqual({
      data: [
        { ...row(1, 'Alpha', 9, '90.00'), ...link('alpha') },
        { ...row(2, 'Beta', 1, '10.00'), ...link('beta') },
      ],
    });
  });

  it('device: ranked by device type (mobile, tablet, desktop…), Unknown for bots and agents that name nothing', async () => {
    expect(await get(owner, '/analytics/device')).toEqual({
      data: [row(1, 'mobile', 5, '71.43'), row(2, 'Unknown', 1, '14.29'), row(3, 'desktop', 1, '14.29')],
    });
    expect(await get(owner, '/analytics/device?exclude_bots=false')).toEqual({
      data: [row(1, 'mobile', 5, '55.56'), row(2, 'Unknown', 3, '33.33'), row(3, 'desktop', 1, '11.11')],
    });
    expect(await get(owner, `/links/${slugs.beta}/analytics/device`)).toEqual({ data: [row(1, 'desktop', 1, '100.00')] });
    expect(await get(owner, `/links/${slugs.theirs}/analytics/device`)).toEqual({ data: [] });
  });

  it('limit 1 keeps the percentage of the whole range; a limit past 1000 is capped, not refused', async () => {
    expect(await get(owner, '/analytics/browser?limit=1')).toEqual({ data: [row(1, 'Chrome', 3, '42.86')] });
    const capped = (await get(wide, '/analytics/region?limit=5000')).data;
    expect(capped).toHaveLength(1000);
    expect(capped[0]).toEqual(row(1, 'City 0000', 1, '0.10'));
    expect(capped[999]).toEqual(row(1000, 'City 0999', 1, '0.10'));
    expect((await get(wide, '/analytics/region')).data).toHaveLength(20);
  });

  it('activity: every local day, month and year of the range with its count, zeros included', async () => {
    const { data } = await get(owner, '/analytics/activity?duration=7_days');
    const today = new Date(now).toISOString().slice(0, 10);
    const days = Array.from({ length: 7 }, (_, i) => shiftDate(today, i - 6));
    expect(data.Day.x).toEqual(days);
    expect(data.Day.y).toEqual(days.map((d) => ownerHumanTimes.filter((t) => new Date(t).toISOString().startsWith(d)).length));
    const months = [...new Set(days.map((d) => d.slice(0, 7)))];
    const monthName = (m: string) => new Date(`${m}-15T00:00:00Z`).toLocaleString('en-US', { month: 'long', timeZone: 'UTC' });
    expect(data.Month).toEqual({
      x: months.map(monthName),
      y: months.map((m) => ownerHumanTimes.filter((t) => new Date(t).toISOString().startsWith(m)).length),
    });
    const years = [...new Set(days.map((d) => Number(d.slice(0, 4))))];
    expect(data.Year).toEqual({ x: years, y: years.map((y) => ownerHumanTimes.filter((t) => new Date(t).getUTCFullYear() === y).length) });
  });

  it('activity: every local hour of a range of up to 7 days, zeros included; none for longer ranges', async () => {
    const hourOf = (t: number) => `${new Date(t).toISOString().slice(0, 13)}:00`;
    const today = new Date(now).toISOString().slice(0, 10);
    for (const [duration, firstDay] of [
      ['7_days', shiftDate(today, -6)],
      ['today', today],
    ] as const) {
      const { Hour } = (await get(owner, `/analytics/activity?duration=${duration}`)).data;
      const first = Date.parse(`${firstDay}T00:00:00Z`);
      const hours = Math.floor((Date.now() - first) / HOUR) + 1;
      expect(Hour.x).toEqual(Array.from({ length: hours }, (_, i) => hourOf(first + i * HOUR)));
      expect(Hour.y).toEqual(Hour.x.map((h: string) => ownerHumanTimes.filter((t) => t >= first && hourOf(t) === h).length));
    }
    const hours48 = (await get(owner, '/analytics/activity')).data.Hour;
    expect(hours48.x).toHaveLength(49);
    expect(hours48.y.reduce((a: number, b: number) => a + b, 0)).toBe(7);
    expect((await get(owner, '/analytics/activity?duration=custom&date_from=2026-01-01&date_to=2026-01-07')).data.Hour.x).toHaveLength(
      7 * 24,
    );
    for (const query of ['duration=30_days', 'duration=custom&date_from=2026-01-01&date_to=2026-01-08']) {
      expect((await get(owner, `/analytics/activity?${query}`)).data).not.toHaveProperty('Hour');
    }
  });

  it('time: all 168 weekday-hour keys in order, the scans in their UTC hours', async () => {
    const { data } = await get(owner, '/analytics/time?duration=7_days');
    const days = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
    expect(Object.keys(data)).toEqual(days.flatMap((d) => Array.from({ length: 24 }, (_, h) => `${d}-${h}`)));
    const expected: Record<string, number> = Object.fromEntries(Object.keys(data).map((k) => [k, 0]));
    for (const t of ownerHumanTimes) expected[`${days[(new Date(t).getUTCDay() + 6) % 7]}-${new Date(t).getUTCHours()}`]! += 1;
    expect(data).toEqual(expected);
  });

  it('any valid key may read, whatever its scopes; no key is a 401', async () => {
    const narrow = await addKey(api.ctx, owner.accountId, ['folders.read']);
    expect((await call(api.app, narrow.key, 'GET', `${API_PREFIX}/analytics/general`)).json()).toMatchObject({
      data: { numberOfLinks: 2, numberOfScans: 7 },
    });
    expect((await call(api.app, null, 'GET', `${API_PREFIX}/analytics/general`)).statusCode).toBe(401);
  });
});

describe('per link', () => {
  it("counts only that link's scans", async () => {
    expect(await get(owner, `/links/${slugs.alpha}/analytics/general`)).toMatchObject({ data: { numberOfLinks: 1, numberOfScans: 6 } });
    expect(await get(owner, `/links/${slugs.alpha}/analytics/general?exclude_bots=false`)).toMatchObject({
      data: { numberOfLinks: 1, numberOfScans: 8 },
    });
    expect(await get(owner, `/links/${slugs.beta}/analytics/browser`)).toEqual({ data: [row(1, 'Firefox', 1, '100.00')] });
    expect(await get(owner, `/links/${slugs.alpha}/analytics/country?exclude_bots=false`)).toEqual({
      data: [
        row(1, 'Germany', 3, '37.50'),
        row(2, 'France', 2, '25.00'),
        row(3, 'United States', 2, '25.00'),
        row(4, 'Unknown', 1, '12.50'),
      ],
    });
    expect(await get(owner, `/links/${slugs.alpha}/analytics/ops?limit=1`)).toEqual({ data: [row(1, 'Android', 3, '50.00')] });
    expect(await get(owner, `/links/${slugs.alpha}/analytics/region`)).toEqual({
      data: [row(1, 'Berlin', 3, '50.00'), row(2, 'Paris', 2, '33.33'), row(3, 'Unknown', 1, '16.67')],
    });
    const time = (await get(owner, `/links/${slugs.beta}/analytics/time`)).data;
    expect(Object.values(time).reduce((a: number, b) => a + (b as number), 0)).toBe(1);
    const activity = (await get(owner, `/links/${slugs.alpha}/analytics/activity?duration=today&exclude_bots=false`)).data;
    expect(activity.Day.x).toEqual([new Date(now).toISOString().slice(0, 10)]);
  });

  it("another account's link and an unknown id answer 200 with empty data, never their numbers", async () => {
    for (const id of [slugs.theirs!, 'no-such-link', 'x'.repeat(90)]) {
      expect(await get(owner, `/links/${id}/analytics/general`)).toMatchObject({ data: { numberOfLinks: 0, numberOfScans: 0 } });
      for (const dimension of ['browser', 'ops', 'country', 'region'])
        expect(await get(owner, `/links/${id}/analytics/${dimension}`)).toEqual({ data: [] });
      const activity = (await get(owner, `/links/${id}/analytics/activity`)).data;
      expect([...activity.Day.y, ...activity.Month.y, ...activity.Year.y].every((n: number) => n === 0)).toBe(true);
      expect(activity.Day.x.length).toBeGreaterThanOrEqual(2);
      const time = (await get(owner, `/links/${id}/analytics/time`)).data;
      expect(Object.keys(time)).toHaveLength(168);
      expect(Object.values(time).every((n) => n === 0)).toBe(true);
    }
    // The owner of that link does see them.
    expect(await get(other, `/links/${slugs.theirs}/analytics/general`)).toMatchObject({ data: { numberOfLinks: 1, numberOfScans: 5 } });
    // qr-code is account-wide only.
    expect((await call(api.app, owner.key, 'GET', `${API_PREFIX}/links/${slugs.alpha}/analytics/qr-code`)).statusCode).toBe(404);
  });
});

describe('time zones', () => {
  it('today and yesterday are local days in Europe/Berlin: 00:00:00 starts one, 23:59:59 ends the one before', async (ctx) => {
    // The edge scans were placed around the Berlin day of `now`; a run that crossed Berlin
    // midnight since then has another "today", and the edges no longer test what they should.
    if (berlinDate(Date.now()) !== berlinDate(now)) ctx.skip();
    const today = berlinDate(now);
    const yesterday = shiftDate(today, -1);
    const q = (duration: string) => `/links/${slugs.edges}/analytics/activity?duration=${duration}&timezone=Europe/Berlin`;
    expect((await get(berlin, q('today'))).data.Day).toEqual({ x: [today], y: [1] });
    expect((await get(berlin, q('yesterday'))).data.Day).toEqual({ x: [yesterday], y: [2] });
    const time = (await get(berlin, `/links/${slugs.edges}/analytics/time?duration=yesterday&timezone=Europe/Berlin`)).data;
    const weekday = new Date(`${yesterday}T12:00:00Z`).toLocaleString('en-US', { weekday: 'short', timeZone: 'UTC' });
    expect(Object.entries(time).filter(([, n]) => n !== 0)).toEqual([
      [`${weekday}-0`, 1],
      [`${weekday}-23`, 1],
    ]);
  });

  it('a spring-forward day has 23 hours and a fall-back day 25, each counted once per local hour', async () => {
    const q = (endpoint: string, from: string, to: string) =>
      `/links/${slugs.edges}/analytics/${endpoint}?duration=custom&date_from=${from}&date_to=${to}&timezone=Europe/Berlin`;
    expect((await get(berlin, q('general', '2026-03-29', '2026-03-29'))).data.numberOfScans).toBe(3);
    expect((await get(berlin, q('activity', '2026-03-28', '2026-03-30'))).data.Day).toEqual({
      x: ['2026-03-28', '2026-03-29', '2026-03-30'],
      y: [1, 3, 1],
    });
    const spring = (await get(berlin, q('time', '2026-03-29', '2026-03-29'))).data;
    expect(Object.entries(spring).filter(([, n]) => n !== 0)).toEqual([
      ['Sun-0', 1],
      ['Sun-3', 1],
      ['Sun-23', 1],
    ]);
    expect((await get(berlin, q('general', '2026-10-25', '2026-10-25'))).data.numberOfScans).toBe(3);
    const autumn = (await get(berlin, q('time', '2026-10-25', '2026-10-25'))).data;
    expect(Object.entries(autumn).filter(([, n]) => n !== 0)).toEqual([
      ['Sun-2', 2],
      ['Sun-23', 1],
    ]);
    // The same scans read in UTC fall on other days.
    const utc = (await get(berlin, `/links/${slugs.edges}/analytics/activity?duration=custom&date_from=2026-03-28&date_to=2026-03-30`)).data
      .Day;
    expect(utc).toEqual({ x: ['2026-03-28', '2026-03-29', '2026-03-30'], y: [2, 3, 0] });
    const year = (await get(berlin, `/analytics/activity?duration=custom&date_from=2026-03-01&date_to=2026-10-31&timezone=Europe/Berlin`))
      .data;
    expect(year.Month.x).toEqual(['March', 'April', 'May', 'June', 'July', 'August', 'September', 'October']);
    expect(year.Month.y).toEqual([5, 0, 0, 0, 0, 0, 0, 5]);
    expect(year.Year).toEqual({ x: [2026], y: [10] });
  });

  it('hours are local wall-clock hours: 23 on a spring-forward day, 24 on a fall-back day whose repeated hour holds both', async () => {
    const hours = async (date: string) => {
      const { Hour } = (
        await get(
          berlin,
          `/links/${slugs.edges}/analytics/activity?duration=custom&date_from=${date}&date_to=${date}&timezone=Europe/Berlin`,
        )
      ).data;
      return {
        labels: Hour.x as string[],
        scans: Object.fromEntries(Hour.x.map((h: string, i: number) => [h, Hour.y[i]]).filter(([, n]: [string, number]) => n > 0)),
      };
    };
    const spring = await hours('2026-03-29');
    expect(spring.labels).toHaveLength(23);
    expect(spring.labels).not.toContain('2026-03-29T02:00');
    expect(spring.scans).toEqual({ '2026-03-29T00:00': 1, '2026-03-29T03:00': 1, '2026-03-29T23:00': 1 });
    const autumn = await hours('2026-10-25');
    expect(autumn.labels).toEqual(Array.from({ length: 24 }, (_, h) => `2026-10-25T${String(h).padStart(2, '0')}:00`));
    expect(autumn.scans).toEqual({ '2026-10-25T02:00': 2, '2026-10-25T23:00': 1 });
  });

  it('hours are exact in a half-hour zone (Asia/Kolkata): a local hour is the second half of one UTC hour and the first of the next', async () => {
    const q = (path: string, from: string, to: string) =>
      `${path}/analytics/activity?duration=custom&date_from=${from}&date_to=${to}&timezone=Asia/Kolkata`;
    for (const path of ['', `/links/${slugs.halves}`]) {
      const { Day, Hour } = (await get(kolkata, q(path, '2026-01-15', '2026-01-15'))).data;
      expect(Day).toEqual({ x: ['2026-01-15'], y: [5] });
      expect(Hour.x).toEqual(Array.from({ length: 24 }, (_, h) => `2026-01-15T${String(h).padStart(2, '0')}:00`));
      expect(Object.fromEntries(Hour.x.map((h: string, i: number) => [h, Hour.y[i]]).filter(([, n]: [string, number]) => n > 0))).toEqual({
        '2026-01-15T00:00': 1,
        '2026-01-15T10:00': 1,
        '2026-01-15T11:00': 2,
        '2026-01-15T23:00': 1,
      });
      const three = (await get(kolkata, q(path, '2026-01-14', '2026-01-16'))).data.Hour;
      expect(three.x).toHaveLength(72);
      expect(three.y.reduce((a: number, b: number) => a + b, 0)).toBe(7);
      expect(three.y[23]).toBe(1); // 14 January 23:00
      expect(three.y[48]).toBe(1); // 16 January 00:00
    }
  });
});

describe('what each duration covers', () => {
  // Monday 30 March 2026, 12:00 in Berlin (CEST since the day before, when the clocks went forward).
  const at = new Date('2026-03-30T10:00:00Z');
  const windowOf = (duration: Duration, timezone = 'Europe/Berlin', dates: { date_from?: string; date_to?: string } = {}) => {
    const w = analyticsWindow({ duration, timezone, ...dates }, at);
    return [w.from.toISOString(), w.to.toISOString()];
  };
  it.each<[Duration, string]>([
    ['today', '2026-03-29T22:00:00.000Z'], // 00:00 CEST
    ['48_hours', '2026-03-28T10:00:00.000Z'],
    ['7_days', '2026-03-23T23:00:00.000Z'], // Tue 24 March 00:00 CET
    ['30_days', '2026-02-28T23:00:00.000Z'], // 1 March 00:00 CET
    ['3_months', '2025-12-30T23:00:00.000Z'], // 31 December 00:00 CET: 90 local days
    ['1_year', '2025-03-30T22:00:00.000Z'], // 31 March 2025 00:00 CEST: 365 local days
  ])('%s runs from %s to now', (duration, from) => {
    expect(windowOf(duration)).toEqual([from, at.toISOString()]);
  });
  it('yesterday is the whole local day before (23 hours on this one); custom is whole local days, defaulting to this month', () => {
    expect(windowOf('yesterday')).toEqual(['2026-03-28T23:00:00.000Z', '2026-03-29T22:00:00.000Z']);
    expect(windowOf('custom')).toEqual(['2026-02-28T23:00:00.000Z', '2026-03-30T22:00:00.000Z']);
    expect(windowOf('custom', 'Europe/Berlin', { date_from: '2026-03-29', date_to: '2026-03-29' })).toEqual([
      '2026-03-28T23:00:00.000Z',
      '2026-03-29T22:00:00.000Z',
    ]);
    expect(windowOf('today', 'UTC')).toEqual(['2026-03-30T00:00:00.000Z', at.toISOString()]);
    expect(windowOf('today', 'Asia/Kolkata')).toEqual(['2026-03-29T18:30:00.000Z', at.toISOString()]);
  });
});

describe('edges of the calendar', () => {
  it('custom ranges at year 0 and year 9999 answer empty data, not an error', async () => {
    for (const [from, to] of [
      ['0000-01-01', '0000-01-02'],
      // Date.UTC reads years 0–99 as 1900–1999: a range across year 100 must still be two days.
      ['0099-12-31', '0100-01-01'],
      ['9999-12-30', '9999-12-31'],
    ]) {
      const q = `duration=custom&date_from=${from}&date_to=${to}&timezone=Pacific/Kiritimati`;
      expect(await get(owner, `/analytics/general?${q}`)).toMatchObject({ data: { numberOfLinks: 2, numberOfScans: 0 } });
      expect((await get(owner, `/analytics/activity?${q}`)).data.Day).toEqual({ x: [from, to], y: [0, 0] });
      expect(await get(owner, `/analytics/qr-code?${q}`)).toEqual({ data: [] });
    }
  });
});

describe('bad queries', () => {
  const cases: Array<[string, string]> = [
    ['duration=forever', 'duration'],
    ['duration=custom&date_from=2026-02-30', 'date_from'],
    ['duration=custom&date_to=26-1-1', 'date_to'],
    ['duration=custom&date_from=2026-03-02&date_to=2026-03-01', 'date_to'],
    ['duration=custom&date_from=1900-01-01&date_to=2026-01-01', 'date_from'],
    ['timezone=Mars/Olympus', 'timezone'],
    ['timezone=%2B05:30', 'timezone'],
    ['limit=0', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['exclude_bots=maybe', 'exclude_bots'],
    ['colour=blue', ''],
  ];
  it.each(cases)('%s is a 400 naming the field', async (query, field) => {
    for (const path of ['/analytics/browser', `/links/${slugs.alpha}/analytics/general`]) {
      const res = await call(api.app, owner.key, 'GET', `${API_PREFIX}${path}?${query}`);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json();
      expect(body.message).toBe('Validation failed');
      if (field) expect(body.errors.map((e: { path: string }) => e.path)).toContain(field);
    }
  });

  it('a link id no link can hold is a 400 naming it', async () => {
    const res = await call(api.app, owner.key, 'GET', `${API_PREFIX}/links/a%00b/analytics/general`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors[0].path).toBe('id');
  });
});
