/**
 * The wait before each retry of a delivery: the schedule's entry after the attempts made so far,
 * counting those of a job queued before a loss (`attemptsBefore`), and the default schedule
 * stretching over about three days.
 */
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '#platform/config/index.js';
import { webhooksWorkerOptions } from '#workers/processors/webhooks.js';

const config = loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/x', WEBHOOK_RETRY_SCHEDULE: '5000,300000,1800000' });
const backoff = webhooksWorkerOptions({ config }).settings!.backoffStrategy!;
const job = (attemptsBefore: number) => ({ data: { attemptsBefore } }) as Job;

describe('the webhook retry schedule', () => {
  it('waits the next entry after each failed attempt', () => {
    expect([1, 2, 3].map((made) => backoff(made, 'webhook', new Error('x'), job(0)))).toEqual([5000, 300000, 1800000]);
  });

  it('goes on where a job queued again after a loss left off', () => {
    expect(backoff(1, 'webhook', new Error('x'), job(2))).toBe(1800000);
  });

  it('by default retries nine times over about three days', () => {
    const schedule = loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/x' }).WEBHOOK_RETRY_SCHEDULE;
    expect(schedule).toHaveLength(9);
    const hours = schedule.reduce((a, b) => a + b, 0) / 3_600_000;
    expect(hours).toBeGreaterThan(60);
    expect(hours).toBeLessThan(84);
  });

  it('refuses a schedule that is not milliseconds', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x@127.0.0.1/x', WEBHOOK_RETRY_SCHEDULE: '5s,10s' })).toThrow(
      /WEBHOOK_RETRY_SCHEDULE/,
    );
  });
});
