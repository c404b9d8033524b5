/**
 * The analytics filters (country, browser, os: an addition to the API contract) against real scans
 * recorded by the scans worker's own ingestion SQL, and the export through the real queue and
 * worker: every GET narrowed to the scans with those facts, exactly what was sent, per account and
 * per link, "Unknown" for a missing fact, bots as without a filter, and the 400s.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import type { ScanEvent } from '#domain/scans/types.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';

let api: TestApi;
let workers: RunningWorkers;
let owner: TestAccount;
const links: Record<'alpha' | 'beta', { slug: string; id: string }> = {} as never;
const now = Date.now();
const HOUR = 3_600_000;

type Who = Partial<Omit<ScanEvent, 'id' | 'linkId' | 'accountId' | 'at'>>;
const CHROME_DE: Who = { browserName: 'Chrome', osName: 'Android', countryName: 'Germany', city: 'Berlin', deviceType: 'mobile' };
const SAFARI_FR: Who = { browserName: 'Mobile Safari', osName: 'iOS', countryName: 'France', city: 'Paris', deviceType: 'mobile' };
const SAFARI_DE: Who = { browserName: 'Mobile Safari', osName: 'iOS', countryName: 'Germany', city: 'Hamburg', deviceType: 'mobile' };
const FIREFOX_DE: Who = { browserName: 'Firefox', osName: 'Windows', countryName: 'Germany', city: 'Munich', deviceType: 'desktop' };
const BOT_US: Who = { browserName: 'Googlebot', countryName: 'United States', isBot: true };

function scan(linkId: string, at: number, who: Who, visitorKey: string | null = null): ScanEvent {
  return {
    id: randomUUID(),
    linkId,
    accountId: owner.accountId,
    at,
    browserName: null,
    deviceType: null,
    deviceVendor: null,
    osName: null,
    countryName: null,
    region: null,
    city: null,
    isBot: false,
    visitorKey,
    ...who,
  };
}

async function makeLink(name: string) {
  const res = await call(api.app, owner.key, 'POST', `${API_PREFIX}/links`, {
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
  workers = await startWorkers(api.ctx);
  owner = await createTestAccount(api.ctx);
  links.alpha = await makeLink('Alpha');
  links.beta = await makeLink('Beta');
  const { alpha, beta } = links;
  // Within the last hour but one, one a minute; the visitor keys make two German Chrome scans one visitor.
  const recent = (i: number) => now - HOUR - i * 60_000;
  const scans = [
    scan(alpha.id, recent(0), CHROME_DE, 'visitor-a'),
    scan(alpha.id, recent(1), CHROME_DE, 'visitor-a'),
    scan(alpha.id, recent(2), CHROME_DE, 'visitor-b'),
    scan(alpha.id, recent(3), SAFARI_FR, 'visitor-c'),
    scan(alpha.id, recent(4), SAFARI_FR, 'visitor-d'),
    scan(alpha.id, recent(5), {}),
    scan(alpha.id, recent(6), BOT_US),
    scan(beta.id, recent(7), FIREFOX_DE, 'visitor-e'),
    scan(beta.id, recent(8), SAFARI_DE, 'visitor-f'),
    // Inside 7_days, outside 48_hours.
    scan(alpha.id, now - 72 * HOUR, CHROME_DE),
  ];
  const result = await ingestScanBatches(api.ctx.database.pool, [encodeScanBatch(scans)]);
  expect(result.inserted).toBe(scans.length);
}, 60_000);
afterAll(async () => {
  await workers?.close();
  await api?.close();
});

async function get(path: string) {
  const res = await call(api.app, owner.key, 'GET', `${API_PREFIX}${path}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

const row = (number: number, name: string, scans: number, percentage: string) => ({ number, name, scans, percentage });
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('filtered analytics', () => {
  it('country narrows general, every ranking, qr-code, activity and time to the scans from there', async () => {
    expect(await get('/analytics/general?country=Germany')).toEqual({
      numberOfLinks: 2,
      numberOfScans: 5,
      humanScans: 5,
      botScans: 0,
      uniqueVisitors: 4,
    });
    expect(await get('/analytics/general?country=Germany&duration=7_days')).toMatchObject({ numberOfScans: 6 });
    expect(await get('/analytics/country?country=Germany')).toEqual([row(1, 'Germany', 5, '100.00')]);
    expect(await get('/analytics/browser?country=Germany')).toEqual([
      row(1, 'Chrome', 3, '60.00'),
      row(2, 'Firefox', 1, '20.00'),
      row(3, 'Mobile Safari', 1, '20.00'),
    ]);
    expect(await get('/analytics/ops?country=Germany')).toEqual([
      row(1, 'Android', 3, '60.00'),
      row(2, 'Windows', 1, '20.00'),
      row(3, 'iOS', 1, '20.00'),
    ]);
    expect(await get('/analytics/region?country=Germany')).toEqual([
      row(1, 'Berlin', 3, '60.00'),
      row(2, 'Hamburg', 1, '20.00'),
      row(3, 'Munich', 1, '20.00'),
    ]);
    expect(await get('/analytics/device?country=Germany')).toEqual([row(1, 'mobile', 4, '80.00'), row(2, 'desktop', 1, '20.00')]);
    expect(await get('/analytics/qr-code?country=Germany')).toEqual([
      { ...row(1, 'Alpha', 3, '60.00'), dynamicLinkId: links.alpha.slug },
      { ...row(2, 'Beta', 2, '40.00'), dynamicLinkId: links.beta.slug },
    ]);
    const activity = await get('/analytics/activity?country=Germany');
    expect(sum(activity.Day.y)).toBe(5);
    expect(sum(activity.Hour.y)).toBe(5);
    const hour = new Date(Math.floor((now - HOUR) / HOUR) * HOUR).toISOString().slice(0, 13);
    expect(activity.Hour.x.filter((_: string, i: number) => activity.Hour.y[i] > 0)).toEqual(
      // Oldest first, as the activity axis runs; the two scans share an hour unless it began within 8 minutes.
      [...new Set([now - HOUR - 8 * 60_000, now - HOUR].map((t) => new Date(t).toISOString().slice(0, 13)))].map((h) => `${h}:00`),
    );
    expect(activity.Hour.x).toContain(`${hour}:00`);
    expect(sum(Object.values<number>(await get('/analytics/time?country=Germany')))).toBe(5);
    // Seven days: the one from three days ago too, read from the raw scans as well.
    expect(sum((await get('/analytics/activity?country=Germany&duration=7_days')).Day.y)).toBe(6);
  });

  it('filters combine; browser and os alone; per link only that link’s scans', async () => {
    expect(await get('/analytics/general?country=Germany&browser=Mobile%20Safari')).toMatchObject({ numberOfScans: 1 });
    expect(await get('/analytics/qr-code?country=Germany&browser=Mobile%20Safari')).toEqual([
      { ...row(1, 'Beta', 1, '100.00'), dynamicLinkId: links.beta.slug },
    ]);
    expect(await get('/analytics/country?os=iOS')).toEqual([row(1, 'France', 2, '66.67'), row(2, 'Germany', 1, '33.33')]);
    expect(await get('/analytics/general?browser=Chrome&duration=7_days')).toMatchObject({ numberOfScans: 4 });
    expect(await get(`/links/${links.alpha.slug}/analytics/general?country=Germany`)).toMatchObject({
      numberOfLinks: 1,
      numberOfScans: 3,
      uniqueVisitors: 2,
    });
    expect(await get(`/links/${links.beta.slug}/analytics/browser?country=Germany`)).toEqual([
      row(1, 'Firefox', 1, '50.00'),
      row(2, 'Mobile Safari', 1, '50.00'),
    ]);
    expect(await get(`/links/${links.beta.slug}/analytics/general?country=France`)).toMatchObject({ numberOfScans: 0 });
  });

  it('"Unknown" is the missing fact; bots in and out as without a filter; a country nobody scanned from is zero', async () => {
    expect(await get('/analytics/general?country=Unknown')).toMatchObject({ numberOfScans: 1, botScans: 0 });
    expect(await get('/analytics/browser?country=Unknown')).toEqual([row(1, 'Unknown', 1, '100.00')]);
    expect(await get('/analytics/general?country=United%20States')).toMatchObject({ numberOfScans: 0, humanScans: 0, botScans: 1 });
    expect(await get('/analytics/general?country=United%20States&exclude_bots=false')).toMatchObject({ numberOfScans: 1, botScans: 1 });
    expect(await get('/analytics/general?country=Japan')).toMatchObject({ numberOfScans: 0, uniqueVisitors: 0 });
    expect(await get('/analytics/country?country=Japan')).toEqual([]);
  });

  it('without filters the answers are those of the rollups, unchanged', async () => {
    expect(await get('/analytics/general')).toEqual({ numberOfLinks: 2, numberOfScans: 8, humanScans: 8, botScans: 1, uniqueVisitors: 6 });
    expect(await get('/analytics/country')).toEqual([
      row(1, 'Germany', 5, '62.50'),
      row(2, 'France', 2, '25.00'),
      row(3, 'Unknown', 1, '12.50'),
    ]);
  });

  it('an empty or overlong filter is a 400 naming it', async () => {
    for (const query of ['country=', `browser=${'x'.repeat(256)}`]) {
      const res = await call(api.app, owner.key, 'GET', `${API_PREFIX}/analytics/general?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors[0].path).toBe(query.split('=')[0]);
    }
  });

  it('the export takes the same filters: only the rows with those facts', async () => {
    const rowsOf = async (url: string, body: unknown) => {
      const res = await call(api.app, owner.key, 'POST', `${API_PREFIX}${url}`, body);
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      return res.body.trim().split('\r\n').slice(1);
    };
    const german = await rowsOf('/analytics/export', { country: 'Germany' });
    expect(german).toHaveLength(5);
    for (const line of german) expect(line.split(',')[6]).toBe('Germany');
    expect(await rowsOf('/analytics/export', { country: 'Germany', os: 'iOS' })).toEqual([
      // Then the domain and where the scan came from (none recorded here).
      expect.stringMatching(new RegExp(`^${links.beta.slug},Mobile Safari,mobile,,iOS,.*,Germany,,Hamburg,[^,]+,unknown,,,$`)),
    ]);
    expect(await rowsOf(`/links/${links.alpha.slug}/analytics/export`, { browser: 'Chrome' })).toHaveLength(3);
    expect(await rowsOf('/analytics/export', { country: 'Unknown' })).toHaveLength(1);
    expect(await rowsOf('/analytics/export', {})).toHaveLength(8);
  }, 30_000);
});

describe('filtered by source', () => {
  it('qr, link and unknown narrow the reads and the export to the scans from there; anything else is a 400', async () => {
    const account = await createTestAccount(api.ctx);
    const res = await call(api.app, account.key, 'POST', `${API_PREFIX}/links`, {
      name: 'Menu',
      type: 'website',
      data: { url: 'https://example.com/' },
    });
    const slug = res.json().id as string;
    const { rows } = await api.ctx.database.pool.query<{ id: string }>('select id from links where slug = $1', [slug]);
    const from = (source: string | null, who: Who, i: number): ScanEvent => ({
      ...scan(rows[0]!.id, now - HOUR - i * 60_000, who),
      accountId: account.accountId,
      ...(source !== null && { origin: { source, placementId: null, referrerHost: null, utmCampaign: null } }),
    });
    const scans = [
      from('qr', CHROME_DE, 0),
      from('qr', CHROME_DE, 1),
      from('qr', SAFARI_FR, 2),
      from('link', FIREFOX_DE, 3),
      from('link', SAFARI_FR, 4),
      from(null, SAFARI_DE, 5),
    ];
    expect((await ingestScanBatches(api.ctx.database.pool, [encodeScanBatch(scans)])).inserted).toBe(6);
    const read = async (path: string) => {
      const answer = await call(api.app, account.key, 'GET', `${API_PREFIX}${path}`);
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json().data;
    };
    expect(await read('/analytics/general?source=qr')).toMatchObject({ numberOfScans: 3 });
    expect(await read(`/links/${slug}/analytics/general?source=link`)).toMatchObject({ numberOfScans: 2 });
    expect(await read('/analytics/general?source=unknown')).toMatchObject({ numberOfScans: 1 });
    expect(await read('/analytics/browser?source=qr')).toEqual([row(1, 'Chrome', 2, '66.67'), row(2, 'Mobile Safari', 1, '33.33')]);
    expect(await read('/analytics/source?source=link&country=France')).toEqual([row(1, 'link', 1, '100.00')]);
    const exported = await call(api.app, account.key, 'POST', `${API_PREFIX}/analytics/export`, { source: 'qr' });
    expect(exported.statusCode, exported.body.slice(0, 300)).toBe(200);
    const lines = exported.body.trim().split('\r\n');
    const column = lines[0]!.split(',').indexOf('source');
    expect(lines.slice(1).map((line) => line.split(',')[column])).toEqual(['qr', 'qr', 'qr']);
    const refused = await call(api.app, account.key, 'GET', `${API_PREFIX}/analytics/general?source=email`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors[0].path).toBe('source');
  }, 30_000);
});
