/**
 * Unknown slugs on the redirect: each client address (an IPv6 /64 as one) gets
 * REDIRECT_NOT_FOUND_LIMIT 404s per window, then a 429 HTML page with Retry-After; valid scans
 * never count. The "no such slug" cache is bounded in Redis and in process, and probes never push
 * real links out. Real api, redirect app, Redis and Postgres.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkCacheKeys } from '#domain/links/resolve/keys.js';
import { LinkResolver } from '#domain/links/resolve/link-resolver.js';
import { createRedis } from '#platform/redis/client.js';
import { Invalidations } from '#platform/redis/invalidations.js';
import { CONTENT_SECURITY_POLICY } from '#redirect/pages/index.js';
import { startScanStack, type ScanStack } from '../../support/redirect.js';

const LIMIT = 5;
let stack: ScanStack;

beforeAll(async () => {
  // Every scan misses the in-process cache (1 ms), so what a blocked client may still open comes from Redis.
  stack = await startScanStack({ TRUSTED_PROXIES: '127.0.0.1', REDIRECT_NOT_FOUND_LIMIT: String(LIMIT), LINK_CACHE_TTL_MS: '1' });
});
afterAll(() => stack?.close());

const randomSlug = () => `probe-${randomBytes(6).toString('hex')}`;
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });
const scan = (path: string, ip: string) => stack.redirect.get(path, from(ip));
/** A documentation-range address no other test uses. */
let nextHost = 1;
const freshIpv4 = () => `198.51.100.${nextHost++}`;

async function probe(ip: string, n: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await scan(`/${randomSlug()}`, ip)).status);
  return statuses;
}

describe('/robots.txt', () => {
  it("is text that keeps crawlers from protected links' files, and never counts as an unknown slug", async () => {
    const ip = freshIpv4();
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await scan('/robots.txt', ip);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await res.text()).toBe('User-agent: *\nDisallow: /*/files/\nAllow: /\n');
    }
    expect(await probe(ip, 1)).toEqual([404]);
  });
});

describe('unknown slugs per client address', () => {
  it(`${LIMIT} 404s, then a 429 page with Retry-After; another address is not affected`, async () => {
    const ip = freshIpv4();
    expect(await probe(ip, LIMIT)).toEqual(Array(LIMIT).fill(404));
    const refused = await scan(`/${randomSlug()}`, ip);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await refused.text()).toMatch(/too many unknown links/i);
    // Also unknown paths that are not slugs, and slugs that cannot exist.
    expect((await scan('/a/b/c', ip)).status).toBe(429);
    expect((await scan('/not%20a%20slug', ip)).status).toBe(429);
    expect(await probe(freshIpv4(), 1)).toEqual([404]);
  });

  it('an IPv6 /64 is one client', async () => {
    expect(await probe('2001:db8:aa:1::1', LIMIT)).toEqual(Array(LIMIT).fill(404));
    expect(await probe('2001:db8:aa:1:ffff:ffff:ffff:fffe', 1)).toEqual([429]);
    expect(await probe('2001:db8:aa:2::1', 1)).toEqual([404]);
  });

  it('valid scans never count: many phones behind one address scan a code, and a 404 is still a 404', async () => {
    const link = await stack.createLink({ name: 'Menu', type: 'website', data: { url: 'https://example.com/menu' } });
    const venue = freshIpv4();
    for (let i = 0; i < 4 * LIMIT; i++) expect((await scan(`/${link.slug}`, venue)).status).toBe(302);
    expect(await probe(venue, 1)).toEqual([404]);
  });

  it('a blocked client still opens links scanned lately (held in Redis), and costs Postgres nothing for the rest', async () => {
    const popular = await stack.createLink({ name: 'Popular', type: 'website', data: { url: 'https://example.com/popular' } });
    const unseen = await stack.createLink({ name: 'Unseen', type: 'website', data: { url: 'https://example.com/unseen' } });
    expect((await scan(`/${popular.slug}`, freshIpv4())).status).toBe(302);
    const ip = freshIpv4();
    await probe(ip, LIMIT + 1);
    expect((await scan(`/${popular.slug}`, ip)).headers.get('location')).toBe('https://example.com/popular');
    // Not in Redis: this client's lookups do not reach Postgres while it is blocked.
    expect((await scan(`/${unseen.slug}`, ip)).status).toBe(429);
    expect((await scan(`/${unseen.slug}`, freshIpv4())).status).toBe(302);
  });

  it('no raw address in Redis: clients are counted under a hash', async () => {
    const ip = '203.0.113.77';
    await probe(ip, 1);
    const keys = await stack.api.ctx.redis.keys(`${stack.api.ctx.config.REDIS_NAMESPACE}:redirect-not-found:*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toMatch(/203\.0\.113|198\.51\.100|2001:db8/);
  });
});

/**
 * A started resolver of its own, on its own Redis key prefix and connections, with room for 1000
 * links and 20 "no such slug" answers (10 of them new in Redis per minute); `close` deletes its keys.
 */
async function startResolver(
  name: string,
  localTtlMs: number,
  subscribedRefreshMs = localTtlMs,
  localMaxBytes = 1 << 20,
  now?: () => number,
) {
  const prefix = `${stack.api.ctx.config.REDIS_NAMESPACE}-${name}-${Date.now()}`;
  const keys = linkCacheKeys(prefix);
  const redis = createRedis(stack.api.ctx.config.REDIS_URL);
  const subscriber = createRedis(stack.api.ctx.config.REDIS_URL);
  const resolver = new LinkResolver(
    {
      redis,
      invalidations: new Invalidations(subscriber, stack.api.ctx.logger),
      pool: stack.api.ctx.database.pool,
      keys,
      logger: stack.api.ctx.logger,
      now,
    },
    {
      localTtlMs,
      subscribedRefreshMs,
      localMax: 1000,
      localMaxBytes,
      redisTtlSeconds: 60,
      missingTtlSeconds: 60,
      missingRedisMax: 10,
      missingLocalMax: 20,
    },
  );
  const close = async () => {
    const all = await redis.keys(`${prefix}:*`);
    if (all.length) await redis.del(...all);
    subscriber.disconnect();
    redis.disconnect();
  };
  try {
    await resolver.start();
  } catch (err) {
    await close();
    throw err;
  }
  return { prefix, keys, redis, subscriber, resolver, close };
}

describe('the "no such slug" cache is bounded', () => {
  it('at most missingRedisMax new Redis entries per window, at most missingLocalMax in process, and links stay cached', async () => {
    // One budget window for all 200 probes: the middle of a minute, on a clock that stands still
    // (at a minute's turn they would fill two windows, 20 entries, as one CI run saw).
    const midWindow = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;
    const { prefix, redis, resolver, close } = await startResolver('bound', 60_000, 60_000, undefined, () => midWindow);
    try {
      const link = await stack.createLink({ name: 'Kept', type: 'website', data: { url: 'https://example.com/kept' } });
      expect(await resolver.resolve(link.slug)).toMatchObject({ slug: link.slug });
      const probes = Array.from({ length: 200 }, randomSlug);
      for (const slug of probes) expect(await resolver.resolve(slug)).toBeNull();
      // Write-backs are not awaited by resolve, but each was sent on this connection before the
      // KEYS below, and Redis runs one connection's commands in order.
      const missing = (await redis.keys(`${prefix}:link:*`)).filter((k) => !k.endsWith(`:${link.slug}`));
      expect(missing.length).toBe(10);
      expect(probes.filter((slug) => resolver.cached(slug) === null).length).toBe(20);
      expect(resolver.cached(link.slug)).toMatchObject({ slug: link.slug });
    } finally {
      await close();
    }
  });
});

describe('the in-process link cache is bounded in bytes', () => {
  it('keeps links while their JSON fits localMaxBytes, oldest out first, and always the one just loaded', async () => {
    const links = await Promise.all(
      ['a', 'b', 'c'].map((n) => stack.createLink({ name: `Sized ${n}`, type: 'website', data: { url: `https://example.com/${n}` } })),
    );
    const first = await startResolver('bytes', 60_000);
    let jsonBytes: number;
    try {
      await first.resolver.resolve(links[0]!.slug);
      jsonBytes = (await first.redis.get(first.keys.entry(links[0]!.slug)))?.length ?? 0;
    } finally {
      await first.close();
    }
    expect(jsonBytes).toBeGreaterThan(100);
    // Room for two of them, not three.
    const { resolver, close } = await startResolver('bytes', 60_000, 60_000, Math.floor(jsonBytes * 2.5));
    try {
      for (const link of links) await resolver.resolve(link.slug);
      expect(resolver.cached(links[0]!.slug)).toBeUndefined();
      expect(resolver.cached(links[1]!.slug)).toMatchObject({ slug: links[1]!.slug });
      expect(resolver.cached(links[2]!.slug)).toMatchObject({ slug: links[2]!.slug });
    } finally {
      await close();
    }
    // A link larger than the whole budget is still kept while it is the only one.
    const tiny = await startResolver('bytes', 60_000, 60_000, 1);
    try {
      await tiny.resolver.resolve(links[0]!.slug);
      expect(tiny.resolver.cached(links[0]!.slug)).toMatchObject({ slug: links[0]!.slug });
      await tiny.resolver.resolve(links[1]!.slug);
      expect(tiny.resolver.cached(links[0]!.slug)).toBeUndefined();
    } finally {
      await tiny.close();
    }
  });
});

describe('the in-process link cache past its time', () => {
  it('serves a link at once and refreshes it behind the scan; an invalidation drops it; without the subscription it is not stretched', async () => {
    // The resolver's clock, moved by hand: its ages and refresh times without waiting for them.
    let clock = Date.now();
    const { keys, redis, subscriber, resolver, close } = await startResolver('stale', 50, 600, undefined, () => clock);
    const urlOf = (link: unknown) => (link as { data?: { url?: string } } | null | undefined)?.data?.url;
    const inRedis = (slug: string) => redis.exists(keys.entry(slug));
    try {
      const link = await stack.createLink({ name: 'Stale', type: 'website', data: { url: 'https://example.com/first' } });
      expect(urlOf(await resolver.resolve(link.slug))).toBe('https://example.com/first');
      // Changed behind the cache's back (no message), and gone from this resolver's Redis keys
      // once its write-back has landed.
      await stack.api.ctx.database.pool.query(`update links set meta_data = '{"url":"https://example.com/second"}' where id = $1`, [
        link.id,
      ]);
      await expect.poll(() => inRedis(link.slug)).toBe(1);
      await redis.del(keys.entry(link.slug));
      // Past its 50 ms: still answered from memory, and refreshed once 600–900 ms old.
      clock += 100;
      expect(urlOf(resolver.cached(link.slug))).toBe('https://example.com/first');
      clock += 900;
      await expect.poll(() => urlOf(resolver.cached(link.slug)), { timeout: 2000 }).toBe('https://example.com/second');
      // A change announced drops the copy at once.
      await redis.publish(keys.channel, link.slug);
      await expect.poll(() => resolver.cached(link.slug), { timeout: 2000 }).toBeUndefined();
      const copy = await resolver.resolve(link.slug);
      expect(urlOf(copy)).toBe('https://example.com/second');
      await expect.poll(() => inRedis(link.slug)).toBe(1);
      const lookupsBefore = resolver.lookups.redis + resolver.lookups.postgres;
      // Past its 50 ms but not 600: served, and not looked up again. A refresh would ask Redis
      // (which holds the link) on this connection first, so its answer would be counted before
      // the PING's comes back.
      clock += 150;
      expect(resolver.cached(link.slug)).toBe(copy);
      await redis.ping();
      expect(resolver.lookups.redis + resolver.lookups.postgres).toBe(lookupsBefore);
      // A refresh (600–900 ms after) that finds the link as it was keeps the same copy (what was made from it stays valid).
      clock += 900;
      resolver.cached(link.slug);
      await expect.poll(() => resolver.lookups.redis + resolver.lookups.postgres).toBeGreaterThan(lookupsBefore);
      expect(resolver.cached(link.slug)).toBe(copy);
      // With no subscription a message could be missed: past its time the copy is looked up again.
      subscriber.disconnect();
      clock += 100;
      await expect.poll(() => resolver.cached(link.slug)).toBeUndefined();
    } finally {
      await close();
    }
  });
});
