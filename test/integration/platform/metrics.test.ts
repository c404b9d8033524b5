/**
 * GET /metrics of the api and the redirect (the worker's listener is scraped in supervisor.test.ts,
 * where every role runs as its own process): Prometheus text, the series the docs name, counts
 * equal to the requests made, and METRICS_TOKEN guarding the endpoint.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiApp } from '#api/app.js';
import type { Config } from '#platform/config/index.js';
import { call } from '../../support/harness.js';
import { startScanStack, startTestRedirect, type ScanStack } from '../../support/redirect.js';
import { until } from '../../support/until.js';
import { LATENCY_SAMPLE_EVERY } from '#platform/metrics/http.js';

const TOKEN = 'metrics-token-for-tests-0123456789';
let stack: ScanStack;

beforeAll(async () => {
  stack = await startScanStack({ METRICS_TOKEN: TOKEN });
});
afterAll(() => stack.close());

/** The sample of `name` whose labels are exactly `labels` (role included), or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)\{(.*)\} (\S+)$/.exec(line);
    if (m && m[1] === name && m[2]!.split(',').sort().join(',') === wanted) return Number(m[3]);
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('needs the token when METRICS_TOKEN is set', async () => {
    for (const get of [
      (h?: Record<string, string>) => stack.redirect.get('/metrics', { headers: h }),
      (h?: Record<string, string>) => fetchApi(h),
    ]) {
      expect((await get()).status).toBe(401);
      expect((await get({ authorization: 'Bearer wrong-token-of-the-same-size-0000' })).status).toBe(401);
      expect((await get({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    }
  });

  it('the redirect counts its scans, answers per route and where each slug came from', async () => {
    const link = await stack.createLink({ name: 'metrics', type: 'website', data: { url: 'https://example.com/' } });
    // The scan route is timed one request in LATENCY_SAMPLE_EVERY, and counted on every one.
    const scans = 2 * LATENCY_SAMPLE_EVERY;
    for (let i = 0; i < scans; i++) expect((await stack.redirect.get(`/${link.slug}`)).status).toBe(302);
    expect((await stack.redirect.get('/nope-not-a-slug')).status).toBe(404);
    expect((await stack.redirect.get(`/${link.slug}`, { method: 'HEAD' })).status).toBe(302);
    expect((await stack.redirect.get('/no/route/here')).status).toBe(404);
    expect((await stack.redirect.get('/health')).status).toBe(200);
    expect((await stack.redirect.get('/health', { method: 'HEAD' })).status).toBe(200);
    const res = await stack.redirect.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const redirect = { role: 'redirect' };
    expect(sample(text, 'qrlinks_scans_total', { ...redirect, event: 'received' })).toBe(scans + 1); // the HEAD is recorded too (as a bot's)
    expect(sample(text, 'qrlinks_http_requests_total', { ...redirect, route: '/:slug', method: 'GET' })).toBe(scans + 1);
    expect(sample(text, 'qrlinks_http_requests_total', { ...redirect, route: '/:slug', method: 'HEAD' })).toBe(1);
    expect(
      sample(text, 'qrlinks_http_request_duration_seconds_count', { ...redirect, route: '/:slug', method: 'GET', status_code: '302' }),
    ).toBe(2);
    expect(
      sample(text, 'qrlinks_http_request_duration_seconds_count', { ...redirect, route: '/:slug', method: 'GET', status_code: '404' }),
    ).toBeUndefined();
    // Every other route, and paths no route matches, are timed on each request.
    expect(sample(text, 'qrlinks_http_requests_total', { ...redirect, route: '/health', method: 'GET' })).toBe(1);
    expect(
      sample(text, 'qrlinks_http_request_duration_seconds_count', { ...redirect, route: '/health', method: 'GET', status_code: '200' }),
    ).toBe(1);
    expect(sample(text, 'qrlinks_http_requests_total', { ...redirect, route: '/health', method: 'HEAD' })).toBe(1);
    expect(
      sample(text, 'qrlinks_http_request_duration_seconds_count', { ...redirect, route: 'unmatched', method: 'GET', status_code: '404' }),
    ).toBe(1);
    expect(sample(text, 'qrlinks_http_requests_total', { ...redirect, route: 'unmatched', method: 'GET' })).toBe(1);
    // The first scan looked the slug up (the shared cache, or Postgres); the other four found it in the process.
    const local = sample(text, 'qrlinks_link_lookups_total', { ...redirect, source: 'local' }) ?? 0;
    const shared =
      (sample(text, 'qrlinks_link_lookups_total', { ...redirect, source: 'redis' }) ?? 0) +
      (sample(text, 'qrlinks_link_lookups_total', { ...redirect, source: 'postgres' }) ?? 0);
    expect(local).toBeGreaterThanOrEqual(4);
    expect(shared).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'qrlinks_pg_pool_connections', redirect)).toBeGreaterThanOrEqual(1);
  });

  it('the api counts its answers per route pattern, never per raw URL', async () => {
    const key = stack.me.key;
    await call(stack.api.app, key, 'GET', '/api/v1/links/abcdefg');
    await call(stack.api.app, key, 'GET', '/api/v1/links/hijklmn');
    const text = await (await fetchApi({ authorization: `Bearer ${TOKEN}` })).text();
    expect(
      sample(text, 'qrlinks_http_request_duration_seconds_count', {
        role: 'api',
        route: '/api/v1/links/:id',
        method: 'GET',
        status_code: '404',
      }),
    ).toBe(2);
    expect(sample(text, 'qrlinks_http_requests_total', { role: 'api', route: '/api/v1/links/:id', method: 'GET' })).toBe(2);
    expect(text).not.toContain('abcdefg');
    expect(sample(text, 'qrlinks_qr_renders_running', { role: 'api' })).toBe(0);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  const opened: FastifyInstance[] = [];
  afterAll(() => Promise.all(opened.map((app) => app.close())));

  /** The api and the redirect built over the stack's context, without a token. */
  async function appsWith(config: Partial<Config>): Promise<Record<string, FastifyInstance>> {
    const ctx = { ...stack.api.ctx, config: { ...stack.api.ctx.config, METRICS_TOKEN: undefined, ...config } };
    const api = await buildApiApp(ctx);
    const redirect = (await startTestRedirect(ctx)).app;
    opened.push(api, redirect);
    return { api, redirect };
  }
  const scrape = (app: FastifyInstance, remoteAddress: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

  it('answers loopback and private networks, and refuses everyone else a 403 that tells nothing', async () => {
    const apps = await appsWith({ TRUSTED_PROXIES: '' });
    // Over a real socket from this machine, as a Prometheus beside the stack scrapes.
    const local = await fetch(`${apps.redirect!.listeningOrigin}/metrics`);
    expect(local.status).toBe(200);
    expect(await local.text()).toContain('qrlinks_scans_total');
    for (const [role, app] of Object.entries(apps)) {
      for (const address of ['127.0.0.1', '10.1.2.3', '172.20.0.5', '192.168.1.4', '::1', 'fd12:3456::1', '::ffff:10.0.0.7']) {
        const res = await scrape(app, address);
        expect(res.statusCode, `${role} from ${address}`).toBe(200);
        expect(res.body).toContain(`role="${role}"`);
      }
      for (const address of ['203.0.113.7', '8.8.8.8', '2001:4860::8888', '::ffff:8.8.8.8', '100.64.0.1', '169.254.169.254']) {
        const res = await scrape(app, address);
        expect(res.statusCode, `${role} from ${address}`).toBe(403);
        expect(res.body).not.toContain('qrlinks_');
        expect(res.body).toContain('METRICS_TOKEN');
      }
      // A balancer not in TRUSTED_PROXIES, relaying someone: its private address says nothing of who asks.
      expect((await scrape(app, '10.0.0.2', { 'x-forwarded-for': '203.0.113.7' })).statusCode, role).toBe(403);
      expect((await scrape(app, '10.0.0.2', { 'x-forwarded-for': '10.0.0.9' })).statusCode, role).toBe(403);
      // A proxy that says so in another header than X-Forwarded-For is relaying someone just as well.
      const relays: Array<Record<string, string>> = [
        { forwarded: 'for=203.0.113.7' },
        { 'x-real-ip': '203.0.113.7' },
        { 'x-forwarded-host': 'metrics.example' },
        { 'x-client-ip': '203.0.113.7' },
        { 'true-client-ip': '203.0.113.7' },
        { 'cf-connecting-ip': '203.0.113.7' },
      ];
      for (const forwarding of relays)
        expect((await scrape(app, '10.0.0.2', forwarding)).statusCode, `${role} ${JSON.stringify(forwarding)}`).toBe(403);
    }
  });

  it('behind a trusted proxy, judges the client it forwarded for', async () => {
    for (const [role, app] of Object.entries(await appsWith({ TRUSTED_PROXIES: '10.0.0.0/24' }))) {
      expect((await scrape(app, '10.0.0.2', { 'x-forwarded-for': '203.0.113.7' })).statusCode, role).toBe(403);
      expect((await scrape(app, '10.0.0.2', { 'x-forwarded-for': '192.168.7.7' })).statusCode, role).toBe(200);
      expect((await scrape(app, '10.0.0.2')).statusCode, role).toBe(200);
    }
  });
});

async function fetchApi(headers?: Record<string, string>) {
  const res = await stack.api.app.inject({ method: 'GET', url: '/metrics', headers });
  return { status: res.statusCode, text: async () => res.body };
}

describe('the redirect’s page cache', () => {
  it('landing pages are made once per version of their link: scans of a kept page make none', async () => {
    const rendered = async () => {
      const text = await (await stack.redirect.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
      return sample(text, 'qrlinks_pages_rendered_total', { role: 'redirect', kind: 'landing' }) ?? 0;
    };
    const before = await rendered();
    const link = await stack.createLink({
      name: 'landing',
      type: 'landing',
      data: { landingHTML: '<h1>First</h1><script>alert(1)</script><p onclick="x()">Hello</p>' },
    });
    for (let i = 0; i < 3; i++) {
      const page = await (await stack.redirect.get(`/${link.slug}`)).text();
      expect(page).toContain('<h1>First</h1><p>Hello</p>');
    }
    expect(await rendered()).toBe(before + 1);
    const put = await call(stack.api.app, stack.me.key, 'PUT', `/api/v1/links/${link.slug}`, {
      name: 'landing',
      type: 'landing',
      data: { landingHTML: '<h1>Second</h1>' },
    });
    expect(put.statusCode, put.body).toBe(200);
    await until(async () => (await (await stack.redirect.get(`/${link.slug}`)).text()).includes('<h1>Second</h1>'));
    for (let i = 0; i < 3; i++) expect(await (await stack.redirect.get(`/${link.slug}`)).text()).toContain('<h1>Second</h1>');
    expect(await rendered()).toBe(before + 2);
  });
});
