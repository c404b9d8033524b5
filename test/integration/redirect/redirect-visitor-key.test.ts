/**
 * Visitor keys on the real scan path: two redirect apps (two processes' worth of connections,
 * recorders and salt caches) over HTTP, sharing one Redis; their batches on the `scans` queue,
 * then the real workers writing them to Postgres, where no salt and no address may end up.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeScanBatch } from '#domain/scans/batch.js';
import type { ScanEvent } from '#domain/scans/types.js';
import { visitorKey, visitorSalt, visitorSaltKey } from '#domain/scans/visitor-key.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';
/** Its own queue prefix: no worker of another test file takes these batches before they are read. */
const PREFIX = `${process.env.REDIS_NAMESPACE}-visitor-keys-${randomUUID().slice(0, 8)}`;
/**
 * And its own spool folder: a redirect takes over every write-ahead file it finds in its folder
 * (decision 0385) and queues it under its own prefix, so in the worker's shared folder the files an
 * earlier test file's redirect left would be sent here, and read below as if they were these scans.
 */
let spool: string;

let api: TestApi;
let me: TestAccount;
let redirects: TestRedirect[] = [];
let workers: RunningWorkers | undefined;
let connection: Redis;

beforeAll(async () => {
  spool = await mkdtemp(join(tmpdir(), 'qrlinks-visitor-keys-spool-'));
  api = await startTestApi({ REDIS_NAMESPACE: PREFIX, TRUSTED_PROXIES: '127.0.0.1', SCAN_SPOOL_DIR: spool });
  me = await createTestAccount(api.ctx);
  redirects = [await startTestRedirect(api.ctx), await startTestRedirect(api.ctx)];
  connection = new Redis(process.env.REDIS_URL!);
});
afterAll(async () => {
  for (const redirect of redirects) await redirect.close();
  await workers?.close();
  await api.ctx.queues.scans.obliterate({ force: true });
  await api.close();
  const keys = await connection.keys(`${PREFIX}:visitor-salt:*`);
  if (keys.length > 0) await connection.del(...keys);
  await connection.quit();
  await rm(spool, { recursive: true, force: true });
});

const createLink = () => createLinkVia(api.app, me.key, { name: 'Table', type: 'website', data: { url: 'https://example.com/menu' } });

async function queuedScans(count: number): Promise<ScanEvent[]> {
  const end = Date.now() + 10_000;
  for (;;) {
    const scans = (await api.ctx.queues.scans.getJobs(['waiting'])).flatMap((job) => decodeScanBatch(job.data));
    if (scans.length >= count || Date.now() > end) return scans;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('visitor keys on the scan path', () => {
  const visits = [
    { redirect: 0, address: '203.0.113.9', agent: IPHONE },
    { redirect: 1, address: '203.0.113.9', agent: IPHONE }, // the same visitor through another process
    { redirect: 0, address: '203.0.113.10', agent: IPHONE }, // another address
    { redirect: 1, address: '203.0.113.9', agent: ANDROID }, // another browser
    { redirect: 1, address: '2001:db8:7:7::1', agent: IPHONE },
    { redirect: 0, address: '2001:db8:7:7::2', agent: IPHONE }, // same /64, another device
  ];
  let links: Array<{ id: string; slug: string }> = [];
  let keyOf = new Map<string, string | null | undefined>();

  it('every scan carries the key of its address and user agent under the day salt both processes share', async () => {
    // One link per visit, so each queued scan is known by its link.
    links = await Promise.all(visits.map(() => createLink()));
    for (const [i, visit] of visits.entries()) {
      const res = await redirects[visit.redirect]!.get(`/${links[i]!.slug}`, {
        headers: { 'user-agent': visit.agent, 'x-forwarded-for': visit.address },
      });
      expect(res.status).toBe(302);
    }
    const scans = await queuedScans(visits.length);
    expect(scans).toHaveLength(visits.length);
    keyOf = new Map(scans.map((s) => [s.linkId, s.visitorKey]));
    const keys = links.map((l) => keyOf.get(l.id));
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(new Set([keys[0], keys[2], keys[3], keys[4], keys[5]]).size).toBe(5);

    // The salt is today's in Redis: the same computation gives the same keys.
    const day = Math.floor(Date.now() / 86_400_000);
    const salt = visitorSalt(day, (await connection.getBuffer(visitorSaltKey(PREFIX, day)))!, true);
    expect(keys).toEqual(visits.map((v) => visitorKey(salt, v.address, v.agent)));
  });

  it('the salt stays in Redis, expiring; neither it nor an address reaches Postgres', async () => {
    workers = await startWorkers(api.ctx);
    const ids = links.map((l) => l.id);
    const end = Date.now() + 15_000;
    let rows: Array<{ row: string }> = [];
    while (rows.length < visits.length && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 50));
      ({ rows } = await api.ctx.database.pool.query<{ row: string }>(
        'select row_to_json(scans)::text as row from scans where link_id = any($1::uuid[])',
        [ids],
      ));
    }
    expect(rows).toHaveLength(visits.length);

    const day = Math.floor(Date.now() / 86_400_000);
    const saltKey = visitorSaltKey(PREFIX, day);
    const salt = (await connection.getBuffer(saltKey))!;
    expect(salt).toHaveLength(32);
    expect(await connection.pttl(saltKey)).toBeGreaterThan(0);

    const { rows: columns } = await api.ctx.database.pool.query(
      "select table_name, column_name from information_schema.columns where table_schema = 'public' and column_name ilike '%salt%'",
    );
    expect(columns).toEqual([]);
    const forbidden = [salt.toString('base64'), salt.toString('base64url'), salt.toString('hex'), ...new Set(visits.map((v) => v.address))];
    for (const { row } of rows) for (const text of forbidden) expect(row).not.toContain(text);
  });
});
