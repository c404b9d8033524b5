/**
 * GET /metrics of the api and the redirect (the worker's listener is scraped in supervisor.test.ts,
 * where every role runs as its own process): Prometheus text, the series the docs name, counts
 * equal to the requests made, and METRICS_TOKEN guarding the endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/harness.js';
import { startScanStack, type ScanStack } from './support/redirect.js';

const TOKEN = 'metrics-token-for-tests-0123456789';
let stack: ScanStack;

beforeAll(async () => {
  stack = await startScanStack({ METRICS_TOKEN: TOKEN });
});
afterAll(() => stack.close());

/** The sample of `name` whose labels are exactly `labels` (role included), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).sort().join(',');
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (m && m[1] === name && m[2]!.split(',').sort().join(',') === wanted) return Number(m[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('needs the token when METRICS_TOKEN is set', async () => {
    for (const get of [(h?: Record<string, string>) => stack.redirect.get('/metrics', { headers: h }), (h?: Record<string, string>) => fetchApi(h)]) {
      expect((await get()).status).toBe(401);
      expect((await get({ authorization: 'Bearer wrong-token-of-the-same-size-0000' })).status).toBe(401);
      expect((await get({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    }
  });

  it('the redirect counts its scans, answers per route and where each slug came from', async () => {
    const link = await stack.createLink({ name: 'metrics', type: 'website', data: { url: 'https://example.com/' } });
    for (let i = 0; i < 5; i++) expect((await stack.redirect.get(`/${link.slug}`)).status).toBe(302);
    expect((await stack.redirect.get('/nope-not-a-slug')).status).toBe(404);
    const res = await stack.redirect.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const redirect = { role: 'redirect' };
    expect(sample(text, 'qrlinks_scans_total', { ...redirect, event: 'received' })).toBe(5);
    expect(sample(text, 'qrlinks_http_request_duration_seconds_count', { ...redirect, route: '/:slug', method: 'GET', status_code: '302' })).toBe(5);
    expect(sample(text, 'qrlinks_http_request_duration_seconds_count', { ...redirect, route: '/:slug', method: 'GET', status_code: '404' })).toBe(1);
    // The first scan looked the slug up (the shared cache, or Postgres); the other four found it in the process.
    const local = sample(text, 'qrlinks_link_lookups_total', { ...redirect, source: 'local' }) ?? 0;
    const shared = (sample(text, 'qrlinks_link_lookups_total', { ...redirect, source: 'redis' }) ?? 0) + (sample(text, 'qrlinks_link_lookups_total', { ...redirect, source: 'postgres' }) ?? 0);
    expect(local).toBeGreaterThanOrEqual(4);
    expect(shared).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'qrlinks_pg_pool_connections', redirect)).toBeGreaterThanOrEqual(1);
  });

  it('the api counts its answers per route pattern, never per raw URL', async () => {
    const key = stack.me.key;
    await call(stack.api.app, key, 'GET', '/api/v1/links/abcdefg');
    await call(stack.api.app, key, 'GET', '/api/v1/links/hijklmn');
    const text = await (await fetchApi({ authorization: `Bearer ${TOKEN}` })).text();
    expect(sample(text, 'qrlinks_http_request_duration_seconds_count', { role: 'api', route: '/api/v1/links/:id', method: 'GET', status_code: '404' })).toBe(2);
    expect(text).not.toContain('abcdefg');
    expect(sample(text, 'qrlinks_qr_renders_running', { role: 'api' })).toBe(0);
  });
});

async function fetchApi(headers?: Record<string, string>) {
  const res = await stack.api.app.inject({ method: 'GET', url: '/metrics', headers });
  return { status: res.statusCode, text: async () => res.body };
}
