/**
 * Two of each role as real processes (api, redirect, worker) on one Postgres and one Redis, the
 * way an operator scales out: unique visitors stay exact with two workers ingesting at once, an
 * authenticated api request is answered within 2 s while Redis is unreachable (and a 503 with
 * Retry-After while Postgres is), workers do not flood the log during a Redis outage, and the
 * limits hold across replicas (unknown slugs on both redirects, bad keys on both apis).
 * The apis and workers reach Redis, and the apis Postgres, through TCP proxies the tests cut.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';
import { freePort, startEntry, stopProcess, waitForHttp } from '../../support/processes.js';
import { startTcpProxyFor, type TcpProxy } from '../../support/tcp-proxy.js';
import { pollUntil } from '../../support/until.js';

// Six processes compile TypeScript as they start; on a busy machine that takes a while. The limits
// bound a hang; they time nothing (the 2 s below is the property under test).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

const NOT_FOUND_LIMIT = 5;
const AUTH_FAILURE_LIMIT = 3;

interface Role {
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
}

let setup: TestApi;
let redisProxy: TcpProxy;
let pgProxy: TcpProxy;
const apis: string[] = [];
const redirects: string[] = [];
const roles: Role[] = [];
const workers: Role[] = [];

// The six processes' own Redis namespace: the run's other test files send bad keys and unknown
// slugs from 127.0.0.1 under the run's prefix, which would count against this file's low limits.
const REDIS_NAMESPACE = `${process.env.REDIS_NAMESPACE}-scale-out`;

function start(entry: string, env: Record<string, string>): Role {
  const child = startEntry(entry, [], { MIGRATE_ON_START: 'false', TRUSTED_PROXIES: '127.0.0.1', REDIS_NAMESPACE, ...env });
  let text = '';
  child.stdout!.on('data', (d) => (text += d));
  child.stderr!.on('data', (d) => (text += d));
  const role = { child, output: () => text };
  roles.push(role);
  return role;
}

beforeAll(async () => {
  setup = await startTestApi();
  redisProxy = await startTcpProxyFor(process.env.REDIS_URL!, 6379);
  pgProxy = await startTcpProxyFor(process.env.DATABASE_URL!, 5432);
  const viaRedisProxy = redisProxy.url(process.env.REDIS_URL!);
  for (let i = 0; i < 2; i++) {
    const port = await freePort();
    start('api/server.ts', {
      PORT: String(port),
      REDIS_URL: viaRedisProxy,
      DATABASE_URL: pgProxy.url(process.env.DATABASE_URL!),
      AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT),
    });
    apis.push(`http://127.0.0.1:${port}`);
    const redirectPort = await freePort();
    start('redirect/server.ts', { REDIRECT_PORT: String(redirectPort), REDIRECT_NOT_FOUND_LIMIT: String(NOT_FOUND_LIMIT) });
    redirects.push(`http://127.0.0.1:${redirectPort}`);
    // Batches are written as they come (no linger), so the two workers' statements overlap.
    workers.push(start('workers/server.ts', { REDIS_URL: viaRedisProxy, SCAN_INGEST_LINGER_MS: '0', LOG_LEVEL: 'info' }));
  }
  await Promise.all([...apis, ...redirects].map((base) => waitForHttp(`${base}/health`, 200_000)));
  await Promise.all(
    workers.map((w) =>
      pollUntil(
        async () => w.output(),
        (t) => t.includes('"msg":"worker started"'),
        200_000,
        100,
      ),
    ),
  );
});

afterAll(async () => {
  redisProxy?.restore();
  pgProxy?.restore();
  await Promise.all(roles.map((r) => stopProcess(r.child)));
  await Promise.all([redisProxy?.close(), pgProxy?.close()]);
  await setup?.close();
});

/** An account with a key and one website link made through the first api; its key and slug. */
async function accountWithLink(name: string): Promise<{ key: string; slug: string }> {
  const { key } = await createTestAccount(setup.ctx);
  const res = await fetch(`${apis[0]}/api/v1/links`, {
    method: 'POST',
    headers: { authorization: `Basic ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, type: 'website', data: { url: 'https://example.com/' } }),
  });
  expect(res.status).toBe(200);
  return { key, slug: ((await res.json()) as { id: string }).id };
}

const VISITOR_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
/** Visitor n: its own address (a visitor key holds the user agent's family only, not the whole header). */
const visitorHeaders = (n: number) => ({ 'user-agent': VISITOR_AGENT, 'x-forwarded-for': `198.18.${n >> 8}.${n & 255}` });

describe('unique visitors with two workers', () => {
  const VISITORS = 100;
  const ROUNDS = 3;

  it('100 distinct visitors scanning through both redirects are exactly 100 unique, run after run', async () => {
    for (let run = 1; run <= 8; run++) {
      const { key, slug } = await accountWithLink(`uniques ${run}`);
      // Each visitor scans on both redirects at once, every round: both redirects' batches carry
      // every visitor, and the two workers write them at the same time.
      for (let round = 0; round < ROUNDS; round++) {
        await Promise.all(
          Array.from({ length: VISITORS }, (_, v) =>
            Promise.all(
              redirects.map(async (base) => {
                const res = await fetch(`${base}/${slug}`, { redirect: 'manual', headers: visitorHeaders(v) });
                expect(res.status).toBe(302);
              }),
            ),
          ),
        );
      }
      const general = async () => {
        const res = await fetch(`${apis[run % 2]}/api/v1/analytics/general?duration=48_hours`, {
          headers: { authorization: `Basic ${key}` },
        });
        return ((await res.json()) as { data: { numberOfScans: number; uniqueVisitors: number } }).data;
      };
      const total = VISITORS * ROUNDS * redirects.length;
      const data = await pollUntil(general, (d) => d.numberOfScans >= total, 60_000, 100);
      expect(data, `run ${run}`).toEqual({ ...data, numberOfScans: total, uniqueVisitors: VISITORS });
    }
  });
});

describe('limits shared across replicas', () => {
  it('a client over its unknown-slug allowance on one redirect is refused alike on the other', async () => {
    const { slug } = await accountWithLink('not yet scanned');
    const client = { 'x-forwarded-for': '198.51.100.201' };
    const probe = (base: string, path: string) => fetch(`${base}${path}`, { redirect: 'manual', headers: client }).then((r) => r.status);
    const statuses: number[] = [];
    for (let i = 0; i <= NOT_FOUND_LIMIT; i++) statuses.push(await probe(redirects[0]!, `/probe-${i}-${Date.now()}`));
    expect(statuses).toEqual([...Array(NOT_FOUND_LIMIT).fill(404), 429]);
    // Both redirects now answer this client the same: a link neither has cached (asked first on
    // the other redirect, before any unknown slug there could tell it), and unknown slugs.
    expect(await probe(redirects[1]!, `/${slug}`)).toBe(429);
    expect(await probe(redirects[0]!, `/${slug}`)).toBe(429);
    expect(await probe(redirects[1]!, `/probe-other-${Date.now()}`)).toBe(429);
    // Another client is not affected.
    expect((await fetch(`${redirects[1]}/${slug}`, { redirect: 'manual', headers: { 'x-forwarded-for': '198.51.100.202' } })).status).toBe(
      302,
    );
  });

  it('bad keys sent to one api count on the other', async () => {
    const client = { 'x-forwarded-for': '198.51.100.203', authorization: 'Basic qrl_not-a-key' };
    const ask = (base: string) => fetch(`${base}/api/v1/links`, { headers: client });
    for (let i = 0; i < AUTH_FAILURE_LIMIT; i++) expect((await ask(apis[i % 2]!)).status).toBe(401);
    for (const base of apis) {
      const refused = await ask(base);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});

describe('outages', () => {
  it('while Redis is unreachable both apis answer authenticated requests within 2 s (one starting a job), and workers log a few lines, not one per retry', async () => {
    const { key } = await accountWithLink('during a Redis outage');
    const before = workers.map((w) => w.output().length);
    let exportJob = '';
    redisProxy.cut();
    try {
      for (let i = 0; i < 3; i++) {
        for (const base of apis) {
          const started = Date.now();
          const res = await fetch(`${base}/api/v1/links`, {
            headers: { authorization: `Basic ${key}` },
            signal: AbortSignal.timeout(2000),
          });
          expect(res.status).toBe(200);
          expect(Date.now() - started).toBeLessThan(2000);
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      // A request that starts a job: its row is the record, the job is queued once Redis is back.
      const started = Date.now();
      const res = await fetch(`${apis[1]}/api/v1/analytics/export`, {
        method: 'POST',
        headers: { authorization: `Basic ${key}`, 'content-type': 'application/json', prefer: 'respond-async' },
        body: '{}',
        signal: AbortSignal.timeout(2000),
      });
      expect(res.status).toBe(202);
      expect(Date.now() - started).toBeLessThan(2000);
      exportJob = ((await res.json()) as { jobId: string }).jobId;
    } finally {
      redisProxy.restore();
    }
    const job = async () =>
      (
        (await (await fetch(`${apis[0]}/api/v1/jobs/${exportJob}`, { headers: { authorization: `Basic ${key}` } })).json()) as {
          state: string;
        }
      ).state;
    expect(await pollUntil(job, (state) => state === 'completed', 30_000, 200)).toBe('completed');
    // About 3.5 s of outage: the connection lost, a throttled error line per worker, not 13-25 a second.
    for (const [i, worker] of workers.entries()) {
      const lines = worker
        .output()
        .slice(before[i])
        .split('\n')
        .filter((l) => /"level":(40|50)/.test(l));
      expect(lines.length, lines.join('\n')).toBeLessThanOrEqual(4);
    }
  });

  it('while Postgres is unreachable the api answers 503 with Retry-After in the documented body', async () => {
    const { key } = await accountWithLink('during a Postgres outage');
    pgProxy.cut();
    try {
      for (const base of apis) {
        const res = await fetch(`${base}/api/v1/links`, { headers: { authorization: `Basic ${key}` } });
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await res.json()).toEqual({ code: 'service_unavailable', message: expect.stringMatching(/temporarily unavailable/) });
      }
    } finally {
      pgProxy.restore();
    }
    const back = await pollUntil(
      () => fetch(`${apis[0]}/api/v1/links`, { headers: { authorization: `Basic ${key}` } }).then((r) => r.status),
      (s) => s === 200,
      20_000,
      200,
    );
    expect(back).toBe(200);
  });
});
