/**
 * Analytics of scans made through the real scan path: requests with real user agents and public
 * client addresses (X-Forwarded-For from a trusted proxy) to the redirect app, recorded and
 * ingested by the real workers, then read back from the analytics endpoints: browsers, systems,
 * countries, bots and unique visitors equal to the requests made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../support/harness.js';
import { geoSample } from '../../support/geo.js';
import { SCAN_USER_AGENTS, startScanStack, type ScanStack } from '../../support/redirect.js';

const UA = SCAN_USER_AGENTS;

let stack: ScanStack;
beforeAll(async () => {
  stack = await startScanStack({ TRUSTED_PROXIES: '127.0.0.1' });
}, 60_000);
afterAll(() => stack.close());

async function get(path: string) {
  const res = await call(stack.api.app, stack.me.key, 'GET', `/api/v1${path}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const rows = (data: Array<{ name: string; scans: number }>) => data.map((r) => [r.name, r.scans]);

describe('scans through the redirect, read back from analytics', () => {
  it('browsers, systems, countries, bots and unique visitors equal the requests made', async () => {
    const link = await stack.createLink({ name: 'Table 4', type: 'website', data: { url: 'https://example.com/menu' } });
    const ip = await geoSample();
    const scan = async (userAgent: string, address: string, method = 'GET') => {
      const res = await stack.redirect.get(`/${link.slug}`, { method, headers: { 'user-agent': userAgent, 'x-forwarded-for': address } });
      expect(res.status).toBe(302);
    };
    await scan(UA.iosSafari, ip.DE);
    await scan(UA.iosSafari, ip.DE); // the same visitor again
    await scan(UA.androidChrome, ip.JP);
    await scan(UA.linuxFirefox, ip.US);
    await scan(UA.googlebot, ip.US); // a bot
    await scan(UA.iosSafari, ip.DE, 'HEAD'); // a link preview: a bot scan of the first visitor
    await stack.waitForScans(link.id, 6);

    for (const scope of [`/links/${link.slug}/analytics`, '/analytics']) {
      expect(rows((await get(`${scope}/browser`)).data), scope).toEqual([
        ['Mobile Safari', 2],
        ['Chrome', 1],
        ['Firefox', 1],
      ]);
      expect(rows((await get(`${scope}/ops`)).data)).toEqual([
        ['iOS', 2],
        ['Android', 1],
        ['Linux', 1],
      ]);
      expect(rows((await get(`${scope}/country`)).data)).toEqual([
        ['Germany', 2],
        ['Japan', 1],
        ['United States', 1],
      ]);
      expect(rows((await get(`${scope}/country?exclude_bots=false`)).data)).toEqual([
        ['Germany', 3],
        ['United States', 2],
        ['Japan', 1],
      ]);
      // Three people; with bots, Googlebot is a fourth visitor (the preview came from the first one).
      expect((await get(`${scope}/general`)).data).toMatchObject({ numberOfScans: 4, humanScans: 4, botScans: 2, uniqueVisitors: 3 });
      expect((await get(`${scope}/general?exclude_bots=false`)).data).toMatchObject({ numberOfScans: 6, uniqueVisitors: 4 });
      expect((await get(`${scope}/activity`)).data.Day.y.reduce((a: number, b: number) => a + b, 0)).toBe(4);
    }
    expect(rows((await get('/analytics/qr-code')).data)).toEqual([['Table 4', 4]]);
  }, 60_000);
});
