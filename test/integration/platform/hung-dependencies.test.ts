/**
 * A Postgres or a Redis that stops answering (SIGSTOP, a network that stops delivering), played by
 * TCP proxies that hold every byte between real api and redirect processes and the real servers:
 * every api request still answers within 2 s (503 with Retry-After and the documented body, or
 * without Redis), the per-key rate limit stays on while Redis hangs, scans of known links are
 * answered from the redirect's cache, and all is served normally once the servers answer again.
 */
import { createHash } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFailFastRedis } from '#platform/redis/client.js';
import { createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';
import { freePort, startEntry, stopProcess, waitForHttp } from '../../support/processes.js';
import { startTcpProxyFor, type TcpProxy } from '../../support/tcp-proxy.js';
import { pollUntil } from '../../support/until.js';

// Two processes compile TypeScript as they start; on a busy machine that takes a while. The limits
// bound a hang; they time nothing (the 2 s below is the property under test).
vi.setConfig({ testTimeout: 120_000, hookTimeout: 240_000 });

const ANSWER_WITHIN_MS = 2000;
const RATE_LIMIT_MAX = 40;
// These processes' own Redis namespace, so the run's other files do not count against the low limit.
const REDIS_NAMESPACE = `${process.env.REDIS_NAMESPACE}-hung`;

let setup: TestApi;
let pgProxy: TcpProxy;
let redisProxy: TcpProxy;
let api = '';
let redirect = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
  setup = await startTestApi();
  pgProxy = await startTcpProxyFor(process.env.DATABASE_URL!, 5432);
  redisProxy = await startTcpProxyFor(process.env.REDIS_URL!, 6379);
  const env = {
    MIGRATE_ON_START: 'false',
    REDIS_NAMESPACE,
    DATABASE_URL: pgProxy.url(process.env.DATABASE_URL!),
    REDIS_URL: redisProxy.url(process.env.REDIS_URL!),
  };
  const apiPort = await freePort();
  const redirectPort = await freePort();
  children.push(startEntry('api/server.ts', [], { ...env, PORT: String(apiPort), RATE_LIMIT_MAX: String(RATE_LIMIT_MAX) }));
  children.push(startEntry('redirect/server.ts', [], { ...env, REDIRECT_PORT: String(redirectPort) }));
  api = `http://127.0.0.1:${apiPort}`;
  redirect = `http://127.0.0.1:${redirectPort}`;
  await Promise.all([waitForHttp(`${api}/health`, 200_000), waitForHttp(`${redirect}/health`, 200_000)]);
});

afterAll(async () => {
  pgProxy?.restore();
  redisProxy?.restore();
  await Promise.all(children.map((c) => stopProcess(c)));
  await Promise.all([pgProxy?.close(), redisProxy?.close()]);
  await setup?.close();
});

interface Answer {
  status: number;
  ms: number;
  headers: Headers;
  body: string;
}

/** One request, timed; a hang shows as a status of 0 after 10 s rather than as a stuck test. */
async function timed(url: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  try {
    const res = await fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(10_000) });
    const body = await res.text();
    return { status: res.status, ms: performance.now() - started, headers: res.headers, body };
  } catch {
    return { status: 0, ms: performance.now() - started, headers: new Headers(), body: '' };
  }
}

const authed = (key: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { authorization: `Basic ${key}`, 'content-type': 'application/json', ...init.headers },
});

/** A fresh account's key and one website link of it, made and scanned once (so the redirect holds it). */
async function accountWithScannedLink(): Promise<{ key: string; slug: string }> {
  const { key } = await createTestAccount(setup.ctx);
  const res = await fetch(
    `${api}/api/v1/links`,
    authed(key, { method: 'POST', body: JSON.stringify({ name: 'hung', type: 'website', data: { url: 'https://example.com/' } }) }),
  );
  expect(res.status).toBe(200);
  const slug = ((await res.json()) as { id: string }).id;
  expect((await timed(`${redirect}/${slug}`)).status).toBe(302);
  return { key, slug };
}

const newLink = (n: number) => JSON.stringify({ name: `during ${n}`, type: 'website', data: { url: 'https://example.com/' } });

describe('Postgres stops answering', () => {
  it('every api request answers 503 with Retry-After and the documented body within 2 s, and 200 once it answers again', async () => {
    const { key } = await accountWithScannedLink();
    pgProxy.hang();
    let answers: Answer[];
    try {
      // More requests at once than the api's pool has connections, reads and writes, then a few after.
      answers = await Promise.all([
        ...Array.from({ length: 12 }, () => timed(`${api}/api/v1/links`, authed(key))),
        timed(`${api}/api/v1/me`, authed(key)),
        timed(`${api}/api/v1/links`, authed(key, { method: 'POST', body: newLink(1) })),
      ]);
      for (let i = 0; i < 3; i++) answers.push(await timed(`${api}/api/v1/links`, authed(key)));
    } finally {
      pgProxy.restore();
    }
    for (const answer of answers) {
      expect(answer.status).toBe(503);
      expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(JSON.parse(answer.body)).toEqual({ code: 'service_unavailable', message: expect.stringMatching(/temporarily unavailable/) });
    }
    const back = await pollUntil(
      () => timed(`${api}/api/v1/links`, authed(key)),
      (a) => a.status === 200,
      20_000,
      100,
    );
    expect(back.status).toBe(200);
  });

  it('the redirect answers a known link from its cache, and an unknown one within 2 s', async () => {
    const { slug } = await accountWithScannedLink();
    pgProxy.hang();
    let known: Answer[];
    let unknown: Answer[];
    try {
      known = await Promise.all(Array.from({ length: 5 }, () => timed(`${redirect}/${slug}`)));
      unknown = await Promise.all(Array.from({ length: 5 }, (_, i) => timed(`${redirect}/nosuch${i}${Date.now()}`)));
    } finally {
      pgProxy.restore();
    }
    for (const answer of known) {
      expect(answer.status).toBe(302);
      expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
    }
    for (const answer of unknown) {
      expect(answer.status).toBe(503);
      expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
    }
  });
});

describe('Redis stops answering', () => {
  it('api requests answer within 2 s, and after the first without waiting on Redis each time; Redis is used again once it answers', async () => {
    const { key, slug } = await accountWithScannedLink();
    redisProxy.hang();
    const answers: Answer[] = [];
    try {
      for (let i = 0; i < 10; i++) answers.push(await timed(`${api}/api/v1/links`, authed(key)));
      answers.push(await timed(`${api}/api/v1/links`, authed(key, { method: 'POST', body: newLink(2) })));
      answers.push(await timed(`${redirect}/${slug}`));
      answers.push(await timed(`${redirect}/nosuch${Date.now()}`));
    } finally {
      redisProxy.restore();
    }
    expect(answers.map((a) => a.status)).toEqual([...Array(11).fill(200), 302, 404]);
    for (const answer of answers) expect(answer.ms).toBeLessThan(ANSWER_WITHIN_MS);
    // Without a breaker every request spent the fail-fast timeout (500 ms) on the rate limit alone.
    const later = answers
      .slice(1, 10)
      .map((a) => a.ms)
      .sort((a, b) => a - b);
    expect(later[4]).toBeLessThan(500);

    // Back: a fresh key is counted in Redis again.
    const fresh = await createTestAccount(setup.ctx);
    const counterKey = `${REDIS_NAMESPACE}:ratelimit:key:${createHash('sha256').update(`Basic ${fresh.key}`).digest('hex').slice(0, 32)}`;
    const redis = createFailFastRedis(process.env.REDIS_URL!);
    try {
      const counted = await pollUntil(
        async () => {
          expect((await timed(`${api}/api/v1/me`, authed(fresh.key))).status).toBe(200);
          return redis.exists(counterKey);
        },
        (n) => n === 1,
        20_000,
        200,
      );
      expect(counted).toBe(1);
    } finally {
      redis.disconnect();
    }
  });

  it('the per-key rate limit still refuses past its maximum while Redis hangs', async () => {
    const { key } = await createTestAccount(setup.ctx);
    redisProxy.hang();
    const statuses: number[] = [];
    let refused: Answer | undefined;
    try {
      for (let i = 0; i < RATE_LIMIT_MAX; i++) statuses.push((await timed(`${api}/api/v1/me`, authed(key))).status);
      refused = await timed(`${api}/api/v1/me`, authed(key));
    } finally {
      redisProxy.restore();
    }
    expect(statuses).toEqual(Array(RATE_LIMIT_MAX).fill(200));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'rate_limited' });
  });
});
