/**
 * How a worker holds an account job, and how soon another takes over the job of a worker that died
 * (docs/decisions/0366-job-locks-and-takeover.md). BullMQ gives a running job a lock of
 * JOB_LOCK_MS that its worker renews; a check every `stalledInterval` puts a job whose lock has
 * expired back to wait, counting it as stalled, and fails it after `maxStalledCount` such returns.
 */
import type { WorkerOptions } from 'bullmq';

/**
 * Times an account job may be taken back from a worker that stopped renewing its lock before it
 * fails ("interrupted too many times"): a worker killed once (a crash, an OOM kill, a redeploy)
 * plus one run whose process was starved past its lock on a busy machine. A job that kills every
 * worker running it still fails, on its third interruption, instead of killing workers for ever.
 */
export const ACCOUNT_JOB_MAX_STALLS = 2;

/** The check for expired locks runs this often at least (one cheap script per queue, shared by all workers). */
const MIN_STALLED_INTERVAL_MS = 250;

export function accountJobWorkerOptions(
  lockMs: number,
): Required<Pick<WorkerOptions, 'lockDuration' | 'lockRenewTime' | 'stalledInterval' | 'maxStalledCount'>> {
  return {
    lockDuration: lockMs,
    // Renewed every quarter of the lock (BullMQ's default is half): a run keeps its job through a
    // stall of its process of three quarters of JOB_LOCK_MS, not a half.
    lockRenewTime: Math.round(lockMs / 4),
    // A dead worker's job goes back to wait within one check of its lock expiring: about
    // JOB_LOCK_MS and a tenth, where BullMQ's default 30 s check made it up to twice JOB_LOCK_MS.
    stalledInterval: Math.max(MIN_STALLED_INTERVAL_MS, Math.round(lockMs / 10)),
    maxStalledCount: ACCOUNT_JOB_MAX_STALLS,
  };
}
