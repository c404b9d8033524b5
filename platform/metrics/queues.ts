/**
 * The worker's queue metrics: how many jobs wait in each queue (read from Redis when Prometheus
 * scrapes), and how long this process's jobs took and how they ended.
 */
import type { Queue, Worker } from 'bullmq';
import { Gauge, Histogram } from 'prom-client';
import type { RoleMetrics } from './index.js';

const JOB_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/** Job run time in seconds: a scans batch takes milliseconds, an export or a ZIP tens of seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export function observeQueues(metrics: RoleMetrics, queues: Readonly<Record<string, Queue>>, workers: Worker[]): void {
  new Gauge({
    name: 'qrlinks_queue_jobs',
    help: 'Jobs in each queue by state (waiting: not started yet; failed: kept after their last attempt)',
    labelNames: ['queue', 'state'],
    registers: [metrics.registry],
    async collect() {
      this.reset();
      await Promise.all(
        Object.entries(queues).map(async ([name, queue]) => {
          const counts = await queue.getJobCounts(...JOB_STATES);
          for (const state of JOB_STATES) this.set({ queue: name, state }, counts[state] ?? 0);
        }),
      );
    },
  });
  const durations = new Histogram({
    name: 'qrlinks_job_duration_seconds',
    help: "Run time of this worker's jobs (one attempt), per queue and outcome",
    labelNames: ['queue', 'outcome'],
    buckets: DURATION_BUCKETS,
    registers: [metrics.registry],
  });
  for (const worker of workers) {
    const observe = (outcome: string) => (job: { processedOn?: number; finishedOn?: number } | undefined) => {
      if (job?.processedOn && job.finishedOn) durations.observe({ queue: worker.name, outcome }, (job.finishedOn - job.processedOn) / 1000);
    };
    worker.on('completed', observe('completed'));
    worker.on('failed', observe('failed'));
  }
}
