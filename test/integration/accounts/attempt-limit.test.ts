/**
 * AttemptLimit on the real Redis of the tests, and on a Redis that is not there (a closed port):
 * the same counts either way, so a limit still holds in each process while Redis is away, and
 * that it counts in process is said in the log (once a minute, not per request).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptLimit } from '#platform/redis/attempt-limit.js';
import { createFailFastRedis } from '#platform/redis/client.js';
import { testEnv } from '../../support/env.js';
import { captureLogs } from '../../support/logs.js';

const up = createFailFastRedis(testEnv.REDIS_URL);
const down = createFailFastRedis('redis://127.0.0.1:1');
// A fail-fast client refuses commands until it is connected (they would be counted in process).
beforeAll(async () => {
  if (up.status !== 'ready') await once(up, 'ready');
});
afterAll(() => {
  up.disconnect();
  down.disconnect();
});

const logs = captureLogs();
const FALLBACK_WARNING = 'attempt limits counted in this process: Redis did not answer';

describe.each([
  ['Redis', up],
  ['no Redis (in process)', down],
])('AttemptLimit with %s', (_name, redis) => {
  afterAll(() => {
    const warnings = logs.lines().filter((l) => l.msg === FALLBACK_WARNING);
    // Throttled: the down case's many refused steps make one line.
    expect(warnings).toHaveLength(redis === down ? 1 : 0);
  });
  const counter = (max: number) => ({ key: `${testEnv.REDIS_NAMESPACE}:attempt-limit-test:${randomUUID()}`, max, windowMs: 60_000 });

  it('begin holds a place per attempt: a burst gets exactly max tries; a success gives its place back', async () => {
    const limit = new AttemptLimit(redis, logs.logger);
    const c = counter(3);
    const burst = await Promise.all(Array.from({ length: 7 }, () => limit.begin([c])));
    expect(burst.filter((a) => a.allowed)).toHaveLength(3);
    const refused = burst.find((a) => !a.allowed)!;
    expect(refused.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    const [first, second, third] = burst.filter((a) => a.allowed);
    first!.succeeded();
    await new Promise((r) => setTimeout(r, 50)); // the release is not awaited by the caller
    expect(second!.failed()).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(third!.failed().allowed).toBe(false); // counted when the counter stood at 3 of 3
    const again = await limit.begin([c]);
    expect(again.allowed).toBe(true);
    expect(again.failed().allowed).toBe(false);
    expect((await limit.begin([c])).allowed).toBe(false);
  });

  it('refuses when any of several counters is full, and then counts on none', async () => {
    const limit = new AttemptLimit(redis, logs.logger);
    const small = counter(1);
    const large = counter(10);
    (await limit.begin([small, large])).failed();
    expect((await limit.begin([small, large])).allowed).toBe(false);
    // The refused try did not count on the large counter: nine more fit there.
    for (let i = 0; i < 9; i++) expect((await limit.begin([large])).failed().allowed).toBe(i < 8);
  });

  it('check then fail counts only failures', async () => {
    const limit = new AttemptLimit(redis, logs.logger);
    const c = counter(2);
    for (let i = 0; i < 5; i++) expect((await limit.check([c])).allowed).toBe(true);
    expect((await limit.fail([c])).allowed).toBe(true);
    expect((await limit.fail([c])).allowed).toBe(false);
    const answer = await limit.check([c]);
    expect(answer.allowed).toBe(false);
    expect(answer.retryAfterSeconds).toBeGreaterThan(0);
  });
});
