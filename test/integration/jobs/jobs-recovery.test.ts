/**
 * A Redis that lost its data (here: every key of this file's own queue prefix deleted, as a
 * FLUSHALL or a failover to an empty replica would) strands no job and no schedule: workers queue
 * again, under the same id, the jobs Postgres records as unfinished, and register the maintenance
 * schedules again. Real api, worker, Redis and Postgres.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { call, createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';
import { pollUntil } from '../../support/until.js';

let api: TestApi;
let workers: RunningWorkers | undefined;

beforeAll(async () => {
  // A prefix of its own: the wipe below must not touch other test files' queues.
  api = await startTestApi({
    REDIS_NAMESPACE: `${process.env.REDIS_NAMESPACE}-recovery-${randomUUID().slice(0, 8)}`,
    JOB_RECOVERY_MS: '300',
  });
});
afterAll(async () => {
  await workers?.close();
  await wipeRedis();
  await api?.close();
});

/** Deletes every Redis key of this file's prefix; answers the keys deleted. */
async function wipeRedis(): Promise<string[]> {
  const keys = await api.ctx.redis.keys(`${api.ctx.config.REDIS_NAMESPACE}:*`);
  if (keys.length > 0) await api.ctx.redis.del(...keys);
  return keys;
}

describe('after Redis lost its data', () => {
  it('a job queued before the loss runs once a worker sweeps, under its own id', async () => {
    const me = await createTestAccount(api.ctx);
    const res = await call(api.app, me.key, 'POST', '/api/v1/analytics/export', {}, { prefer: 'respond-async' });
    expect(res.statusCode, res.body).toBe(202);
    const { jobId } = res.json<{ jobId: string }>();
    expect(await api.ctx.queues['analytics-export'].getJob(jobId)).toBeDefined();
    expect((await wipeRedis()).length).toBeGreaterThan(0);
    expect(await api.ctx.queues['analytics-export'].getJob(jobId)).toBeUndefined();

    workers = await startWorkers(api.ctx);
    const view = await pollUntil(
      async () =>
        (await call(api.app, me.key, 'GET', `/api/v1/jobs/${jobId}`)).json<{ state: string; result?: { downloadUrl?: string } }>(),
      (v) => v.state === 'completed' || v.state === 'failed',
      30_000,
      100,
    );
    expect(view.state).toBe('completed');
    expect(view.result?.downloadUrl).toEqual(expect.any(String));
  });

  it('the maintenance schedules are registered again while workers run', async () => {
    expect(workers).toBeDefined();
    const { maintenance } = api.ctx.queues;
    const schedulers = async () => (await maintenance.getJobSchedulers()).map((s) => s.key).sort();
    const registered = await schedulers();
    expect(registered.length).toBeGreaterThan(0);
    // Every schedule's record went with the wipe. Checked in the keys it deleted, not by listing
    // the schedules after it: the workers' sweep (every JOB_RECOVERY_MS) may already have
    // registered one again in between on a slow machine.
    const wiped = await wipeRedis();
    expect(wiped).toEqual(
      expect.arrayContaining([maintenance.toKey('repeat'), ...registered.map((key) => maintenance.toKey(`repeat:${key}`))]),
    );
    expect(await pollUntil(schedulers, (keys) => keys.length === registered.length, 10_000, 50)).toEqual(registered);
  });
});
