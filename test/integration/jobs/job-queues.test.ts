/**
 * Job queues shared fairly between accounts, generated for every queue of account jobs
 * (ACCOUNT_JOB_QUEUES): with account A's flood of small jobs waiting, account B's one small job
 * of the same kind is among the first the worker runs, not after A's whole backlog as first come,
 * first served had it. A queue added later without a way to make its small job here fails. Then
 * JOB_ACCOUNT_ACTIVE (one account's long jobs never hold every worker slot), and the limits that
 * keep one account from filling a queue or the disk: JOB_ACCOUNT_QUEUE waiting jobs of a kind
 * (429), and the job-file quota (413 before an export, a failed job past it).
 */
import { randomUUID } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
import { STORAGE_QUOTA_BYTES } from '#domain/accounts/plans.js';
import { ACCOUNT_JOB_QUEUES, type QueueName } from '#domain/jobs/job-kinds.js';
import { enqueueAccountJob, trackAccountJob } from '#infra/jobs/account-jobs.js';
import { limitRunningPerAccount } from '#infra/jobs/fair-turns.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { call, createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { pollUntil } from '../../support/until.js';

/** A's flood: as many jobs as an account may have waiting. */
const FLOOD = 8;

let api: TestApi;
let workers: RunningWorkers;

beforeAll(async () => {
  // One job at a time, so the order the worker takes them in is the order they finish in.
  api = await startTestApi({
    REDIS_NAMESPACE: `qrlinks-test-fair-${randomUUID().slice(0, 8)}`,
    WORKER_CONCURRENCY: '1',
    JOB_ACCOUNT_QUEUE: String(FLOOD),
  });
  workers = await startWorkers(api.ctx);
}, 60_000);
afterAll(async () => {
  await workers?.close();
  for (const queue of Object.values(api?.ctx.queues ?? {})) await queue.obliterate({ force: true });
  await api?.close();
});

const respondAsync = { prefer: 'respond-async' };

async function accepted(res: { statusCode: number; body: string; json(): { jobId: string } }): Promise<string> {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(202);
  return res.json().jobId;
}

/** How each queue's smallest job is started for an account (through the api where a route starts it). */
const smallJob: Record<string, (account: TestAccount) => Promise<string>> = {
  'analytics-export': async (account) =>
    accepted(await call(api.app, account.key, 'POST', `${API_PREFIX}/analytics/export`, {}, respondAsync)),
  'audit-export': async (account) =>
    accepted(await call(api.app, account.key, 'POST', `${API_PREFIX}/audit-events/export`, {}, respondAsync)),
  'bulk-generate': async (account) =>
    accepted(
      await call(
        api.app,
        account.key,
        'POST',
        `${API_PREFIX}/bulk-generate`,
        { type: 'website', data: [{ name: 'One', url: 'https://example.com/' }] },
        respondAsync,
      ),
    ),
  'cafe-bulk-insert': async (account) => {
    const cafe = await call(api.app, account.key, 'POST', `${API_PREFIX}/cafes`, { name: 'Fair cafe' });
    expect(cafe.statusCode, cafe.body).toBe(200);
    const items = [{ name: 'Tea', price: 2, currency: 'EUR', category: 'Drinks' }];
    return accepted(
      await call(api.app, account.key, 'POST', `${API_PREFIX}/cafes/${cafe.json().data.id}/items/bulk-insert`, { items }, respondAsync),
    );
  },
  // No route starts it: queued as the api queues every account job.
  'qr-render': async (account) => {
    const link = await createLinkVia(api.app, account.key);
    const input = { accountId: account.accountId, type: 'qr-render', payload: { linkIds: [link.id] } };
    return enqueueAccountJob(api.ctx.db, api.ctx.queues['qr-render'], input, api.ctx.config.JOB_ACCOUNT_QUEUE);
  },
  'print-sheets': async (account) => {
    const link = await createLinkVia(api.app, account.key);
    return accepted(await call(api.app, account.key, 'POST', `${API_PREFIX}/print-sheets`, { linkIds: [link.slug] }, respondAsync));
  },
};

async function finishedAt(ids: string[]): Promise<Map<string, Date>> {
  const { rows } = await api.ctx.database.pool.query<{ id: string; state: string; finished_at: Date | null }>(
    'select id, state, finished_at from jobs where id = any($1)',
    [ids],
  );
  const done = new Map<string, Date>();
  for (const row of rows) {
    expect(row.state, `job ${row.id}`).not.toBe('failed');
    if (row.state === 'completed' && row.finished_at) done.set(row.id, row.finished_at);
  }
  return done;
}

describe('fair job queues: B’s small job during A’s flood', () => {
  it('covers every queue of account jobs', () => {
    expect([...ACCOUNT_JOB_QUEUES].filter((queue) => !smallJob[queue])).toEqual([]);
  });

  for (const name of ACCOUNT_JOB_QUEUES) {
    it(`${name}: runs among the first jobs, before A’s backlog drains`, { timeout: 120_000 }, async () => {
      const queue = api.ctx.queues[name];
      const a = await createTestAccount(api.ctx);
      const b = await createTestAccount(api.ctx);
      // The flood is all waiting when B asks: the worker holds off until both are queued.
      await queue.pause();
      let floodIds: string[];
      let bId: string;
      try {
        floodIds = [];
        for (let i = 0; i < FLOOD; i++) floodIds.push(await smallJob[name]!(a));
        bId = await smallJob[name]!(b);
      } finally {
        await queue.resume();
      }
      const all = [...floodIds, bId];
      const done = await pollUntil(
        () => finishedAt(all),
        (d) => d.size === all.length,
        90_000,
        50,
      );
      expect(done.size).toBe(all.length);
      const bDone = done.get(bId)!;
      const aheadOfB = floodIds.filter((id) => done.get(id)! < bDone).length;
      // Round robin: A's first job (queued before B's) and at most one more; first come, first served made it all FLOOD.
      expect(aheadOfB).toBeLessThanOrEqual(2);
    });
  }
});

describe('JOB_ACCOUNT_ACTIVE: the jobs of one kind an account may have running', () => {
  // A queue of its own, with a slow processor written here, served by 4 slots the way workers/ serves every account queue.
  const SLOTS = 4;
  const MAX_ACTIVE = 1;
  let queue: Queue;
  let worker: Worker;
  const running = new Map<string, number>();
  const most = new Map<string, number>();
  const runs = new Map<string, number>();
  const started: string[] = [];

  beforeAll(async () => {
    const { redis, config, db } = api.ctx;
    const name = `held-back-${process.pid}`;
    queue = new Queue(name, { connection: redis, prefix: config.REDIS_NAMESPACE });
    const slow = trackAccountJob<{ ms: number }, { ms: number }>(db, async (job, payload) => {
      const { accountId } = job.data;
      runs.set(job.id!, (runs.get(job.id!) ?? 0) + 1);
      started.push(job.id!);
      running.set(accountId, (running.get(accountId) ?? 0) + 1);
      most.set(accountId, Math.max(most.get(accountId) ?? 0, running.get(accountId)!));
      await new Promise((r) => setTimeout(r, payload.ms));
      running.set(accountId, running.get(accountId)! - 1);
      return { ms: payload.ms };
    });
    worker = new Worker(name, limitRunningPerAccount(db, queue, MAX_ACTIVE, slow), {
      connection: redis,
      prefix: config.REDIS_NAMESPACE,
      concurrency: SLOTS,
    });
    await worker.waitUntilReady();
  });
  afterAll(async () => {
    await worker?.close();
    await queue?.obliterate({ force: true });
    await queue?.close();
  });

  it(
    'A’s long jobs take one slot at a time; B’s short job runs at once, and every job runs exactly once',
    { timeout: 60_000 },
    async () => {
      const a = await createTestAccount(api.ctx);
      const b = await createTestAccount(api.ctx);
      const start = (account: TestAccount, ms: number) =>
        enqueueAccountJob(
          api.ctx.db,
          queue,
          { accountId: account.accountId, type: 'slow', payload: { ms } },
          api.ctx.config.JOB_ACCOUNT_QUEUE,
        );
      const flood: string[] = [];
      for (let i = 0; i < SLOTS; i++) flood.push(await start(a, 1500));
      // A holds one slot and its others are held back: B's job finds a free slot rather than waiting for A's.
      await pollUntil(
        async () => running.get(a.accountId) ?? 0,
        (n) => n === 1,
        10_000,
        10,
      );
      const bJob = await start(b, 10);
      const all = [...flood, bJob];
      const done = await pollUntil(
        () => finishedAt(all),
        (d) => d.size === all.length,
        45_000,
        50,
      );
      expect(done.size).toBe(all.length);
      expect(most.get(a.accountId)).toBe(MAX_ACTIVE);
      expect(flood.filter((id) => done.get(id)! < done.get(bJob)!).length).toBe(0);
      expect(all.map((id) => runs.get(id))).toEqual(all.map(() => 1));
    },
  );

  it('one account’s jobs start in the order it queued them, also one queued while its earlier ones run', { timeout: 60_000 }, async () => {
    const a = await createTestAccount(api.ctx);
    const start = () =>
      enqueueAccountJob(
        api.ctx.db,
        queue,
        { accountId: a.accountId, type: 'slow', payload: { ms: 300 } },
        api.ctx.config.JOB_ACCOUNT_QUEUE,
      );
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(await start());
    // The first has finished and the second runs: two wait, with priorities 3 and 4; the new one
    // must not take priority 3 (its count of waiting jobs + 1) and overtake the fourth.
    await pollUntil(
      () => finishedAt([ids[0]!]),
      (d) => d.size === 1,
      10_000,
      10,
    );
    ids.push(await start());
    const done = await pollUntil(
      () => finishedAt(ids),
      (d) => d.size === ids.length,
      30_000,
      50,
    );
    expect(done.size).toBe(ids.length);
    expect(started.filter((id) => ids.includes(id))).toEqual(ids);
  });
});

describe('JOB_ACCOUNT_QUEUE: the jobs of one kind an account may have waiting', () => {
  it(
    'one more is a 429 with Retry-After; other accounts are not held back, and room comes back as jobs start',
    { timeout: 60_000 },
    async () => {
      const queue = api.ctx.queues['analytics-export'];
      const a = await createTestAccount(api.ctx);
      const b = await createTestAccount(api.ctx);
      const exportOf = (account: TestAccount) => call(api.app, account.key, 'POST', `${API_PREFIX}/analytics/export`, {}, respondAsync);
      await queue.pause();
      try {
        for (let i = 0; i < FLOOD; i++) await accepted(await exportOf(a));
        const refused = await exportOf(a);
        expect(refused.statusCode).toBe(429);
        expect(refused.headers['retry-after']).toMatch(/^\d+$/);
        expect(refused.json()).toEqual({
          code: 'job_queue_full',
          message: `This account already has ${FLOOD} analytics-export jobs waiting, the most it may have; retry when some have started`,
        });
        await accepted(await exportOf(b));
      } finally {
        await queue.resume();
      }
      await pollUntil(
        async () =>
          (
            await api.ctx.database.pool.query(`select count(*)::int as n from jobs where account_id = $1 and state = 'queued'`, [
              a.accountId,
            ])
          ).rows[0].n,
        (n) => n === 0,
        30_000,
      );
      await accepted(await exportOf(a));
    },
  );

  it('a waiting row whose BullMQ job was lost (Redis wiped) does not hold a place for ever', async () => {
    const a = await createTestAccount(api.ctx);
    const longAgo = new Date(Date.now() - 5 * 60_000);
    for (let i = 0; i < FLOOD; i++) {
      await api.ctx.database.pool.query(
        `insert into jobs (id, account_id, type, state, created_at) values ($1, $2, 'analytics-export', 'queued', $3)`,
        [randomUUID(), a.accountId, longAgo],
      );
    }
    await accepted(await call(api.app, a.key, 'POST', `${API_PREFIX}/analytics/export`, {}, respondAsync));
  });
});

describe('the job-file quota: export and ZIP files count against as much as the plan’s storage quota', () => {
  /** A finished job of the account's whose file takes `bytes`. */
  async function keptFile(account: TestAccount, bytes: number) {
    await api.ctx.database.pool.query(
      `insert into jobs (id, account_id, type, state, finished_at, file_bytes) values ($1, $2, 'analytics-export', 'completed', now(), $3)`,
      [randomUUID(), account.accountId, bytes],
    );
  }

  /** GET /jobs/:jobId once the job has completed or failed. */
  const ended = (account: TestAccount, jobId: string) =>
    pollUntil(
      async () => (await call(api.app, account.key, 'GET', `${API_PREFIX}/jobs/${jobId}`)).json(),
      (j) => j.state === 'completed' || j.state === 'failed',
      30_000,
    );

  it('an export asked for with the quota full is a 413 saying so, and nothing is queued', async () => {
    const a = await createTestAccount(api.ctx, { plan: 'starter' });
    await keptFile(a, STORAGE_QUOTA_BYTES.starter);
    const res = await call(api.app, a.key, 'POST', `${API_PREFIX}/analytics/export`, {}, respondAsync);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(
      /^Job file quota reached: the starter plan keeps up to 500 MiB \(524288000 bytes\) of export and ZIP files/,
    );
    const { rows } = await api.ctx.database.pool.query(`select count(*)::int as n from jobs where account_id = $1 and state = 'queued'`, [
      a.accountId,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it(
    'a file that would go past it fails its job at once (no retry), leaving nothing in storage; one that fits counts',
    { timeout: 60_000 },
    async () => {
      const a = await createTestAccount(api.ctx, { plan: 'starter' });
      // Room for a few bytes: less than the export's header line.
      await keptFile(a, STORAGE_QUOTA_BYTES.starter - 10);
      const jobId = await accepted(await call(api.app, a.key, 'POST', `${API_PREFIX}/analytics/export`, {}, respondAsync));
      const job = await ended(a, jobId);
      expect(job).toMatchObject({ state: 'failed' });
      expect(job.error).toMatch(/^Job file quota reached: the starter plan keeps up to 500 MiB/);
      const bull = await api.ctx.queues['analytics-export'].getJob(jobId);
      expect(bull?.attemptsMade).toBe(1);
      const keys: string[] = [];
      for await (const o of api.ctx.storage.list(`accounts/${a.accountId}/exports/${jobId}/`)) keys.push(o.key);
      expect(keys).toEqual([]);

      const b = await createTestAccount(api.ctx, { plan: 'starter' });
      const okId = await accepted(await call(api.app, b.key, 'POST', `${API_PREFIX}/analytics/export`, {}, respondAsync));
      const ok = await ended(b, okId);
      expect(ok).toMatchObject({ state: 'completed' });
      const { rows } = await api.ctx.database.pool.query('select file_bytes from jobs where id = $1', [okId]);
      expect(Number(rows[0].file_bytes)).toBe(ok.result.bytes);
    },
  );
});
