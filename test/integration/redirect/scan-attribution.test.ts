/**
 * Where scans come from, through the real scan path: the URLs decoded from the PNGs the api
 * renders (the plain code and each placement's) are requested from the redirect app, which strips
 * the marker from the destination; the real workers ingest the scans; the analytics endpoints and
 * the CSV export read them back by source, placement and referrer. A link made before markers
 * (unmarked_codes) counts its unmarked scans as unknown, not as clicks.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { links } from '#domain/schema.js';
import { call } from '../../support/harness.js';
import { decodePng } from '../../support/qr-reference.js';
import { SCAN_USER_AGENTS, startScanStack, type ScanStack } from '../../support/redirect.js';

let stack: ScanStack;
beforeAll(async () => {
  stack = await startScanStack();
}, 60_000);
afterAll(() => stack.close());

async function api(method: string, path: string, body?: unknown) {
  const res = await call(stack.api.app, stack.me.key, method, `/api/v1${path}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

const rows = (data: Array<{ name: string; scans: number }>) => data.map((r) => [r.name, r.scans]);

/** The URL a rendered code holds, as a phone reads it. */
async function decodedUrl(path: string): Promise<string> {
  const text = decodePng((await api('GET', path)).rawPayload);
  expect(text).not.toBeNull();
  return text!;
}

/** Requests a decoded URL from the redirect as a phone would (the path and query of the short URL). */
async function scan(url: string, headers: Record<string, string> = {}) {
  const { pathname, search } = new URL(url);
  const res = await stack.redirect.get(`${pathname}${search}`, { headers: { 'user-agent': SCAN_USER_AGENTS.iosSafari, ...headers } });
  expect(res.status).toBe(302);
  return res.headers.get('location');
}

describe('where scans come from', () => {
  it('tells a code from a click, each placement from the others, an old unmarked code as unknown, and the referring site', async () => {
    const link = await stack.createLink({ name: 'Spring menu', type: 'website', data: { url: 'https://example.com/menu' } });
    const tent = (await api('POST', `/links/${link.slug}/placements`, { name: 'Table tent' })).json().data;
    const window = (await api('POST', `/links/${link.slug}/placements`, { name: 'Window' })).json().data;
    const short = (await api('GET', `/links/${link.slug}`)).json().data.full_dynamic_url as string;
    expect([tent.code, window.code]).toEqual(['1', '2']);

    // Decoded from the images the api renders: each placement's carries its own code.
    const plainUrl = await decodedUrl(`/links/${link.slug}/qr`);
    const tentUrl = await decodedUrl(`/links/${link.slug}/qr?placement=${tent.id}`);
    const windowUrl = await decodedUrl(`/links/${link.slug}/qr?placement=${window.id}&format=png&size=400`);
    expect([plainUrl, tentUrl, windowUrl]).toEqual([`${short}?q`, `${short}?q=1`, `${short}?q=2`]);
    expect(tentUrl).toBe(tent.url);

    // The marker never reaches the destination.
    expect(await scan(plainUrl)).toBe('https://example.com/menu');
    await scan(plainUrl);
    for (let i = 0; i < 3; i++) await scan(tentUrl);
    await scan(windowUrl);
    // The link itself, shared in a chat: its referrer's host, never its path or query.
    await scan(short, { referer: 'https://chat.example/room/42?token=secret' });

    // A removed placement's printed codes still lead to the link: QR scans of no placement.
    await api('DELETE', `/links/${link.slug}/placements/${window.id}`);
    expect((await api('GET', `/links/${link.slug}/placements`)).json().data.map((p: { name: string }) => p.name)).toEqual(['Table tent']);
    await scan(windowUrl);

    // A link made before markers: its unmarked scans are of unknown source; a new code's are QR scans.
    const old = await stack.createLink({ name: 'Old poster', type: 'website', data: { url: 'https://example.com/old' } });
    // (Set before its first scan: no redirect holds the link yet.)
    await stack.api.ctx.db.update(links).set({ unmarkedCodes: true }).where(eq(links.id, old.id));
    const oldShort = (await api('GET', `/links/${old.slug}`)).json().data.full_dynamic_url as string;
    await scan(oldShort);
    await scan(oldShort);
    await scan(await decodedUrl(`/links/${old.slug}/qr`));

    await stack.waitForScans(link.id, 8);
    await stack.waitForScans(old.id, 3);

    const perLink = `/links/${link.slug}/analytics`;
    expect(rows((await api('GET', `${perLink}/source`)).json().data)).toEqual([
      ['qr', 7],
      ['link', 1],
    ]);
    const placements = (await api('GET', `${perLink}/placement`)).json().data;
    expect(placements.map((r: { name: string; scans: number; placementId: string | null }) => [r.name, r.scans, r.placementId])).toEqual([
      ['(none)', 4, null],
      ['Table tent', 3, tent.id],
      ['Window', 1, window.id],
    ]);
    expect(rows((await api('GET', `${perLink}/referrer`)).json().data)).toEqual([
      ['(direct)', 7],
      ['chat.example', 1],
    ]);
    expect(rows((await api('GET', `${perLink}/campaign`)).json().data)).toEqual([['(none)', 8]]);

    expect(rows((await api('GET', `/links/${old.slug}/analytics/source`)).json().data)).toEqual([
      ['unknown', 2],
      ['qr', 1],
    ]);
    expect(rows((await api('GET', '/analytics/source')).json().data)).toEqual([
      ['qr', 8],
      ['unknown', 2],
      ['link', 1],
    ]);
    const accountPlacements = (await api('GET', '/analytics/placement')).json().data;
    expect(accountPlacements.find((r: { placementId: string | null }) => r.placementId === tent.id)).toMatchObject({
      name: 'Table tent',
      scans: 3,
      dynamicLinkId: link.slug,
      linkName: 'Spring menu',
    });

    // The export's columns after the contract's own.
    const csv = (await api('POST', `${perLink}/export`, {})).body;
    const [header, ...records] = csv.trim().split('\r\n');
    expect(header!.split(',').slice(-4)).toEqual(['source', 'placement', 'referrer_host', 'utm_campaign']);
    const origins = records.map((r) => r.split(',').slice(-4).join(','));
    expect(origins.filter((o) => o === 'qr,Table tent,,')).toHaveLength(3);
    expect(origins.filter((o) => o === 'link,,chat.example,')).toHaveLength(1);
  }, 120_000);
});
