/**
 * The rollups against the raw rows they stand for: after random ingestion (random times over ten
 * days, links of two accounts, bots, missing facts, visitor keys, batches retried and overlapping,
 * a link deleted), every analytics endpoint's answer equals the same count taken over the raw
 * `scans` rows, for random windows in random time zones. Unique visitors are checked against the
 * visitors the test itself made, on whole UTC days.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
import { RANKED_DIMENSIONS, planWindow } from '#domain/analytics/analytics.js';
import { UNKNOWN_NAME } from '#domain/analytics/schemas.js';
import { analyticsWindow } from '#domain/analytics/window.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import type { ScanEvent, ScanOrigin } from '#domain/scans/types.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.now();
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Asia/Kathmandu', 'Pacific/Chatham'];
/** Zones whose offset is a whole hour: there activity and time are exact per local hour too. */
const WHOLE_HOUR_ZONES = new Set(['UTC', 'Europe/Berlin', 'America/New_York']);
/** Placement ids as scans carry them (no such rows: the rollups never look them up). */
const PLACEMENTS = ['7b0a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d', '8c1b2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e'];
const BROWSERS = ['Chrome', 'Mobile Safari', 'Firefox', '', null];
const OSES = ['Android', 'iOS', 'Windows', null];
const DEVICES = ['mobile', 'tablet', 'desktop', null];
const PLACES: Array<[string | null, string | null]> = [
  ['Germany', 'Berlin'],
  ['Germany', 'Munich'],
  ['India', 'Mumbai'],
  ['Japan', 'Tokyo'],
  [null, null],
];

let api: TestApi;
let owner: TestAccount;
let other: TestAccount;
const ownerLinks: Array<{ slug: string; id: string }> = [];
let otherLink: { slug: string; id: string };
/** Every scan ingested so far, with its visitor key, for the expected unique visitors. */
const made: Array<ScanEvent & { visitorKey: string | null }> = [];
const deletedLinks = new Set<string>();

async function makeLink(account: TestAccount, name: string) {
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

beforeAll(async () => {
  api = await startTestApi();
  owner = await createTestAccount(api.ctx);
  other = await createTestAccount(api.ctx);
  for (let i = 0; i < 5; i++) ownerLinks.push(await makeLink(owner, `Link ${i % 3}`));
  otherLink = await makeLink(other, 'Theirs');
}, 60_000);
afterAll(() => api.close());

const scanArb = fc.record({
  link: fc.nat(99),
  // Ten days back to now, at millisecond precision, with many on hour and day edges.
  at: fc.oneof(
    fc.integer({ min: now - 10 * DAY, max: now }),
    fc.integer({ min: -240, max: 0 }).map((h) => Math.floor(now / HOUR) * HOUR + h * HOUR + (h % 2 === 0 ? 0 : -1)),
    // Never after now (the current hour's :30 is still ahead before half past): no scan is later than now.
    fc.integer({ min: -240, max: 0 }).map((h) => Math.min(now, Math.floor(now / HOUR) * HOUR + h * HOUR + 30 * 60_000)),
  ),
  browser: fc.constantFrom(...BROWSERS),
  os: fc.constantFrom(...OSES),
  device: fc.constantFrom(...DEVICES),
  place: fc.constantFrom(...PLACES),
  // A visitor is its key; whether it is a bot follows from it, as isbot follows the user agent.
  visitor: fc.option(fc.nat(30), { nil: null }),
  origin: fc.record({
    source: fc.constantFrom('qr', 'link', null),
    placementId: fc.constantFrom(null, ...PLACEMENTS),
    referrerHost: fc.constantFrom(null, 'news.example', 'chat.example'),
    utmCampaign: fc.constantFrom(null, 'spring', 'autumn'),
  }),
});

function toEvent(s: {
  link: number;
  at: number;
  browser: string | null;
  os: string | null;
  device: string | null;
  place: [string | null, string | null];
  visitor: number | null;
  origin: ScanOrigin;
}) {
  const pick = s.link % (ownerLinks.length + 1);
  const target = pick < ownerLinks.length ? ownerLinks[pick]! : otherLink;
  const account = target === otherLink ? other : owner;
  return {
    id: randomUUID(),
    linkId: target.id,
    accountId: account.accountId,
    at: s.at,
    browserName: s.browser,
    deviceType: s.device,
    deviceVendor: null,
    osName: s.os,
    countryName: s.place[0],
    region: null,
    city: s.place[1],
    isBot: s.visitor !== null && s.visitor % 7 === 0,
    visitorKey: s.visitor === null ? null : `visitor-${s.visitor}`,
    origin: s.origin,
  };
}

const windowArb = fc.record({
  timezone: fc.constantFrom(...ZONES),
  preset: fc.constantFrom('today', 'yesterday', '48_hours', '7_days', 'custom'),
  fromBack: fc.nat(11),
  length: fc.nat(4),
  excludeBots: fc.boolean(),
});

function queryOf(w: WindowCase) {
  const date = (ms: number) => new Intl.DateTimeFormat('sv-SE', { timeZone: w.timezone, dateStyle: 'short' }).format(ms);
  const custom =
    w.preset === 'custom'
      ? `&date_from=${date(now - w.fromBack * DAY)}&date_to=${date(now - Math.max(0, w.fromBack - w.length) * DAY)}`
      : '';
  return `duration=${w.preset}${custom}&timezone=${encodeURIComponent(w.timezone)}&exclude_bots=${w.excludeBots}&limit=1000`;
}

async function get(path: string) {
  const res = await call(api.app, owner.key, 'GET', `${API_PREFIX}${path}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The [from, to) the api computes for a query, by the function the routes use (the raw side needs instants). */
async function rawWindow(query: string, timezone: string): Promise<[string, string]> {
  const params = new URLSearchParams(query);
  const w = analyticsWindow({
    duration: params.get('duration') as never,
    date_from: params.get('date_from') ?? undefined,
    date_to: params.get('date_to') ?? undefined,
    timezone,
  });
  return [w.from.toISOString(), w.to.toISOString()];
}

async function raw<T extends Record<string, unknown>>(text: string, values: unknown[]): Promise<T[]> {
  return (await api.ctx.database.pool.query<T>(text, values)).rows;
}

/** The origin endpoints and their raw counterparts (placements here have no rows: a placement row is named by its id). */
const ORIGIN_COLUMNS = {
  source: "coalesce(s.source, 'unknown')",
  placement: "coalesce(s.placement_id::text, '(none)')",
  referrer: "coalesce(s.referrer_host, '(direct)')",
  campaign: "coalesce(s.utm_campaign, '(none)')",
};

describe('rollups equal the raw rows', () => {
  it('after random ingestion and retried batches, every endpoint per link and account-wide', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(scanArb, { minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 4 }),
        fc.array(windowArb, { minLength: 3, maxLength: 3 }),
        async (batches, windows) => {
          for (const batch of batches) {
            const events = batch.map(toEvent);
            const payload = encodeScanBatch(events);
            await ingestScanBatches(api.ctx.database.pool, [payload]);
            // A retried batch and one overlapping it count nothing twice.
            await ingestScanBatches(api.ctx.database.pool, [payload, encodeScanBatch(events.slice(0, 3))]);
            made.push(...events);
          }
          for (const w of windows) await compareStable(w);
        },
      ),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 12), seed: SEED },
    );
  }, 240_000);
});

type WindowCase = { timezone: string; preset: string; fromBack: number; length: number; excludeBots: boolean };

/** compare, again if the window moved while it ran (an hour or a day began): the api reads the clock per request. */
async function compareStable(w: WindowCase) {
  const before = (await rawWindow(queryOf(w), w.timezone)).join();
  try {
    await compare(w);
  } catch (err) {
    if ((await rawWindow(queryOf(w), w.timezone)).join() === before) throw err;
    await compare(w);
  }
}

async function compare(w: WindowCase) {
  const query = queryOf(w);
  const [from, to] = await rawWindow(query, w.timezone);
  const bots = w.excludeBots ? 'and not s.is_bot' : '';
  const scopes: Array<{ path: string; where: string; value: string }> = [
    { path: '/analytics', where: 's.account_id = $3', value: owner.accountId },
    ...ownerLinks.slice(0, 2).map((l) => ({ path: `/links/${l.slug}/analytics`, where: 's.link_id = $3', value: l.id })),
  ];
  for (const scope of scopes) {
    const params = [from, to, scope.value];
    const inWindow = `from scans s where ${scope.where} and s.created_at >= $1 and s.created_at < $2`;
    const split = await raw<{ is_bot: boolean; n: number }>(`select s.is_bot, count(*)::int as n ${inWindow} group by 1`, params);
    const human = split.find((r) => !r.is_bot)?.n ?? 0;
    const bot = split.find((r) => r.is_bot)?.n ?? 0;
    const general = (await get(`${scope.path}/general?${query}`)).data;
    expect({ ...general, uniqueVisitors: undefined, numberOfLinks: undefined }, `${scope.path} ${query}`).toEqual({
      numberOfLinks: undefined,
      uniqueVisitors: undefined,
      numberOfScans: human + (w.excludeBots ? 0 : bot),
      humanScans: human,
      botScans: bot,
    });

    for (const [endpoint, dimension] of Object.entries(RANKED_DIMENSIONS)) {
      const column = { os: 'os_name', country: 'country_name', city: 'city', browser: 'browser_name', device: 'device_type' }[dimension];
      const expected = await raw<{ name: string; scans: number }>(
        `select coalesce(nullif(s.${column}, ''), '${UNKNOWN_NAME}') collate "C" as name, count(*)::int as scans ${inWindow} ${bots}
         group by 1 order by 2 desc, 1`,
        params,
      );
      const answer = (await get(`${scope.path}/${endpoint}?${query}`)).data as Array<{ name: string; scans: number }>;
      expect(
        answer.map((r) => [r.name, r.scans]),
        `${scope.path}/${endpoint} ${query}`,
      ).toEqual(expected.map((r) => [r.name, r.scans]));
    }
    // Where scans came from: a link's rows of these are its own hour and day rows, not link_scan_hours.
    for (const [endpoint, column] of Object.entries(ORIGIN_COLUMNS)) {
      const expected = await raw<{ name: string; scans: number }>(
        `select ${column} as name, count(*)::int as scans ${inWindow} ${bots} group by 1`,
        params,
      );
      const answer = (await get(`${scope.path}/${endpoint}?${query}`)).data as Array<{ name: string; scans: number }>;
      const sorted = (rows: Array<[string, number]>) => rows.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      expect(sorted(answer.map((r) => [r.name, r.scans])), `${scope.path}/${endpoint} ${query}`).toEqual(
        sorted(expected.map((r) => [r.name, r.scans])),
      );
    }
    if (scope.path === '/analytics') {
      const expected = await raw<{ name: string; scans: number }>(
        `select l.name, count(*)::int as scans ${inWindow.replace('from scans s', 'from scans s join links l on l.id = s.link_id')} ${bots}
         group by l.id, l.name, l.slug order by 2 desc, l.name collate "C", l.slug collate "C"`,
        params,
      );
      const answer = (await get(`/analytics/qr-code?${query}`)).data as Array<{ name: string; scans: number }>;
      expect(
        answer.map((r) => [r.name, r.scans]),
        `qr-code ${query}`,
      ).toEqual(expected.map((r) => [r.name, r.scans]));
    }

    const activity = (await get(`${scope.path}/activity?${query}`)).data;
    const time = (await get(`${scope.path}/time?${query}`)).data as Record<string, number>;
    const total = human + (w.excludeBots ? 0 : bot);
    expect(
      activity.Day.y.reduce((a: number, b: number) => a + b, 0),
      `activity ${query}`,
    ).toBe(total);
    expect(
      Object.values(time).reduce((a, b) => a + b, 0),
      `time ${query}`,
    ).toBe(total);
    // Hours are exact in every zone, :30 and :45 ones too.
    expect('Hour' in activity, `activity hours ${query}`).toBe(activity.Day.x.length <= 7);
    if (activity.Hour) {
      const hours = await raw<{ hour: string; n: number }>(
        `select to_char(s.created_at at time zone $4, 'YYYY-MM-DD"T"HH24":00"') as hour, count(*)::int as n ${inWindow} ${bots} group by 1`,
        [...params, w.timezone],
      );
      const perHour = Object.fromEntries(
        activity.Hour.x.map((h: string, i: number) => [h, activity.Hour.y[i]]).filter(([, n]: [string, number]) => n > 0),
      );
      expect(perHour, `activity hours ${query}`).toEqual(Object.fromEntries(hours.map((r) => [r.hour, r.n])));
      expect(new Set(activity.Hour.x).size, `activity hour labels ${query}`).toBe(activity.Hour.x.length);
    }
    if (WHOLE_HOUR_ZONES.has(w.timezone)) {
      const days = await raw<{ day: string; n: number }>(
        `select to_char(s.created_at at time zone $4, 'YYYY-MM-DD') as day, count(*)::int as n ${inWindow} ${bots} group by 1`,
        [...params, w.timezone],
      );
      const perDay = Object.fromEntries(
        activity.Day.x.map((d: string, i: number) => [d, activity.Day.y[i]]).filter(([, n]: [string, number]) => n > 0),
      );
      expect(perDay, `activity days ${query}`).toEqual(Object.fromEntries(days.map((r) => [r.day, r.n])));
      const hours = await raw<{ key: string; n: number }>(
        `select (array['Mon','Tue','Wed','Thu','Fri','Sat','Sun'])[extract(isodow from s.created_at at time zone $4)::int] || '-' ||
           extract(hour from s.created_at at time zone $4)::int as key, count(*)::int as n ${inWindow} ${bots} group by 1`,
        [...params, w.timezone],
      );
      expect(Object.fromEntries(Object.entries(time).filter(([, n]) => n > 0)), `time keys ${query}`).toEqual(
        Object.fromEntries(hours.map((r) => [r.key, r.n])),
      );
    }
  }
}

describe('unique visitors', () => {
  it('count each visitor once per UTC day it scanned, per link and account-wide, whatever the batches', async () => {
    // Whole UTC days of the scans made above (the property test ran first in this file).
    const first = new Date(now - 9 * DAY).toISOString().slice(0, 10);
    const last = new Date(now).toISOString().slice(0, 10);
    const query = `duration=custom&date_from=${first}&date_to=${last}&timezone=UTC`;
    const from = Date.parse(`${first}T00:00:00Z`);
    const live = made.filter((s) => !deletedLinks.has(s.linkId) && s.at >= from && s.accountId === owner.accountId);
    const expected = (scans: typeof live, excludeBots: boolean) => {
      // A visitor's day counts where its first scan of the day on the scope was human (bots with exclude_bots=false).
      const firstOfDay = new Map<string, (typeof live)[number]>();
      for (const s of scans) {
        if (s.visitorKey === null) continue;
        const key = `${s.visitorKey}|${new Date(s.at).toISOString().slice(0, 10)}`;
        if (!firstOfDay.has(key)) firstOfDay.set(key, s);
      }
      return [...firstOfDay.values()].filter((s) => !excludeBots || !s.isBot).length;
    };
    for (const excludeBots of [true, false]) {
      const q = `${query}&exclude_bots=${excludeBots}`;
      expect((await get(`/analytics/general?${q}`)).data.uniqueVisitors).toBe(expected(live, excludeBots));
      for (const link of ownerLinks.slice(0, 2)) {
        expect((await get(`/links/${link.slug}/analytics/general?${q}`)).data.uniqueVisitors).toBe(
          expected(
            live.filter((s) => s.linkId === link.id),
            excludeBots,
          ),
        );
      }
    }
    expect(made.some((s) => s.visitorKey !== null)).toBe(true);
  });
});

describe('deleting a link', () => {
  it('takes its scans out of the account-wide answers, as out of the raw rows', async () => {
    const gone = ownerLinks.pop()!;
    expect((await call(api.app, owner.key, 'DELETE', `${API_PREFIX}/links/${gone.slug}`)).statusCode).toBe(200);
    deletedLinks.add(gone.id);
    const { rows } = await api.ctx.database.pool.query('select count(*)::int as n from link_scan_hours where link_id = $1', [gone.id]);
    expect(rows[0].n).toBe(0);
    for (const timezone of ['UTC', 'Europe/Berlin', 'Asia/Kolkata'])
      for (const excludeBots of [true, false]) await compareStable({ timezone, preset: 'custom', fromBack: 11, length: 11, excludeBots });
  }, 60_000);
});

describe('planWindow', () => {
  it('reads whole hours from rollups and only the partial hours at the edges from raw scans', () => {
    const t = Date.parse('2026-03-30T10:20:00Z');
    // A whole-hour zone's local days: no raw read at all; the last hour of a window ending now is whole.
    expect(planWindow({ from: new Date('2026-03-29T22:00:00Z'), to: new Date(t) }, t)).toEqual({
      hoursFrom: Date.parse('2026-03-29T22:00:00Z'),
      hoursTo: Date.parse('2026-03-30T11:00:00Z'),
      daysFrom: Date.parse('2026-03-30T00:00:00Z'),
      daysTo: Date.parse('2026-03-30T00:00:00Z'),
      raw: [],
    });
    // Asia/Kolkata's yesterday: half an hour of raw scans at each edge.
    const plan = planWindow({ from: new Date('2026-03-28T18:30:00Z'), to: new Date('2026-03-29T18:30:00Z') }, t);
    expect(plan.raw).toEqual([
      [Date.parse('2026-03-28T18:30:00Z'), Date.parse('2026-03-28T19:00:00Z')],
      [Date.parse('2026-03-29T18:00:00Z'), Date.parse('2026-03-29T18:30:00Z')],
    ]);
    expect([plan.hoursFrom, plan.daysFrom, plan.daysTo, plan.hoursTo]).toEqual(
      ['2026-03-28T19:00:00Z', '2026-03-29T00:00:00Z', '2026-03-29T00:00:00Z', '2026-03-29T18:00:00Z'].map(Date.parse),
    );
  });
});

describe('visitor keys of past days', () => {
  it("are pruned after two days; today's and yesterday's stay", async () => {
    const { pruneVisitorDays } = await import('#domain/analytics/rollups.js');
    const scope = randomUUID();
    const day = (back: number) => new Date(now - back * DAY).toISOString().slice(0, 10);
    for (const back of [0, 1, 2, 3, 30])
      await api.ctx.database.pool.query('insert into scan_visitor_days (scope_id, day, visitor_key) values ($1, $2, $3)', [
        scope,
        day(back),
        `k${back}`,
      ]);
    await pruneVisitorDays(api.ctx.db, new Date(now));
    const { rows } = await api.ctx.database.pool.query<{ day: string }>(
      "select to_char(day, 'YYYY-MM-DD') as day from scan_visitor_days where scope_id = $1 order by day",
      [scope],
    );
    expect(rows.map((r) => r.day)).toEqual([day(2), day(1), day(0)]);
  });
});
