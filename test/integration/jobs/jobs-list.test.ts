/**
 * GET /jobs: the account's jobs newest first, a page at a time, with any valid key, never another
 * account's. The rows are written as workers leave them (jobs is the durable record).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '#domain/schema.js';
import { addKey, call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

let api: TestApi;
let owner: TestAccount;
let other: TestAccount;
/** The owner's job ids, newest first. */
const newestFirst: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  owner = await createTestAccount(api.ctx);
  other = await createTestAccount(api.ctx);
  const start = Date.now() - 3_600_000;
  const rows = Array.from({ length: 25 }, (_, i) => ({
    id: randomUUID(),
    accountId: owner.accountId,
    type: i % 2 ? 'bulk-generate' : 'analytics-export',
    state: i === 24 ? ('active' as const) : ('completed' as const),
    progress: i === 24 ? 40 : 100,
    result: i === 24 ? null : { downloadUrl: `/api/v1/jobs/x/download`, rows: i },
    // Inserted out of order, so the answer's order is the route's doing.
    createdAt: new Date(start + ((i * 7) % 25) * 1000),
  }));
  await api.ctx.db.insert(jobs).values(rows);
  newestFirst.push(...rows.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).map((r) => r.id));
  await api.ctx.db.insert(jobs).values({ id: randomUUID(), accountId: other.accountId, type: 'analytics-export' });
});
afterAll(() => api.close());

const list = async (key: string, query = '') => call(api.app, key, 'GET', `/api/v1/jobs${query}`);

describe('GET /jobs', () => {
  it('answers the newest 20 first with page info, each with its state, progress, result and times', async () => {
    const res = await list(owner.key);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.meta).toEqual({ currentPage: 1, totalPages: 2 });
    expect(body.data.map((j: { id: string }) => j.id)).toEqual(newestFirst.slice(0, 20));
    const active = body.data.find((j: { state: string }) => j.state === 'active');
    expect(active).toMatchObject({ progress: 40 });
    expect(active).not.toHaveProperty('result');
    const done = body.data.find((j: { state: string }) => j.state === 'completed');
    expect(done).toMatchObject({ progress: 100, result: { downloadUrl: '/api/v1/jobs/x/download' } });
    for (const job of body.data) expect(Date.parse(job.createdAt) <= Date.parse(job.updatedAt) + 1).toBe(true);
  });

  it('pages with page and size, without overlap, and past the end is an empty page', async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const body = (await list(owner.key, `?page=${page}&size=10`)).json();
      expect(body.meta).toEqual({ currentPage: page, totalPages: 3 });
      seen.push(...body.data.map((j: { id: string }) => j.id));
    }
    expect(seen).toEqual(newestFirst);
    expect((await list(owner.key, '?page=9&size=10')).json()).toEqual({ data: [], meta: { currentPage: 9, totalPages: 3 } });
  });

  it('refuses a bad page or size with the field named', async () => {
    for (const query of ['?size=0', '?size=1001', '?page=0', '?page=x', '?unknown=1']) {
      const res = await list(owner.key, query);
      expect(res.statusCode, query).toBe(400);
    }
  });

  it("is open to any valid key and shows only the caller's account", async () => {
    const narrow = await addKey(api.ctx, owner.accountId, ['cafe.read']);
    expect((await list(narrow.key, '?size=100')).json().data).toHaveLength(25);
    const others = (await list(other.key, '?size=100')).json();
    expect(others.data).toHaveLength(1);
    expect(newestFirst).not.toContain(others.data[0].id);
    expect((await list('key-notarealkeynotarealkeynotareal')).statusCode).toBe(401);
  });
});
