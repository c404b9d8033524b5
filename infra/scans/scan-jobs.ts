/**
 * How a batch of scans travels through the `scans` queue, agreed by the recorder (producer) and
 * the worker. A scan must outlive any outage of Postgres: a batch is retried, at most every
 * SCAN_RETRY_MAX_DELAY_MS, for about a week before BullMQ gives up on it, and a batch given up
 * is kept in the failed set (never removed) for an operator to retry. Completed batches are
 * removed at once: their rows are in Postgres, and a batch of 1000 scans is ~300 KB of Redis.
 */
import type { BackoffStrategy, JobsOptions } from 'bullmq';

/** The custom backoff type; the scans worker knows it (`scanRetryDelay`). */
const SCAN_RETRY_BACKOFF = 'scan-capped-exponential';

const SCAN_RETRY_FIRST_DELAY_MS = 100;
const SCAN_RETRY_MAX_DELAY_MS = 5_000;

export const SCAN_JOB_OPTIONS = {
  // 120,000 attempts at most 5 s apart: about a week of Postgres being away.
  attempts: 120_000,
  backoff: { type: SCAN_RETRY_BACKOFF },
  removeOnComplete: true,
  removeOnFail: false,
  // BullMQ appends a stack trace per failed attempt; a long outage must not grow the job.
  stackTraceLimit: 3,
} satisfies JobsOptions;

/** 100 ms, 200 ms, 400 ms … doubling up to 5 s, then every 5 s. */
export const scanRetryDelay: BackoffStrategy = (attemptsMade) =>
  Math.min(SCAN_RETRY_MAX_DELAY_MS, SCAN_RETRY_FIRST_DELAY_MS * 2 ** Math.min(attemptsMade - 1, 16));
