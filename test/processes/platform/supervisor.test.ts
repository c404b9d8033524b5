/**
 * `npm start` (main.ts) as an operator meets it: a role killed with SIGKILL is restarted while
 * the other roles keep answering, and every scan answered is counted, those the killed redirect
 * answered included; a role that keeps dying stops the whole with a line that says so; an unreachable Redis
 * or Postgres is named at start, and "running" is never printed then.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { collect, freePort, runEntry, startEntry } from '../../support/processes.js';
import { startTcpProxy } from '../../support/tcp-proxy.js';
import { pollUntil } from '../../support/until.js';
import { LATENCY_SAMPLE_EVERY } from '#platform/metrics/http.js';

// Processes that compile TypeScript as they start: on a busy machine a start can take a minute.
// The limits bound a hang; they do not time anything.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 240_000 });

let api: TestApi;
let me: TestAccount;

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx);
});
afterAll(() => api.close());

/** stdout of a running process, as it grows. */
function output(child: ChildProcess): { text: () => string } {
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  return { text: () => text };
}

/** The pid the supervisor last reported for `role`. */
function pidOf(log: string, role: string): number {
  const pids = [...log.matchAll(new RegExp(`^${role} started \\(pid (\\d+)\\)`, 'gm'))].map((m) => Number(m[1]));
  expect(pids.length, log).toBeGreaterThan(0);
  return pids[pids.length - 1]!;
}

/**
 * Requests `url` from a few loops until stopped; counts answers with the expected status and
 * anything else (errors included).
 */
function keepAsking(url: string, expected: number, init: RequestInit = {}) {
  let running = true;
  const counts = { ok: 0, other: 0 };
  const loops = Array.from({ length: 4 }, async () => {
    while (running) {
      try {
        const res = await fetch(url, { redirect: 'manual', ...init });
        await res.arrayBuffer();
        if (res.status === expected) counts.ok++;
        else counts.other++;
      } catch {
        counts.other++;
      }
    }
  });
  return {
    counts,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return counts;
    },
  };
}

describe('npm start supervises its roles', () => {
  it('a role killed with SIGKILL is restarted; the others answer throughout; every scan answered meanwhile is counted', async () => {
    const [port, redirectPort, workerMetricsPort] = [await freePort(), await freePort(), await freePort()];
    const env = {
      WORKER_METRICS_PORT: String(workerMetricsPort),
      PORT: String(port),
      REDIRECT_PORT: String(redirectPort),
      SHORT_URL_BASE: `http://127.0.0.1:${redirectPort}`,
      ROLE_RESTART_DELAY_MS: '200',
      // The killed worker's scan batch is taken up again after about this long, not 30 s.
      SCAN_WORKER_LOCK_MS: '5000',
    };
    const { slug } = await createLinkVia(api.app, me.key, { name: 'table 7', type: 'website', data: { url: 'https://example.com/menu' } });
    const scanUrl = `http://127.0.0.1:${redirectPort}/${slug}`;
    const healthUrl = `http://127.0.0.1:${port}/health`;

    const main = startEntry('main.ts', [], env);
    const log = output(main);
    const exited = collect(main, 290_000);
    try {
      await pollUntil(
        async () => log.text(),
        (t) => t.includes('qrlinks running'),
        240_000,
        100,
      );
      expect(log.text()).toContain('qrlinks running');
      // The api and the worker run with two malloc arenas unless the environment says otherwise; the redirect with glibc's default.
      const arenas = (role: string) =>
        readFileSync(`/proc/${pidOf(log.text(), role)}/environ`, 'utf8')
          .split('\0')
          .find((v) => v.startsWith('MALLOC_ARENA_MAX='))
          ?.slice('MALLOC_ARENA_MAX='.length);
      const operators = process.env.MALLOC_ARENA_MAX;
      expect([arenas('api'), arenas('worker'), arenas('redirect')]).toEqual([operators ?? '2', operators ?? '2', operators]);
      expect((await fetch(scanUrl, { redirect: 'manual' })).status).toBe(302);
      let answered = 1;

      // The worker, then the api, killed under scan load: the redirect answers every request.
      for (const role of ['worker', 'api'] as const) {
        const scans = keepAsking(scanUrl, 302);
        await new Promise((r) => setTimeout(r, 300));
        process.kill(pidOf(log.text(), role), 'SIGKILL');
        await pollUntil(
          async () => log.text(),
          (t) => t.includes(`${role} is serving again`),
          120_000,
          100,
        );
        const counts = await scans.stop();
        expect(log.text()).toMatch(new RegExp(`^${role} exited \\(SIGKILL\\); restarting it in 0\\.2 s`, 'm'));
        expect(counts.other, `${role}: answers other than 302 while it was down`).toBe(0);
        expect(counts.ok).toBeGreaterThan(0);
        answered += counts.ok;
      }
      expect((await fetch(healthUrl)).status).toBe(200);
      const scansOfLink = async () =>
        Number(
          (
            await api.ctx.database.pool.query<{ n: string }>(
              'select count(*) as n from scans s join links l on l.id = s.link_id where l.slug = $1',
              [slug],
            )
          ).rows[0]!.n,
        );
      expect(await pollUntil(scansOfLink, (n) => n >= answered, 120_000, 200)).toBe(answered);

      // Each role's metrics, as Prometheus scrapes them (the api and the worker restarted above, the redirect not).
      const scrape = async (url: string) => {
        const res = await fetch(url);
        expect(res.status, url).toBe(200);
        expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
        return res.text();
      };
      /** The sample of `series` (`name{a="b",…}`, labels in any order) in the scrape's text. */
      const value = (text: string, series: string) => {
        const labelsOf = (s: string) => (s.match(/\{(.*)\}/)?.[1] ?? '').split(',').sort().join(',');
        const name = series.replace(/\{.*/, '');
        const samples = text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `));
        const line = samples.find((l) => labelsOf(l.slice(0, l.lastIndexOf(' '))) === labelsOf(series));
        expect(line, `${series} among:\n${samples.join('\n')}`).toBeDefined();
        return Number(line!.slice(line!.lastIndexOf(' ') + 1));
      };
      const redirectMetrics = await scrape(`http://127.0.0.1:${redirectPort}/metrics`);
      expect(value(redirectMetrics, 'qrlinks_scans_total{event="received",role="redirect"}')).toBe(answered);
      expect(value(redirectMetrics, 'qrlinks_scans_total{event="queued",role="redirect"}')).toBe(answered);
      expect(value(redirectMetrics, 'qrlinks_http_requests_total{route="/:slug",method="GET",role="redirect"}')).toBe(answered);
      // The scan route's latency is a sample: one request in LATENCY_SAMPLE_EVERY (all of them 302s here).
      expect(
        value(
          redirectMetrics,
          'qrlinks_http_request_duration_seconds_count{route="/:slug",method="GET",status_code="302",role="redirect"}',
        ),
      ).toBe(Math.floor(answered / LATENCY_SAMPLE_EVERY));
      expect(value(redirectMetrics, 'qrlinks_link_lookups_total{source="local",role="redirect"}')).toBeGreaterThan(0);
      expect(value(redirectMetrics, 'qrlinks_pg_pool_connections{role="redirect"}')).toBeGreaterThanOrEqual(0);
      const apiMetrics = await scrape(`http://127.0.0.1:${port}/metrics`);
      expect(
        value(apiMetrics, 'qrlinks_http_request_duration_seconds_count{route="/health",method="GET",status_code="200",role="api"}'),
      ).toBeGreaterThan(0);
      expect(value(apiMetrics, 'qrlinks_qr_renders_waiting{role="api"}')).toBe(0);
      expect(apiMetrics).toContain('qrlinks_process_cpu_seconds_total{role="api"}');
      // The worker restarted above: polled until its queue gauges are in the scrape (a CI run once
      // read a scrape without them), which they must be within the poll, or this fails.
      const workerMetrics = await pollUntil(
        () => scrape(`http://127.0.0.1:${workerMetricsPort}/metrics`),
        (text) => text.includes('qrlinks_queue_jobs{'),
        20_000,
        250,
      );
      expect(value(workerMetrics, 'qrlinks_queue_jobs{queue="scans",state="waiting",role="worker"}')).toBe(0);
      expect(value(workerMetrics, 'qrlinks_job_duration_seconds_count{queue="scans",outcome="completed",role="worker"}')).toBeGreaterThan(
        0,
      );

      // The redirect killed under scan load while the api is asked: the api answers every request,
      // the redirect comes back, and every scan it answered before the kill is counted (each was
      // written ahead before its answer; the restarted redirect recovers the dead one's files).
      const health = keepAsking(healthUrl, 200);
      const scansAcrossKill = keepAsking(scanUrl, 302);
      await new Promise((r) => setTimeout(r, 300));
      process.kill(pidOf(log.text(), 'redirect'), 'SIGKILL');
      await pollUntil(
        async () => log.text(),
        (t) => t.includes('redirect is serving again'),
        120_000,
        100,
      );
      await new Promise((r) => setTimeout(r, 300));
      const [healthCounts, scanCounts] = await Promise.all([health.stop(), scansAcrossKill.stop()]);
      expect(healthCounts.other, 'api answers other than 200 while the redirect was down').toBe(0);
      expect(scanCounts.ok).toBeGreaterThan(0);
      answered += scanCounts.ok;
      const counted = await pollUntil(scansOfLink, (n) => n >= answered, 120_000, 200);
      // A scan written ahead whose answer the kill cut off is counted too: at most one per client loop.
      expect(counted).toBeGreaterThanOrEqual(answered);
      expect(counted).toBeLessThanOrEqual(answered + 4);
    } finally {
      main.kill('SIGTERM');
    }
    const { code } = await exited;
    expect(code).toBe(0);
  });
});

describe('a role that keeps dying, and dependencies that are not there', () => {
  it('a role that exits again and again stops the whole with a line naming it; "running" is never printed', async () => {
    // The redirect's port is taken, so every start of it fails to listen.
    const squatter = createServer();
    squatter.listen(0, '127.0.0.1');
    await once(squatter, 'listening');
    const taken = (squatter.address() as { port: number }).port;
    try {
      const { code, stdout } = await runEntry(
        'main.ts',
        [],
        { PORT: String(await freePort()), REDIRECT_PORT: String(taken), ROLE_RESTART_DELAY_MS: '100', ROLE_MAX_RESTARTS: '2' },
        280_000,
      );
      expect(code).toBe(1);
      expect(stdout).toMatch(/^redirect exited \(code 1\) 3 times within 60 s; stopping qrlinks/m);
      expect(stdout.match(/^redirect started/gm)).toHaveLength(3);
      expect(stdout).not.toContain('qrlinks running');
    } finally {
      squatter.close();
    }
  });

  it('an unreachable Redis or Postgres is named in one line, with its URL and what to do; the process waits for it and starts once it answers', async () => {
    const closed = await freePort();
    const pgUrl = new URL(process.env.DATABASE_URL!);
    pgUrl.port = String(closed);
    const api = startEntry('api/server.ts', [], { DATABASE_URL: pgUrl.href, PORT: String(await freePort()) });
    const apiLog = output(api);
    const apiExit = collect(api, 200_000);
    await pollUntil(
      async () => apiLog.text(),
      (t) => t.includes('cannot reach'),
      120_000,
      100,
    );
    api.kill('SIGKILL');
    await apiExit;
    expect(apiLog.text()).toContain(`qrlinks api: cannot reach PostgreSQL at DATABASE_URL=${pgUrl.href}`);
    expect(apiLog.text()).toContain('docker compose up -d postgres');

    // Redis behind a proxy that refuses connections until restored: npm start says so, waits, then runs.
    const redisUrl = new URL(process.env.REDIS_URL!);
    const proxy = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
    proxy.cut();
    const url = new URL(proxy.url(process.env.REDIS_URL!));
    url.password = 's3cret';
    try {
      const [port, redirectPort] = [await freePort(), await freePort()];
      const main = startEntry('main.ts', [], { REDIS_URL: url.href, PORT: String(port), REDIRECT_PORT: String(redirectPort) });
      const log = output(main);
      const exited = collect(main, 280_000);
      await pollUntil(
        async () => log.text(),
        (t) => t.includes('cannot reach Redis'),
        120_000,
        100,
      );
      expect(log.text()).toContain(`qrlinks: cannot reach Redis at REDIS_URL=redis://:***@${url.host}`);
      expect(log.text()).toContain('docker compose up -d redis');
      expect(log.text()).not.toContain('s3cret');
      await new Promise((r) => setTimeout(r, 3000));
      expect(log.text()).not.toContain('qrlinks running');
      // Said once, not once per retry.
      expect(log.text().split('cannot reach Redis').length - 1).toBe(1);
      proxy.restore();
      await pollUntil(
        async () => log.text(),
        (t) => t.includes('qrlinks running'),
        240_000,
        100,
      );
      expect(log.text()).toContain('answer now; starting');
      main.kill('SIGTERM');
      expect((await exited).code).toBe(0);
    } finally {
      proxy.restore();
      await proxy.close();
    }
  });
});
