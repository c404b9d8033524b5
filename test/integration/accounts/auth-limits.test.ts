/**
 * Abuse limits of API authentication, through the real api on the test database and Redis:
 * failed attempts per client address (shared by api processes, exact under a burst, IPv6 by /64),
 * the memory of refused keys (Postgres is not asked again), and the cap on keys per account.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyAuthenticator, revokeApiKey } from '#domain/accounts/api-keys.js';
import {
  addKey,
  call,
  createTestAccount,
  startTestApi,
  checkoutsDuring,
  type TestAccount,
  type TestApi,
  announcerOf,
} from '../../support/harness.js';
import { testEnv } from '../../support/env.js';
import { runEntry } from '../../support/processes.js';

const LIMIT = 5;
let api: TestApi;
let other: TestApi;
let owner: TestAccount;

beforeAll(async () => {
  // Its own Redis prefix, new for each run: the failure counter is per client address, and every
  // test file's requests come from 127.0.0.1, so other files' 401s running alongside would spend
  // this budget; and a run within the window of the last (npm test, then the coverage run) would
  // find that run's failures still counted.
  const limits = {
    AUTH_FAILURE_LIMIT: String(LIMIT),
    AUTH_FAILURE_WINDOW_MS: '600000',
    API_KEYS_MAX_PER_ACCOUNT: '4',
    REDIS_NAMESPACE: `${testEnv.REDIS_NAMESPACE}-auth-limits-${randomUUID().slice(0, 8)}`,
  };
  api = await startTestApi(limits);
  // A second api process on the same Redis and database.
  other = await startTestApi(limits);
  owner = await createTestAccount(api.ctx);
});
afterAll(async () => {
  await other?.close();
  await api?.close();
});

let addressCounter = 0;
/** A documentation-range address no other test of this file uses. */
const freshAddress = () => `198.51.100.${++addressCounter}`;
const badKey = () => `key-${'Z'.repeat(24)}${String(Date.now() % 1e8).padStart(8, '0')}`;

const folders = (app: TestApi, authorization: string | undefined, remoteAddress: string) =>
  app.app.inject({ method: 'GET', url: '/api/v1/folders', remoteAddress, headers: authorization === undefined ? {} : { authorization } });

function expectTooMany(res: LightMyRequestResponse) {
  expect(res.statusCode).toBe(429);
  expect(Object.keys(res.json())).toEqual(['code', 'message']);
  expect(res.json().code).toBe('auth_attempts_exceeded');
  expect(res.json().message).toMatch(/^Too many failed authentication attempts/);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(600);
}

describe('failed authentication is limited per client address', () => {
  it('past the limit 429 with Retry-After, even for a valid key from that address; other addresses are not affected', async () => {
    const address = freshAddress();
    for (let i = 0; i < LIMIT; i++) {
      const res = await folders(api, `Basic ${badKey()}${i}`, address);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'unauthorized', message: 'Unauthorized' });
    }
    expectTooMany(await folders(api, `Basic ${badKey()}`, address));
    expectTooMany(await folders(api, `Basic ${owner.key}`, address));
    // Malformed credentials are failed attempts too.
    expectTooMany(await folders(api, 'Bearer nothing', address));
    // Another client, with a valid key or a bad one, is judged on its own.
    expect((await folders(api, `Basic ${owner.key}`, freshAddress())).statusCode).toBe(200);
    expect((await folders(api, `Basic ${badKey()}`, freshAddress())).statusCode).toBe(401);
  });

  it('is shared by api processes (counted in Redis)', async () => {
    const address = freshAddress();
    for (let i = 0; i < LIMIT; i++) expect((await folders(i % 2 ? api : other, `Basic ${badKey()}${i}`, address)).statusCode).toBe(401);
    expectTooMany(await folders(other, `Basic ${owner.key}`, address));
    expectTooMany(await folders(api, `Basic ${owner.key}`, address));
  });

  it('a refused address costs no key lookup', async () => {
    const address = freshAddress();
    for (let i = 0; i < LIMIT; i++) await folders(api, `Basic ${badKey()}x${i}`, address);
    const lookups = await checkoutsDuring(api, async () => {
      for (let i = 0; i < 20; i++) expect((await folders(api, `Basic ${badKey()}y${i}`, address)).statusCode).toBe(429);
    });
    expect(lookups).toBe(0);
  });

  it('after a burst sent at once, the address is refused', async () => {
    const address = freshAddress();
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => folders(api, `Basic ${badKey()}b${i}`, address)));
    expect(answers.every((r) => r.statusCode === 401 || r.statusCode === 429)).toBe(true);
    expectTooMany(await folders(api, `Basic ${owner.key}`, address));
  });

  it('valid requests do not count: a client making many with a good key is never refused', async () => {
    const address = freshAddress();
    const answers = await Promise.all(Array.from({ length: 40 }, () => folders(api, `Basic ${owner.key}`, address)));
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    for (let i = 0; i < LIMIT - 1; i++) expect((await folders(api, `Basic ${badKey()}v${i}`, address)).statusCode).toBe(401);
    expect((await folders(api, `Basic ${owner.key}`, address)).statusCode).toBe(200);
  });

  it('a request without an Authorization header is a 401 and does not count', async () => {
    const address = freshAddress();
    for (let i = 0; i < LIMIT * 2; i++) expect((await folders(api, undefined, address)).statusCode).toBe(401);
    expect((await folders(api, `Basic ${owner.key}`, address)).statusCode).toBe(200);
  });

  it('IPv6 clients count by their /64: new addresses in the same /64 get no new tries', async () => {
    for (let i = 0; i < LIMIT; i++) {
      expect((await folders(api, `Basic ${badKey()}6${i}`, `2001:db8:aa:1::${(i + 1).toString(16)}`)).statusCode).toBe(401);
    }
    expectTooMany(await folders(api, `Basic ${badKey()}`, '2001:db8:aa:1:ffff:ffff:ffff:fffe'));
    // Another /64 is another client.
    expect((await folders(api, `Basic ${owner.key}`, '2001:db8:aa:2::1')).statusCode).toBe(200);
  });

  it('an IPv4 client seen as an IPv4-mapped IPv6 address is the same client', async () => {
    const address = freshAddress();
    for (let i = 0; i < LIMIT; i++) await folders(api, `Basic ${badKey()}m${i}`, address);
    expectTooMany(await folders(api, `Basic ${owner.key}`, `::ffff:${address}`));
  });
});

describe('refused keys are remembered briefly, so repeating one does not ask Postgres', () => {
  it('four tries of the same unknown key (from four addresses) cost one lookup', async () => {
    const key = `Basic ${badKey()}same`;
    const lookups = await checkoutsDuring(api, async () => {
      for (let i = 0; i < 4; i++) expect((await folders(api, key, freshAddress())).statusCode).toBe(401);
    });
    expect(lookups).toBe(1);
  });

  it('a revoked key is refused on the next request, and a key created after refusals works at once', async () => {
    const authenticator = new ApiKeyAuthenticator(api.ctx.db, api.ctx.logger);
    const { id, key } = await addKey(api.ctx, owner.accountId, ['all']);
    expect(await authenticator.authenticate(key)).not.toBeNull();
    await revokeApiKey(api.ctx.db, announcerOf(api), id);
    expect(await authenticator.authenticate(key)).toBeNull();

    const refusedBefore = `key-${'Q'.repeat(32)}`;
    expect(await authenticator.authenticate(refusedBefore)).toBeNull();
    const created = await addKey(api.ctx, owner.accountId, ['all']);
    expect(await authenticator.authenticate(created.key)).toMatchObject({ keyId: created.id, accountId: owner.accountId });
    await revokeApiKey(api.ctx.db, announcerOf(api), created.id);
  });

  it('is bounded in size and in time', async () => {
    const authenticator = new ApiKeyAuthenticator(api.ctx.db, api.ctx.logger, { ttlMs: 300, max: 8 });
    for (let i = 0; i < 50; i++) await authenticator.authenticate(`key-${'R'.repeat(30)}${String(i).padStart(2, '0')}`);
    expect(authenticator.refusedHeld).toBeLessThanOrEqual(8);

    const key = `key-${'T'.repeat(32)}`;
    const lookups = async () => {
      let acquired = 0;
      const count = () => acquired++;
      api.ctx.database.pool.on('acquire', count);
      await authenticator.authenticate(key);
      api.ctx.database.pool.off('acquire', count);
      return acquired;
    };
    expect(await lookups()).toBe(1);
    expect(await lookups()).toBe(0);
    await new Promise((r) => setTimeout(r, 400));
    expect(await lookups()).toBe(1);
  });
});

describe('an account holds at most API_KEYS_MAX_PER_ACCOUNT active keys', () => {
  it('POST /api-keys past it: 409 with a clear message; revoked and expired keys do not count', async () => {
    const acct = await createTestAccount(api.ctx); // its first key
    await addKey(api.ctx, acct.accountId, ['all'], new Date(Date.now() - 1000)); // expired: not active
    const create = () => call(api.app, acct.key, 'POST', '/api/v1/api-keys', { name: 'k', scopes: ['links.read'] });
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await create();
      expect(res.statusCode).toBe(200);
      made.push(res.json().id);
    }
    const refused = await create();
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'api_key_limit_reached',
      message: 'This account already has 4 active API keys, the most it may have; revoke one before creating another',
    });
    expect((await call(api.app, acct.key, 'DELETE', `/api/v1/api-keys/${made[0]}`)).statusCode).toBe(200);
    expect((await create()).statusCode).toBe(200);
    expect((await create()).statusCode).toBe(409);
  });

  it('keys created at once cannot pass it together', async () => {
    const acct = await createTestAccount(api.ctx);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(api.app, acct.key, 'POST', '/api/v1/api-keys', { name: 'k', scopes: ['links.read'] })),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(3);
    expect(answers.filter((r) => r.statusCode === 409)).toHaveLength(5);
  });

  it('the CLI refuses past it with exit 1 and the same message', async () => {
    const env = { API_KEYS_MAX_PER_ACCOUNT: '1' };
    const account = JSON.parse((await runEntry('cli/index.ts', ['account', 'create', '--name', 'capped', '--plan', 'pro'], env)).stdout);
    const first = await runEntry('cli/index.ts', ['key', 'create', '--account', account.id, '--scopes', 'all'], env);
    expect(first.code).toBe(0);
    const second = await runEntry('cli/index.ts', ['key', 'create', '--account', account.id, '--scopes', 'all'], env);
    expect(second.code).toBe(1);
    const message = 'This account already has 1 active API key, the most it may have; revoke one before creating another';
    expect(JSON.parse(second.stderr.trim())).toEqual({ error: message, code: 'api_key_limit_reached', message });
  });
});
