/**
 * A link's per-dimension day rows are written once their UTC day is closed (rollLinkDays; docs/decisions/0352-a-link-s-day-rows-once-the-day-is-closed.md):
 * the link's rankings equal the raw counts before the roll, after it and for a late scan of a
 * rolled day, and the rows the roll writes are the ones ingestion writes for a closed day.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
import { RANKED_DIMENSIONS } from '#domain/analytics/analytics.js';
import { UNKNOWN_NAME } from '#domain/analytics/schemas.js';
import { rollLinkDays } from '#domain/analytics/rollups.js';
import { analyticsWindow } from '#domain/analytics/window.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import type { ScanEvent } from '#domain/scans/types.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const BROWSERS = ['Chrome', 'Firefox', null];
const OSES = ['Android', 'iOS', null];
const DEVICES = ['mobile', 'desktop', null];
const PLACES: Array<[string | null, string | null]> = [
  ['Germany', 'Berlin'],
  ['India', 'Mumbai'],
  [null, null],
];
const COLUMNS = { os: 'os_name', country: 'country_name', city: 'city', browser: 'browser_name', device: 'device_type' } as const;

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
}, 60_000);
afterAll(() => api.close());

const pool = () => api.ctx.database.pool;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function makeLink(account: TestAccount) {
  const res = await call(api.app, account.key, 'POST', `${API_PREFIX}/links`, {
    name: 'L',
    type: 'website',
    data: { url: 'https://example.com/' },
  });
  expect(res.statusCode).toBe(200);
  const slug = res.json().id as string;
  const { rows } = await pool().query<{ id: string }>('select id from links where slug = $1', [slug]);
  return { slug, id: rows[0]!.id };
}

let seq = 0;
/** Scans of `link` at the given times, their facts cycling through the lists above. */
function scansAt(account: TestAccount, linkId: string, times: number[]): ScanEvent[] {
  return times.map((at) => {
    const i = seq++;
    const place = PLACES[i % PLACES.length]!;
    return {
      id: randomUUID(),
      linkId,
      accountId: account.accountId,
      at,
      browserName: BROWSERS[i % BROWSERS.length]!,
      deviceType: DEVICES[(i >> 1) % DEVICES.length]!,
      deviceVendor: null,
      osName: OSES[(i >> 2) % OSES.length]!,
      countryName: place[0],
      region: null,
      city: place[1],
      isBot: i % 5 === 0,
      visitorKey: `v${i % 7}`,
    };
  });
}

const ingest = (events: ScanEvent[]) => ingestScanBatches(pool(), [encodeScanBatch(events)]);

const linkDaysFrom = async (accountId: string) =>
  (await pool().query<{ d: string }>(`select link_days_from::text as d from accounts where id = $1`, [accountId])).rows[0]!.d;

/** Windows over the last days up to now, whole-hour and half-hour zones, today alone too. */
const QUERIES = [
  'duration=today&timezone=UTC&exclude_bots=false',
  'duration=7_days&timezone=UTC&exclude_bots=false',
  'duration=7_days&timezone=Asia%2FKolkata&exclude_bots=true',
  `duration=custom&date_from=${utcDay(Date.now() - 6 * DAY)}&date_to=${utcDay(Date.now())}&timezone=UTC&exclude_bots=false`,
  `duration=custom&date_from=${utcDay(Date.now() - 4 * DAY)}&date_to=${utcDay(Date.now() - DAY)}&timezone=Europe%2FBerlin`,
];

/** Every ranked answer and the total of a link, as the api gives them and as counted over the raw scans. */
async function answers(account: TestAccount, link: { slug: string; id: string }) {
  const got: Record<string, unknown> = {};
  const want: Record<string, unknown> = {};
  for (const query of QUERIES) {
    const params = new URLSearchParams(query);
    const w = analyticsWindow({
      duration: params.get('duration') as never,
      date_from: params.get('date_from') ?? undefined,
      date_to: params.get('date_to') ?? undefined,
      timezone: params.get('timezone')!,
    });
    // exclude_bots is true unless the query says false.
    const bots = params.get('exclude_bots') === 'false' ? '' : 'and not is_bot';
    for (const [endpoint, dimension] of Object.entries(RANKED_DIMENSIONS)) {
      const res = await call(api.app, account.key, 'GET', `${API_PREFIX}/links/${link.slug}/analytics/${endpoint}?${query}&limit=1000`);
      expect(res.statusCode, res.body).toBe(200);
      got[`${endpoint} ${query}`] = (res.json().data as Array<{ name: string; scans: number }>).map((r) => [r.name, r.scans]);
      const { rows } = await pool().query<{ name: string; scans: number }>(
        `select coalesce(nullif(${COLUMNS[dimension]}, ''), '${UNKNOWN_NAME}') collate "C" as name, count(*)::int as scans
         from scans where link_id = $1 and created_at >= $2 and created_at < $3 ${bots} group by 1 order by 2 desc, 1`,
        [link.id, w.from, w.to],
      );
      want[`${endpoint} ${query}`] = rows.map((r) => [r.name, r.scans]);
    }
  }
  return { got, want };
}

/** The link's per-dimension day rows as ingestion writes them for closed days: counted from the scans. */
async function expectedDayRows(linkId: string, before: string) {
  const parts = Object.values(COLUMNS).map(
    (
      column,
    ) => `select ${column === 'browser_name' ? 1 : column === 'os_name' ? 2 : column === 'country_name' ? 3 : column === 'city' ? 4 : 6} as dimension,
      date_trunc('day', created_at, 'UTC') as bucket, is_bot, coalesce(${column}, '') as value, count(*)::int as scans
      from scans where link_id = $1 and created_at < $2::date::timestamp at time zone 'UTC' group by 2, 3, 4`,
  );
  const { rows } = await pool().query(`select * from (${parts.join(' union all ')}) x order by 1, 2, 3, 4`, [linkId, before]);
  return rows;
}

/** The visitor facts' day rows (the origin dimensions, 7 and up, are written per hour and day at ingestion: decision 0429). */
async function dayRows(linkId: string) {
  const { rows } = await pool().query(
    `select dimension, bucket, is_bot, value, scans from scan_rollups
     where scope_id = $1 and grain = 'day' and dimension <> 0 and dimension < 7 order by 1, 2, 3, 4`,
    [linkId],
  );
  return rows;
}

describe("a link's per-dimension day rows", () => {
  it("are not written for today's scans, which are answered from the link's hours", async () => {
    const account = await createTestAccount(api.ctx);
    const link = await makeLink(account);
    const today = Date.parse(`${utcDay(Date.now())}T00:00:00Z`);
    expect(await linkDaysFrom(account.accountId)).toBe(utcDay(Date.now()));
    // Today's, and some of days before today (late ones: their days are closed for a new account).
    await ingest(
      scansAt(account, link.id, [
        ...Array.from({ length: 40 }, (_, i) => today + ((Date.now() - today) * i) / 40),
        today - DAY,
        today - 3 * DAY + 5,
      ]),
    );
    const { got, want } = await answers(account, link);
    expect(got).toEqual(want);
    expect(await dayRows(link.id)).toEqual(await expectedDayRows(link.id, utcDay(today)));
    expect((await dayRows(link.id)).every((r) => r.bucket.getTime() < today)).toBe(true);
  });

  it('are written by the roll for the closed days, the answers the same before and after; a late scan counts once; a second roll does nothing', async () => {
    const account = await createTestAccount(api.ctx);
    const link = await makeLink(account);
    const other = await makeLink(account);
    const todayStart = Date.parse(`${utcDay(Date.now())}T00:00:00Z`);
    // The account's days from five days ago are still open, as if the roll had not run for five days.
    await pool().query(`update accounts set link_days_from = $2::date where id = $1`, [account.accountId, utcDay(todayStart - 5 * DAY)]);
    const past = Array.from({ length: 120 }, (_, i) => todayStart - 7 * DAY + i * ((7 * DAY) / 120) + 1234);
    const now = Date.now();
    await ingest([...scansAt(account, link.id, [...past, now - 1000, now - 60_000]), ...scansAt(account, other.id, past.slice(0, 30))]);
    // Days before link_days_from were written by ingestion, later ones not.
    expect((await dayRows(link.id)).every((r) => r.bucket.getTime() < todayStart - 5 * DAY)).toBe(true);
    const before = await answers(account, link);
    expect(before.got).toEqual(before.want);

    const rolled = await rollLinkDays(api.ctx.db);
    expect(rolled.accounts).toBeGreaterThanOrEqual(1);
    expect(await linkDaysFrom(account.accountId)).toBe(utcDay(todayStart));
    expect(await dayRows(link.id)).toEqual(await expectedDayRows(link.id, utcDay(todayStart)));
    expect(await dayRows(other.id)).toEqual(await expectedDayRows(other.id, utcDay(todayStart)));
    const after = await answers(account, link);
    expect(after.got).toEqual(before.got);

    // A late scan of a rolled day is written to its day rows by ingestion, once.
    const [late] = scansAt(account, link.id, [todayStart - 2 * DAY + 7 * HOUR]);
    await ingest([late!]);
    await ingest([late!]);
    expect(await dayRows(link.id)).toEqual(await expectedDayRows(link.id, utcDay(todayStart)));
    const withLate = await answers(account, link);
    expect(withLate.got).toEqual(withLate.want);
    expect(withLate.got).not.toEqual(after.got);

    // Again: nothing left to roll for this account, nothing changes.
    const rows = await dayRows(link.id);
    await rollLinkDays(api.ctx.db);
    expect(await dayRows(link.id)).toEqual(rows);
    expect(await linkDaysFrom(account.accountId)).toBe(utcDay(todayStart));
    expect((await answers(account, link)).got).toEqual(withLate.got);
  });

  it('are rolled once by concurrent rolls while scans arrive', async () => {
    const account = await createTestAccount(api.ctx);
    const link = await makeLink(account);
    const todayStart = Date.parse(`${utcDay(Date.now())}T00:00:00Z`);
    await pool().query(`update accounts set link_days_from = $2::date where id = $1`, [account.accountId, utcDay(todayStart - 3 * DAY)]);
    const times = (k: number) => Array.from({ length: 40 }, (_, i) => todayStart - 3 * DAY + i * ((3 * DAY) / 40) + k);
    await ingest(scansAt(account, link.id, times(0)));
    await Promise.all([
      rollLinkDays(api.ctx.db),
      ingest(scansAt(account, link.id, times(1))),
      rollLinkDays(api.ctx.db),
      ingest(scansAt(account, link.id, times(2))),
    ]);
    expect(await linkDaysFrom(account.accountId)).toBe(utcDay(todayStart));
    expect(await dayRows(link.id)).toEqual(await expectedDayRows(link.id, utcDay(todayStart)));
    const { got, want } = await answers(account, link);
    expect(got).toEqual(want);
  });

  it('go with a deleted link, and the account-wide answers with its scans', async () => {
    const account = await createTestAccount(api.ctx);
    const link = await makeLink(account);
    const todayStart = Date.parse(`${utcDay(Date.now())}T00:00:00Z`);
    await pool().query(`update accounts set link_days_from = $2::date where id = $1`, [account.accountId, utcDay(todayStart - 2 * DAY)]);
    await ingest(scansAt(account, link.id, [todayStart - 3 * DAY, todayStart - DAY, Date.now() - 1000]));
    expect((await call(api.app, account.key, 'DELETE', `${API_PREFIX}/links/${link.slug}`)).statusCode).toBe(200);
    await rollLinkDays(api.ctx.db);
    expect(await dayRows(link.id)).toEqual([]);
    const res = await call(api.app, account.key, 'GET', `${API_PREFIX}/analytics/browser?duration=7_days&timezone=UTC`);
    expect(res.json().data).toEqual([]);
  });
});

describe("a link's all scans", () => {
  it('have hour rows and no day rows; its totals over whole days equal the raw counts, as the account rows do', async () => {
    const account = await createTestAccount(api.ctx);
    const link = await makeLink(account);
    const todayStart = Date.parse(`${utcDay(Date.now())}T00:00:00Z`);
    await ingest(
      scansAt(
        account,
        link.id,
        Array.from({ length: 60 }, (_, i) => todayStart - 20 * DAY + i * ((20 * DAY) / 60) + 7),
      ),
    );
    const grains = async (scopeId: string) =>
      (
        await pool().query<{ grain: string }>(`select distinct grain from scan_rollups where scope_id = $1 and dimension = 0 order by 1`, [
          scopeId,
        ])
      ).rows;
    expect((await grains(link.id)).map((r) => r.grain)).toEqual(['hour']);
    expect((await grains(account.accountId)).map((r) => r.grain)).toEqual(['day', 'hour']);
    const { rows } = await pool().query<{ humans: number; bots: number }>(
      `select count(*) filter (where not is_bot)::int as humans, count(*) filter (where is_bot)::int as bots from scans where link_id = $1`,
      [link.id],
    );
    for (const query of ['duration=30_days&timezone=UTC&exclude_bots=false', 'duration=1_year&timezone=Asia%2FKolkata']) {
      const [ofLink, ofAccount] = await Promise.all(
        [`/links/${link.slug}/analytics`, '/analytics'].map(
          async (scope) => (await call(api.app, account.key, 'GET', `${API_PREFIX}${scope}/general?${query}`)).json().data,
        ),
      );
      expect(ofLink, query).toMatchObject({ humanScans: rows[0]!.humans, botScans: rows[0]!.bots });
      expect({ ...ofLink, numberOfLinks: 1 }, query).toEqual({ ...ofAccount, numberOfLinks: 1 });
    }
  });
});
