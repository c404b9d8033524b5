/**
 * Accepted keys held in each api process, and the rate limit counted in leases, through two real
 * api apps sharing the test database and Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addKey, call, createTestAccount, startTestApi, checkoutsDuring, type TestAccount, type TestApi } from '../../support/harness.js';
import { testEnv } from '../../support/env.js';

let one: TestApi;
let two: TestApi;
let owner: TestAccount;

beforeAll(async () => {
  const env = { REDIS_NAMESPACE: `${testEnv.REDIS_NAMESPACE}-key-cache-${Date.now()}` };
  one = await startTestApi(env);
  two = await startTestApi(env);
  owner = await createTestAccount(one.ctx);
});
afterAll(async () => {
  await two?.close();
  await one?.close();
});

describe('accepted keys are held in process', () => {
  it('a held key costs no key lookup', async () => {
    const { key } = await addKey(one.ctx, owner.accountId, ['all']);
    expect((await call(one.app, key, 'GET', '/api/v1/me')).statusCode).toBe(200);
    // GET /me reads Postgres itself; the key costs nothing more: one checkout per request.
    const checkouts = await checkoutsDuring(one, async () => {
      for (let i = 0; i < 5; i++) expect((await call(one.app, key, 'GET', '/api/v1/me')).statusCode).toBe(200);
    });
    expect(checkouts).toBe(5);
  });

  it('a key revoked through one api process is refused by another within 1 s', async () => {
    const { id, key } = await addKey(one.ctx, owner.accountId, ['all']);
    // Both processes hold it.
    for (const app of [one, two]) expect((await call(app.app, key, 'GET', '/api/v1/folders')).statusCode).toBe(200);
    const revoked = await call(one.app, owner.key, 'DELETE', `/api/v1/api-keys/${id}`);
    expect(revoked.statusCode).toBe(200);
    const since = Date.now();
    let status = 200;
    while (status === 200 && Date.now() - since < 1000) {
      status = (await call(two.app, key, 'GET', '/api/v1/folders')).statusCode;
      if (status === 200) await new Promise((r) => setTimeout(r, 10));
    }
    expect(status).toBe(401);
    expect((await call(one.app, key, 'GET', '/api/v1/folders')).statusCode).toBe(401);
  });

  it('an expiry is seen on time from memory', async () => {
    const { key } = await addKey(one.ctx, owner.accountId, ['all'], new Date(Date.now() + 400));
    expect((await call(one.app, key, 'GET', '/api/v1/folders')).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
    expect((await call(one.app, key, 'GET', '/api/v1/folders')).statusCode).toBe(401);
  });
});

describe('the rate limit in leases', () => {
  const MAX = 50;
  let a: TestApi;
  let b: TestApi;
  beforeAll(async () => {
    const env = {
      RATE_LIMIT_MAX: String(MAX),
      RATE_LIMIT_WINDOW_MS: '60000',
      REDIS_NAMESPACE: `${testEnv.REDIS_NAMESPACE}-leases-${Date.now()}`,
    };
    a = await startTestApi(env);
    b = await startTestApi(env);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('one process passes exactly the limit, even for a burst sent at once', async () => {
    const { key } = await createTestAccount(a.ctx);
    const answers = await Promise.all(Array.from({ length: MAX + 20 }, () => call(a.app, key, 'GET', '/api/v1/folders')));
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(MAX);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(20);
  });

  it('two processes sharing Redis never pass more than the limit together', async () => {
    const { key } = await createTestAccount(a.ctx);
    const answers = await Promise.all(
      Array.from({ length: 2 * MAX }, (_, i) => call(i % 2 ? a.app : b.app, key, 'GET', '/api/v1/folders')),
    );
    const passed = answers.filter((r) => r.statusCode === 200).length;
    expect(passed).toBeLessThanOrEqual(MAX);
    // Early refusals are bounded by the lease the other process may hold unspent (see LeasedCounter).
    expect(passed).toBeGreaterThan(MAX - 64);
    // Once both have spent what they hold, the key is refused by both.
    for (const app of [a, b]) {
      for (;;) {
        const res = await call(app.app, key, 'GET', '/api/v1/folders');
        if (res.statusCode === 429) break;
        expect(res.statusCode).toBe(200);
      }
    }
  });
});
