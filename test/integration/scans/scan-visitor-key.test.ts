/**
 * Unique-visitor keys against the real Redis: one salt per UTC day shared by every redirect
 * process through Redis (created there once, expiring after its day), keys that tell visitors
 * apart and recognise them within a day, a new salt each day (the clock is injected), and scans
 * that keep their keys while Redis is unreachable (played by a TCP proxy that resets every
 * connection).
 */
import { UNKNOWN_ORIGIN } from '#domain/scans/batch.js';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '#platform/logger.js';
import { createFailFastRedis } from '#platform/redis/client.js';
import { decodeScanBatch } from '#domain/scans/batch.js';
import { ScanRecorder } from '#infra/scans/recorder.js';
import { createDatabase } from '#infra/database.js';
import { newScanId } from '#domain/scans/scan-id.js';
import type { ScanBatchPayload } from '#domain/scans/types.js';
import { VisitorKeys, visitorKey, visitorSalt, visitorSaltKey } from '#domain/scans/visitor-key.js';
import { startTcpProxyFor, type TcpProxy } from '../../support/tcp-proxy.js';
import { recordScan } from '../../support/record-scan.js';
import { until } from '../../support/until.js';

const REDIS_URL = process.env.REDIS_URL!;
const logger = createLogger({ LOG_LEVEL: 'silent' }, 'test');
const DAY_MS = 86_400_000;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36';

let proxy: TcpProxy;
let connection: Redis;
const prefixes: string[] = [];
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  proxy = await startTcpProxyFor(REDIS_URL, 6379);
  connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
});
afterEach(async () => {
  proxy.restore();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  for (const prefix of prefixes) {
    const keys = await connection.keys(`${prefix}:*`);
    if (keys.length > 0) await connection.del(...keys);
  }
  await proxy.close();
  await connection.quit();
});

/** A queue prefix of the test's own, so no other test's salts or jobs are seen. */
function newPrefix(): string {
  const prefix = `${process.env.REDIS_NAMESPACE}-visitor-key-${randomUUID().slice(0, 8)}`;
  prefixes.push(prefix);
  return prefix;
}

/** A started VisitorKeys on its own fail-fast connection, as a redirect process has one. */
async function startKeys(prefix: string, opts: { now?: () => number; viaProxy?: boolean; waitMs?: number } = {}) {
  const redis = createFailFastRedis(opts.viaProxy ? proxy.url(REDIS_URL) : REDIS_URL);
  const keys = new VisitorKeys({ redis, prefix, logger, now: opts.now });
  cleanups.push(() => (keys.stop(), redis.disconnect()));
  await keys.start(opts.waitMs);
  return { keys, redis };
}

const dayOf = (at: number) => Math.floor(at / DAY_MS);

describe('visitorKey', () => {
  const salt = visitorSalt(20_000, randomBytes(32), true);

  it('is the first 16 bytes of SHA-256(salt, address, newline, user-agent family), base64url', () => {
    const key = visitorKey(salt, '203.0.113.9', IPHONE);
    const digest = createHash('sha256')
      .update(`${salt.bytes.toString('base64')}203.0.113.9\nios`)
      .digest();
    expect(key).toBe(digest.subarray(0, 16).toString('base64url'));
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // Many keys: the 22nd character never carries bits past the 16th byte.
    for (let i = 0; i < 200; i++) {
      const address = `198.51.100.${i}`;
      const full = createHash('sha256').update(`${salt.prefix}${address}\nandroid`).digest();
      expect(visitorKey(salt, address, ANDROID)).toBe(full.subarray(0, 16).toString('base64url'));
    }
  });

  it('tells apart addresses (an IPv6 address whole, not by /64) and user agents; a dual-stack IPv4 address is its IPv4 address', () => {
    const keys = [
      visitorKey(salt, '203.0.113.9', IPHONE),
      visitorKey(salt, '203.0.113.10', IPHONE),
      visitorKey(salt, '203.0.113.9', ANDROID),
      visitorKey(salt, '2001:db8:1:2::1', IPHONE),
      visitorKey(salt, '2001:db8:1:2::2', IPHONE),
      visitorKey(salt, '203.0.113.9', undefined),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(visitorKey(salt, '::ffff:203.0.113.9', IPHONE)).toBe(keys[0]);
    expect(visitorKey(salt, '203.0.113.9', undefined)).toBe(visitorKey(salt, '203.0.113.9', ''));
    expect(visitorKey(visitorSalt(salt.day, randomBytes(32), true), '203.0.113.9', IPHONE)).not.toBe(keys[0]);
  });

  it('one address rotating its User-Agent through 30 browsers and versions makes at most 7 visitors', () => {
    const agents = [
      ...[120, 121, 122, 123, 124, 125].map(
        (v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`,
      ),
      ...[118, 119, 120, 121].map((v) => `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${v}.0) Gecko/20100101 Firefox/${v}.0`),
      ...[15, 16, 17].map(
        (v) => `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${v}.0 Safari/605.1.15`,
      ),
      ...[15, 16, 17].map((v) => IPHONE.replace('17_5', `${v}_0`)),
      ...[12, 13, 14].map((v) => ANDROID.replace('Android 14', `Android ${v}`)),
      'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/121.0.0.0 Safari/537.36',
      'curl/8.5.0',
      'python-requests/2.31.0',
      'Wget/1.21.4',
      'Go-http-client/1.1',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Opera/9.80 (J2ME/MIDP; Opera Mini/9.80; U; en) Presto/2.12.423 Version/12.16',
      'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko)',
      'a-made-up-agent/1.0',
    ];
    expect(new Set(agents).size).toBe(30);
    const keys = new Set(agents.map((agent) => visitorKey(salt, '203.0.113.9', agent)));
    expect(keys.size).toBeLessThanOrEqual(7);
    // Devices of different systems behind one address still count apart.
    expect(keys.size).toBeGreaterThanOrEqual(6);
  });
});

describe('VisitorKeys: the day salt in Redis', () => {
  it('gives the same key to the same address and user agent all day, in every process sharing Redis', async () => {
    const prefix = newPrefix();
    const [first, second] = [await startKeys(prefix), await startKeys(prefix)];
    const now = Date.now();
    const key = first.keys.keyOf('203.0.113.9', IPHONE, now);
    expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(second.keys.keyOf('203.0.113.9', IPHONE, now + 1)).toBe(key);
    // Later the same UTC day, in either process.
    const dayEnd = (dayOf(now) + 1) * DAY_MS - 1;
    expect(first.keys.keyOf('203.0.113.9', IPHONE, dayEnd)).toBe(key);
    expect(second.keys.keyOf('203.0.113.9', IPHONE, dayEnd)).toBe(key);
    // Another address or another browser is another visitor.
    expect(second.keys.keyOf('203.0.113.10', IPHONE, now)).not.toBe(key);
    expect(second.keys.keyOf('203.0.113.9', ANDROID, now)).not.toBe(key);
    expect(first.keys.saltFor(dayOf(now))?.shared).toBe(true);
  });

  it("keeps today's and tomorrow's salt in Redis as 32 bytes that expire just after their day", async () => {
    const prefix = newPrefix();
    const { keys } = await startKeys(prefix);
    const today = dayOf(Date.now());
    for (const day of [today, today + 1]) {
      const stored = await connection.getBuffer(visitorSaltKey(prefix, day));
      expect(stored).toHaveLength(32);
      expect(keys.saltFor(day)?.bytes.equals(stored!)).toBe(true);
      const expiresAt = Date.now() + (await connection.pttl(visitorSaltKey(prefix, day)));
      // Ten minutes after the day ends (replicas whose clock lags a little), never longer than two days.
      expect(expiresAt).toBeGreaterThan((day + 1) * DAY_MS);
      expect(Math.abs(expiresAt - ((day + 1) * DAY_MS + 600_000))).toBeLessThan(5_000);
      expect(expiresAt - Date.now()).toBeLessThanOrEqual(2 * DAY_MS + 600_000);
    }
    expect(visitorSaltKey(prefix, today)).toBe(`${prefix}:visitor-salt:${new Date().toISOString().slice(0, 10)}`);
    expect(await connection.keys(`${prefix}:visitor-salt:*`)).toHaveLength(2);
  });

  it('a new UTC day brings a new salt, fetched the day before, and new keys', async () => {
    const prefix = newPrefix();
    // A day well ahead of now, so Redis (on the real clock) keeps the salts the test makes for it.
    const day = dayOf(Date.now()) + 30;
    let clock = (day + 1) * DAY_MS - 30_000; // 23:59:30
    const { keys } = await startKeys(prefix, { now: () => clock });
    const before = keys.keyOf('203.0.113.9', IPHONE, clock);
    const tomorrow = keys.saltFor(day + 1);
    expect(tomorrow?.shared).toBe(true);

    clock = (day + 1) * DAY_MS + 10_000; // 00:00:10
    const after = keys.keyOf('203.0.113.9', IPHONE, clock);
    expect(after).not.toBe(before);
    expect(keys.saltFor(day + 1)).toBe(tomorrow);
    expect(after).toBe(visitorKey(tomorrow!, '203.0.113.9', IPHONE));
    // The new day set off a refresh: the day after is fetched.
    await until(() => keys.saltFor(day + 2) !== undefined);
    // A process started on the new day uses the same salt.
    const { keys: other } = await startKeys(prefix, { now: () => clock });
    expect(other.keyOf('203.0.113.9', IPHONE, clock)).toBe(after);
    // A request that began just before midnight still gets the old day's key.
    expect(keys.keyOf('203.0.113.9', IPHONE, (day + 1) * DAY_MS - 1)).toBe(before);
    // Ten minutes into the day, when Redis lets the old salt go, the process forgets it too.
    expect(keys.saltFor(day)).toBeDefined();
    clock = (day + 1) * DAY_MS + 600_000;
    await keys.refresh();
    expect(keys.saltFor(day)).toBeUndefined();
    expect(keys.saltFor(day + 1)).toBe(tomorrow);
  });

  it('without Redis a process keys scans with a salt of its own at once, and takes the shared salt when Redis is back', async () => {
    const prefix = newPrefix();
    const { keys: shared } = await startKeys(prefix);
    proxy.cut();
    // Starts while Redis stays cut off: it did not wait for Redis to come back.
    const { keys: cutOff } = await startKeys(prefix, { viaProxy: true, waitMs: 200 });
    const now = Date.now();
    // keyOf is synchronous: a key is made at once, never after a Redis round trip.
    const fallback = cutOff.keyOf('203.0.113.9', IPHONE, now);
    expect(fallback).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(cutOff.saltFor(dayOf(now))?.shared).toBe(false);
    // Uniques of this process count apart meanwhile: its key is not the shared one.
    expect(fallback).not.toBe(shared.keyOf('203.0.113.9', IPHONE, now));
    expect(cutOff.keyOf('203.0.113.9', IPHONE, now + 1000)).toBe(fallback);

    proxy.restore();
    await until(() => cutOff.saltFor(dayOf(now))?.shared === true);
    expect(cutOff.keyOf('203.0.113.9', IPHONE, now)).toBe(shared.keyOf('203.0.113.9', IPHONE, now));
  });

  it("a salt made while Redis was away becomes the day's salt if no process stored one meanwhile", async () => {
    const prefix = newPrefix();
    proxy.cut();
    const { keys } = await startKeys(prefix, { viaProxy: true, waitMs: 200 });
    const now = Date.now();
    const fallback = keys.keyOf('203.0.113.9', IPHONE, now);
    const own = keys.saltFor(dayOf(now))!;
    expect(own.shared).toBe(false);
    proxy.restore();
    await until(() => keys.saltFor(dayOf(now))?.shared === true);
    expect((await connection.getBuffer(visitorSaltKey(prefix, dayOf(now))))!.equals(own.bytes)).toBe(true);
    // No visitor of this process counts twice: its key did not change.
    expect(keys.keyOf('203.0.113.9', IPHONE, now)).toBe(fallback);
  });

  it('scans recorded while Redis is unreachable keep their fallback keys and reach the queue when it is back', async () => {
    const prefix = newPrefix();
    const spool = await mkdtemp(join(tmpdir(), 'qrlinks-spool-'));
    cleanups.push(() => rm(spool, { recursive: true, force: true }));
    // Where workers acknowledge written batches; the recorder asks it before deleting its files.
    const database = createDatabase(process.env.DATABASE_URL!, 1);
    cleanups.push(() => database.close());
    const recorder = new ScanRecorder(
      {
        REDIS_URL: proxy.url(REDIS_URL),
        REDIS_NAMESPACE: prefix,
        SCAN_FLUSH_MS: 10,
        SCAN_BATCH_SIZE: 1000,
        SCAN_BUFFER_MAX: 1000,
        SCAN_SPOOL_DIR: spool,
        SCAN_WRITE_AHEAD: true,
        SCAN_SPOOL_MAX_MB: 1024,
      },
      logger,
      database.pool,
    );
    cleanups.push(() => recorder.close());
    await recorder.start();
    const queue = new Queue<ScanBatchPayload>('scans', { connection, prefix });
    cleanups.push(() => queue.close());
    proxy.cut();
    const { keys } = await startKeys(prefix, { viaProxy: true, waitMs: 200 });
    const visitor = Object.freeze({
      browserName: 'Mobile Safari',
      deviceType: 'mobile',
      deviceVendor: 'Apple',
      osName: 'iOS',
      countryName: null,
      region: null,
      city: null,
      isBot: false,
    });
    const scans = ['203.0.113.9', '203.0.113.10', '203.0.113.9'].map((address) => {
      const at = Date.now();
      return {
        id: newScanId(at),
        linkId: randomUUID(),
        accountId: randomUUID(),
        at,
        visitor,
        visitorKey: keys.keyOf(address, IPHONE, at),
        origin: UNKNOWN_ORIGIN,
      };
    });
    for (const scan of scans) void recordScan(recorder, scan);
    expect(recorder.stats()).toMatchObject({ buffered: 3, dropped: 0 });

    proxy.restore();
    await until(() => recorder.stats().flushed === 3);
    const queued = (await queue.getJobs(['waiting'])).flatMap((job) => decodeScanBatch(job.data));
    expect(queued.map((s) => s.visitorKey)).toEqual(scans.map((s) => s.visitorKey));
    expect(queued[0]!.visitorKey).toBe(queued[2]!.visitorKey);
    expect(queued[0]!.visitorKey).not.toBe(queued[1]!.visitorKey);
    await queue.obliterate({ force: true });
  });
});
