/**
 * The redirect process keeps answering and loses no scan while what is behind it fails, run as
 * the real entries (redirect/server.ts and workers/server.ts) in child processes, with Postgres
 * and Redis reached through TCP proxies that play the outages:
 *   - Postgres away (12 s, past the in-process link cache's 5 s twice over; 30 s with
 *     TEST_FULL_SAMPLES=1): cached links keep resolving; their scans land once it is back;
 *   - Redis away: cached links keep resolving (and uncached ones from Postgres); scans wait in
 *     the recorder's buffer and land once it is back;
 *   - SIGTERM of a redirect process under load: every scan it answered lands;
 *   - SIGKILL of one under load: every scan it answered lands once the next one starts (the
 *     write-ahead files it left are sent then), and none twice;
 *   - Redis wiped under a backlog (no worker running): every scan answered before lands once a
 *     worker starts, sent again from the write-ahead files kept until Postgres has them.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeScanBatch } from '#domain/scans/batch.js';
import { createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { exited, freePort, startEntry, stopProcess, waitForHttp } from '../../support/processes.js';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy.js';
import { FULL_SAMPLES } from '../../support/env.js';
import { pollUntil } from '../../support/until.js';

const PREFIX = `qrlinks-test-scanpath-${randomUUID().slice(0, 8)}`;
/** How long Postgres stays away: past LINK_CACHE_TTL_MS (5 s) twice over, so the links come from Redis. */
const PG_OUTAGE_MS = FULL_SAMPLES ? 30_000 : 12_000;

let api: TestApi;
let me: TestAccount;
let pg: TcpProxy;
let redis: TcpProxy;
let env: Record<string, string>;

beforeAll(async () => {
  api = await startTestApi({ REDIS_NAMESPACE: PREFIX });
  me = await createTestAccount(api.ctx);
  const pgUrl = new URL(process.env.DATABASE_URL!);
  const redisUrl = new URL(process.env.REDIS_URL!);
  pg = await startTcpProxy(pgUrl.hostname, Number(pgUrl.port || 5432));
  redis = await startTcpProxy(redisUrl.hostname, Number(redisUrl.port || 6379));
  env = {
    REDIS_NAMESPACE: PREFIX,
    DATABASE_URL: pg.url(process.env.DATABASE_URL!),
    REDIS_URL: redis.url(process.env.REDIS_URL!),
    MIGRATE_ON_START: 'false',
    SCAN_SPOOL_DIR: await mkdtemp(join(tmpdir(), 'qrlinks-spool-')),
  };
});
afterAll(async () => {
  await pg?.close();
  await redis?.close();
  await api?.ctx.queues.scans.obliterate({ force: true }).catch(() => {});
  await api?.close();
});

async function startRedirect() {
  const port = await freePort();
  const child = startEntry('redirect/server.ts', [], { ...env, REDIRECT_PORT: String(port) });
  // A crash of the process under test shows in the test's output, not as a bare "fetch failed".
  child.stderr!.on('data', (d) => process.stderr.write(`[redirect] ${d}`));
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/health`);
  return {
    child,
    base,
    scan: (slug: string) =>
      fetch(`${base}/${slug}`, {
        redirect: 'manual',
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' },
      }),
  };
}

const website = async () =>
  (await createLinkVia(api.app, me.key, { name: 'Durable', type: 'website', data: { url: 'https://example.com/d' } })).slug;

async function scanCount(slugs: string[]): Promise<number> {
  const { rows } = await api.ctx.database.pool.query<{ n: number }>(
    'select count(*)::int as n from scans s join links l on l.id = s.link_id where l.slug = any($1)',
    [slugs],
  );
  return rows[0]!.n;
}

async function untilScans(slugs: string[], expected: number, timeoutMs = 60_000): Promise<number> {
  const end = Date.now() + timeoutMs;
  let n = 0;
  while (Date.now() < end) {
    n = await scanCount(slugs);
    if (n >= expected) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // Nothing more than expected arrives either.
  await new Promise((r) => setTimeout(r, 500));
  return scanCount(slugs);
}

/**
 * 16 clients scan the slug as fast as they can; after 1.5 s the process gets `signal`. How many
 * scans it answered, and how many requests got no answer (in flight when it stopped: each may
 * have been written ahead, so it may land, though its client never heard).
 */
async function scanUntilStopped(
  redirect: Awaited<ReturnType<typeof startRedirect>>,
  slug: string,
  signal: NodeJS.Signals,
): Promise<{ answered: number; unanswered: number }> {
  let answered = 0;
  let unanswered = 0;
  const load = async () => {
    for (;;) {
      try {
        const res = await redirect.scan(slug);
        if (res.status !== 302) return;
        answered++;
      } catch {
        unanswered++;
        return; // the process has stopped taking requests, or is gone
      }
    }
  };
  const clients = Array.from({ length: 16 }, load);
  // Under load until it has answered 150: a fixed 1.5 s was too short on a busy machine,
  // where the first answers (links and caches still cold) can take most of it.
  const until = Date.now() + 30_000;
  while (answered < 150 && unanswered === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  redirect.child.kill(signal);
  await Promise.all(clients);
  return { answered, unanswered };
}

describe('the scan path through outages', () => {
  it('Postgres away past the link caches: cached links keep resolving and every scan lands after', { timeout: 150_000 }, async () => {
    const slugs = [await website(), await website()];
    const redirect = await startRedirect();
    const worker = startEntry('workers/server.ts', [], env);
    try {
      let sent = 0;
      for (const slug of slugs) {
        expect((await redirect.scan(slug)).status).toBe(302);
        sent++;
      }
      pg.cut();
      const statuses: number[] = [];
      const until = Date.now() + PG_OUTAGE_MS;
      while (Date.now() < until) {
        for (const slug of slugs) {
          statuses.push((await redirect.scan(slug)).status);
          sent++;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(statuses.every((s) => s === 302)).toBe(true);
      // Nothing could be written meanwhile.
      expect(await scanCount(slugs)).toBeLessThanOrEqual(2);
      pg.restore();
      expect(await untilScans(slugs, sent)).toBe(sent);
    } finally {
      pg.restore();
      await stopProcess(redirect.child);
      await stopProcess(worker);
    }
  });

  it('Redis away: links keep resolving, scans wait in the buffer and land when it returns', { timeout: 90_000 }, async () => {
    const cached = await website();
    const uncached = await website();
    const redirect = await startRedirect();
    const worker = startEntry('workers/server.ts', [], env);
    try {
      expect((await redirect.scan(cached)).status).toBe(302);
      redis.cut();
      let sent = 1;
      const statuses: number[] = [];
      const until = Date.now() + 8_000;
      while (Date.now() < until) {
        for (const slug of [cached, uncached]) {
          statuses.push((await redirect.scan(slug)).status);
          sent++;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(statuses.every((s) => s === 302)).toBe(true);
      expect(await scanCount([cached, uncached])).toBeLessThanOrEqual(1);
      redis.restore();
      expect(await untilScans([cached, uncached], sent)).toBe(sent);
    } finally {
      redis.restore();
      await stopProcess(redirect.child);
      await stopProcess(worker);
    }
  });

  it('SIGTERM under load: every scan the redirect process answered lands', { timeout: 60_000 }, async () => {
    const slug = await website();
    const redirect = await startRedirect();
    const worker = startEntry('workers/server.ts', [], env);
    try {
      const { answered } = await scanUntilStopped(redirect, slug, 'SIGTERM');
      await exited(redirect.child);
      expect(answered).toBeGreaterThan(100);
      expect(await untilScans([slug], answered)).toBe(answered);
    } finally {
      await stopProcess(redirect.child);
      await stopProcess(worker);
    }
  });

  it('SIGKILL under load: every scan the redirect process answered lands after the next start, once', { timeout: 90_000 }, async () => {
    const slug = await website();
    const redirect = await startRedirect();
    const worker = startEntry('workers/server.ts', [], env);
    let next: Awaited<ReturnType<typeof startRedirect>> | undefined;
    try {
      const { answered, unanswered } = await scanUntilStopped(redirect, slug, 'SIGKILL');
      await exited(redirect.child);
      expect(answered).toBeGreaterThan(100);
      // The next process on this machine sends what the killed one had written ahead: every
      // answered scan, and perhaps some whose answer the kill cut off; none twice.
      next = await startRedirect();
      const landed = await untilScans([slug], answered);
      expect(landed).toBeGreaterThanOrEqual(answered);
      expect(landed).toBeLessThanOrEqual(answered + unanswered);
    } finally {
      if (next) await stopProcess(next.child);
      await stopProcess(redirect.child);
      await stopProcess(worker);
    }
  });

  it('Redis wiped under a backlog: every scan answered before lands once a worker starts, once', { timeout: 150_000 }, async () => {
    const slugs = [await website(), await website(), await website()];
    const redirect = await startRedirect();
    let worker: ReturnType<typeof startEntry> | undefined;
    const wiper = new Redis(process.env.REDIS_URL!);
    try {
      // No worker: the answered scans wait in Redis, a backlog.
      const total = 2000;
      let answered = 0;
      const load = async () => {
        while (answered < total) {
          const slug = slugs[answered % slugs.length]!;
          answered++;
          expect((await redirect.scan(slug)).status).toBe(302);
        }
      };
      await Promise.all(Array.from({ length: 16 }, load));
      const { rows: links } = await api.ctx.database.pool.query<{ id: string }>('select id from links where slug = any($1)', [slugs]);
      const ours = new Set(links.map((l) => l.id));
      // Of these links only: a redirect of an earlier test may have left batches of its own to send.
      const queuedScans = async () =>
        (await api.ctx.queues.scans.getJobs(['waiting', 'prioritized', 'delayed']))
          .flatMap((j) => decodeScanBatch(j.data))
          .filter((scan) => ours.has(scan.linkId)).length;
      expect(await pollUntil(queuedScans, (n) => n === total)).toBe(total);

      // Everything the service keeps in Redis is lost, the queued batches with it.
      let cursor = '0';
      do {
        const [next, keys] = await wiper.scan(cursor, 'MATCH', `${PREFIX}:*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) await wiper.del(...keys);
      } while (cursor !== '0');
      expect(await queuedScans()).toBe(0);

      worker = startEntry('workers/server.ts', [], env);
      expect(await untilScans(slugs, total, 90_000)).toBe(total);
      const { rows } = await api.ctx.database.pool.query<{ n: number }>(
        'select sum(c.scan_count)::int as n from link_counters c join links l on l.id = c.link_id where l.slug = any($1)',
        [slugs],
      );
      expect(rows[0]!.n).toBe(total);
      // Once Postgres has them, the redirect lets its write-ahead files go.
      const walFiles = async () => (await readdir(env.SCAN_SPOOL_DIR!)).filter((n) => n.startsWith('wal-')).length;
      expect(await pollUntil(walFiles, (n) => n === 0, 20_000, 200)).toBe(0);
    } finally {
      wiper.disconnect();
      await stopProcess(redirect.child);
      if (worker) await stopProcess(worker);
    }
  });
});
