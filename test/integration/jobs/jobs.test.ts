import { Queue, QueueEvents, Worker } from 'bullmq';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys } from '#domain/schema.js';
import { enqueueAccountJob, trackAccountJob } from '#infra/jobs/account-jobs.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { addKey, call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { pollUntil } from '../../support/until.js';

let api: TestApi;
let me: TestAccount;

beforeAll(async () => {
  // A fast sweep so the scheduled job is seen within the test.
  api = await startTestApi({ KEY_EXPIRY_SWEEP_MS: '200' });
  me = await createTestAccount(api.ctx);
});
afterAll(() => api.close());

describe('maintenance queue: the expired-key sweep', () => {
  let workers: RunningWorkers;
  beforeAll(async () => {
    workers = await startWorkers(api.ctx);
  });
  afterAll(() => workers.close());

  it('is registered as a repeatable job and marks expired keys inactive, leaving others alone', async () => {
    const expiring = await addKey(api.ctx, me.accountId, ['all'], new Date(Date.now() + 300));
    const lasting = await addKey(api.ctx, me.accountId, ['all'], new Date(Date.now() + 3_600_000));
    const schedulers = await api.ctx.queues.maintenance.getJobSchedulers();
    expect(schedulers.map((s) => s.key)).toContain('expire-api-keys');

    const row = await pollUntil(
      async () => (await api.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, expiring.id)))[0]!,
      (r) => !r.active,
    );
    expect(row.active).toBe(false);
    const [other] = await api.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, lasting.id));
    expect(other!.active).toBe(true);
    expect((await call(api.app, expiring.key, 'GET', '/api/v1/folders')).statusCode).toBe(401);
    expect((await call(api.app, lasting.key, 'GET', '/api/v1/folders')).statusCode).toBe(200);
  });
});

describe('job records: GET /jobs/:jobId follows a real BullMQ job', () => {
  // A queue of its own, with a processor written here, exercises the tracking every job kind uses.
  const queueName = `tracked-${process.pid}`;
  let queue: Queue;
  let worker: Worker;
  let events: QueueEvents;

  beforeAll(async () => {
    const { redis, config, db } = api.ctx;
    queue = new Queue(queueName, { connection: redis, prefix: config.REDIS_NAMESPACE });
    events = new QueueEvents(queueName, { connection: redis.duplicate(), prefix: config.REDIS_NAMESPACE });
    worker = new Worker(
      queueName,
      trackAccountJob<{ steps: number; fail?: string }, { done: number }>(db, async (_job, payload, progress) => {
        if (payload.fail) throw new Error(`${payload.fail}\n    at secret/stack.ts:1`);
        for (let i = 1; i <= payload.steps; i++) {
          await new Promise((r) => setTimeout(r, 30));
          await progress((i / payload.steps) * 100);
        }
        return { done: payload.steps };
      }),
      { connection: redis, prefix: config.REDIS_NAMESPACE },
    );
    await events.waitUntilReady();
  });
  afterAll(async () => {
    await worker.close();
    await events.close();
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it('queued → completed with progress 100 and the result', async () => {
    const id = await enqueueAccountJob(
      api.ctx.db,
      queue,
      { accountId: me.accountId, type: 'test-steps', payload: { steps: 5 } },
      api.ctx.config.JOB_ACCOUNT_QUEUE,
    );
    const first = (await call(api.app, me.key, 'GET', `/api/v1/jobs/${id}`)).json();
    expect(first).toMatchObject({ id, type: 'test-steps' });
    expect(['queued', 'active', 'completed']).toContain(first.state);
    const done = await pollUntil(
      async () => (await call(api.app, me.key, 'GET', `/api/v1/jobs/${id}`)).json(),
      (j) => j.state === 'completed',
    );
    expect(done).toEqual({ id, type: 'test-steps', state: 'completed', progress: 100, result: { done: 5 } });
  });

  it('failed after the last attempt, with a one-line message and no stack', async () => {
    const id = await enqueueAccountJob(
      api.ctx.db,
      queue,
      {
        accountId: me.accountId,
        type: 'test-fail',
        payload: { steps: 1, fail: 'the data was wrong' },
        attempts: 2,
      },
      api.ctx.config.JOB_ACCOUNT_QUEUE,
    );
    const failed = await pollUntil(
      async () => (await call(api.app, me.key, 'GET', `/api/v1/jobs/${id}`)).json(),
      (j) => j.state === 'failed',
    );
    expect(failed).toMatchObject({ id, state: 'failed', error: 'the data was wrong' });
    expect((await queue.getJob(id))!.attemptsMade).toBe(2);
  });

  it("another account's job, an unknown id and a malformed id → 404 {message: Job not found}", async () => {
    const id = await enqueueAccountJob(
      api.ctx.db,
      queue,
      { accountId: me.accountId, type: 'test-steps', payload: { steps: 1 } },
      api.ctx.config.JOB_ACCOUNT_QUEUE,
    );
    const stranger = await createTestAccount(api.ctx);
    for (const [key, jobId] of [
      [stranger.key, id],
      [me.key, '00000000-0000-4000-8000-000000000000'],
      [me.key, 'nope'],
    ] as const) {
      const res = await call(api.app, key, 'GET', `/api/v1/jobs/${jobId}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'job_not_found', message: 'Job not found' });
    }
  });

  it('needs only a valid key, whatever its scopes', async () => {
    const id = await enqueueAccountJob(
      api.ctx.db,
      queue,
      { accountId: me.accountId, type: 'test-steps', payload: { steps: 1 } },
      api.ctx.config.JOB_ACCOUNT_QUEUE,
    );
    const narrow = await addKey(api.ctx, me.accountId, ['folders.read']);
    expect((await call(api.app, narrow.key, 'GET', `/api/v1/jobs/${id}`)).statusCode).toBe(200);
    expect((await call(api.app, null, 'GET', `/api/v1/jobs/${id}`)).statusCode).toBe(401);
  });
});
