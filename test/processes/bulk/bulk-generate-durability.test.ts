/**
 * A bulk-generate worker killed with SIGKILL, in a process of its own: during the insert (its
 * transaction open, held on the job's lock by this test) and during the render. Either way the
 * retried job leaves exactly one batch (no link missing, none twice) and one complete ZIP.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { unzip } from '../../support/images.js';
import { startEntry, stopProcess } from '../../support/processes.js';
import { pollUntil } from '../../support/until.js';

const PREFIX = `qrlinks-test-bulk-${randomUUID().slice(0, 8)}`;
const WORKER_ENV = { REDIS_NAMESPACE: PREFIX, JOB_LOCK_MS: '1000', MIGRATE_ON_START: 'false', WORKER_NICE: '0' };
const N = 1200;

let api: TestApi;
let me: TestAccount;

beforeAll(async () => {
  api = await startTestApi({ REDIS_NAMESPACE: PREFIX });
  me = await createTestAccount(api.ctx);
});
afterAll(async () => {
  await api?.ctx.queues['bulk-generate'].obliterate({ force: true });
  await api?.close();
});

const jobOf = async (jobId: string) => (await call(api.app, me.key, 'GET', `/api/v1/jobs/${jobId}`)).json();

async function startBatch(): Promise<string> {
  const data = Array.from({ length: N }, (_, i) => ({ name: `Seat ${i}`, url: `https://example.com/seat/${i}` }));
  const res = await call(api.app, me.key, 'POST', '/api/v1/bulk-generate', { type: 'website', data }, { prefer: 'respond-async' });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(202);
  return res.json().jobId;
}

async function batchRows(jobId: string) {
  const { rows } = await api.ctx.database.pool.query<{ source_index: number; slug: string }>(
    'select source_index, slug from links where source_job_id = $1 order by source_index',
    [jobId],
  );
  return rows;
}

/** The retried job ends completed with exactly one batch and one complete ZIP. */
async function expectOneCompleteBatch(jobId: string) {
  const worker = startEntry('workers/server.ts', [], WORKER_ENV);
  try {
    const done = await pollUntil(
      () => jobOf(jobId),
      (j) => j.state === 'completed' || j.state === 'failed',
      150_000,
      100,
    );
    expect(done).toMatchObject({ state: 'completed', progress: 100 });
    const rows = await batchRows(jobId);
    expect(rows.map((r) => r.source_index)).toEqual(Array.from({ length: N }, (_, i) => i));
    expect(done.result.links.map((l: { dynamicLinkId: string }) => l.dynamicLinkId)).toEqual(rows.map((r) => r.slug));
    const download = await api.app.inject({
      method: 'GET',
      url: `/api/v1/jobs/${jobId}/download`,
      headers: { authorization: `Basic ${me.key}` },
    });
    expect(download.statusCode).toBe(200);
    const entries = await unzip(download.rawPayload);
    expect(entries.size).toBe(2 * N + 1);
    for (const r of rows) expect(entries.has(`Seat_${r.source_index}-${r.slug}.png`)).toBe(true);
    const keys: string[] = [];
    for await (const o of api.ctx.storage.list(`accounts/${me.accountId}/exports/${jobId}/`)) keys.push(o.key);
    expect(keys).toEqual([`accounts/${me.accountId}/exports/${jobId}/qr-codes.zip`]);
  } finally {
    await stopProcess(worker, 'SIGTERM');
  }
}

describe('a bulk-generate worker killed with SIGKILL', () => {
  it('during the insert: nothing of the batch is left, and the retry makes all of it once', { timeout: 240_000 }, async () => {
    const jobId = await startBatch();
    // Holding the job's lock keeps the worker inside its open transaction, where it is killed.
    const holder = await api.ctx.database.pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [jobId]);
      const first = startEntry('workers/server.ts', [], WORKER_ENV);
      try {
        const waiting = await pollUntil(
          async () =>
            (
              await api.ctx.database.pool.query(
                `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like '%pg_advisory_xact_lock%' and pid <> pg_backend_pid()`,
              )
            ).rows[0].n as number,
          (n) => n > 0,
          60_000,
          20,
        );
        expect(waiting).toBeGreaterThan(0);
      } finally {
        await stopProcess(first, 'SIGKILL');
      }
      await holder.query('commit');
    } finally {
      holder.release();
    }
    expect(await batchRows(jobId)).toEqual([]);
    await expectOneCompleteBatch(jobId);
  });

  it('during the render: the links stay as they are (none twice) and one complete ZIP is made', { timeout: 240_000 }, async () => {
    const jobId = await startBatch();
    const first = startEntry('workers/server.ts', [], WORKER_ENV);
    let links: Array<{ dynamicLinkId: string }> = [];
    try {
      const rendering = await pollUntil(
        () => jobOf(jobId),
        (j) => j.result !== undefined && j.progress > 15,
        120_000,
        20,
      );
      expect(rendering.state).toBe('active');
      expect(rendering.progress).toBeLessThan(100);
      links = rendering.result.links;
    } finally {
      await stopProcess(first, 'SIGKILL');
    }
    expect((await batchRows(jobId)).map((r) => r.slug)).toEqual(links.map((l) => l.dynamicLinkId));
    await expectOneCompleteBatch(jobId);
  });
});
