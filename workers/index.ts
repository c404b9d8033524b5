/**
 * The worker role: one BullMQ Worker per queue this process serves. CPU-heavy and slow work
 * lives here so the api and redirect event loops never carry it.
 */
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { Worker, type Processor, type Queue, type WorkerOptions } from 'bullmq';
import type { AppContext } from '#infra/context.js';
import { throttledWarning } from '#platform/logger.js';
import {
  ACCOUNT_JOB_QUEUES,
  QUEUE_NAMES,
  type AccountJobData,
  type JobPayloads,
  type KeptResult,
  type QueueName,
} from '#domain/jobs/job-kinds.js';
import { type QueueProcessor } from '#infra/jobs/queues.js';
import { recordGivenUpJob } from '#infra/jobs/account-jobs.js';
import { checkRedisDurability, keepRecovering, requeueLostJobs } from '#infra/jobs/lost-jobs.js';
import { limitRunningPerAccount } from '#infra/jobs/fair-turns.js';
import { accountJobWorkerOptions } from '#infra/jobs/worker-options.js';
import { analyticsExportProcessor } from './processors/analytics-export.js';
import { auditExportProcessor } from './processors/audit-export.js';
import { cafeBulkInsertProcessor } from './processors/cafe-bulk-insert.js';
import { bulkGenerateProcessor } from './processors/bulk-generate.js';
import { maintenanceProcessor, scheduleMaintenance } from './processors/maintenance.js';
import { qrRenderProcessor } from './processors/qr-render.js';
import { printSheetsProcessor } from './processors/print-sheets.js';
import { scansProcessor, scansWorkerOptions } from './processors/scans.js';
import { ScanTraffic } from '#domain/scans/traffic.js';
import { webhooksProcessor, webhooksWorkerOptions } from './processors/webhooks.js';
import { startDispatcher, type Dispatcher } from '#infra/webhooks/dispatcher.js';

/**
 * A worker's errors are mostly its Redis connection failing, which BullMQ reports on every retry
 * of every queue (13-25 lines a second during an outage): said every 10 s with how many more came.
 */
const workerError = throttledWarning('queue worker error', 10_000);

export interface RunningWorkers {
  workers: Worker[];
  /** Queues the webhook deliveries the domain writes. */
  dispatcher: Dispatcher;
  /** Stops taking jobs and waits for the running ones to finish. */
  close(): Promise<void>;
}

export async function startWorkers(ctx: AppContext): Promise<RunningWorkers> {
  // Deliveries the domain wrote become jobs of the webhooks queue (infra/webhooks/dispatcher.ts).
  const dispatcher = startDispatcher(ctx);
  // The scans the scans processor receives tell bulk processors when to step back (domain/jobs/pacing.ts).
  const scanTraffic = new ScanTraffic();
  // Account jobs run at most JOB_ACCOUNT_ACTIVE at once per account and kind (infra/jobs/fair-turns.ts).
  const perAccount = <D extends AccountJobData, R>(queue: Queue, processor: Processor<D, R>) =>
    limitRunningPerAccount(ctx.db, queue, ctx.config.JOB_ACCOUNT_ACTIVE, processor);
  // Each processor is checked against its queue's payload and result (infra/jobs/queues.ts).
  const processors: { [N in QueueName]: QueueProcessor<N> } = {
    'analytics-export': perAccount(ctx.queues['analytics-export'], analyticsExportProcessor(ctx)),
    'audit-export': perAccount(ctx.queues['audit-export'], auditExportProcessor(ctx)),
    'cafe-bulk-insert': perAccount(ctx.queues['cafe-bulk-insert'], cafeBulkInsertProcessor(ctx)),
    'bulk-generate': perAccount(ctx.queues['bulk-generate'], bulkGenerateProcessor(ctx, scanTraffic)),
    maintenance: maintenanceProcessor(ctx),
    'qr-render': perAccount(ctx.queues['qr-render'], qrRenderProcessor(ctx, scanTraffic)),
    'print-sheets': perAccount(ctx.queues['print-sheets'], printSheetsProcessor(ctx)),
    scans: scansProcessor(ctx, scanTraffic),
    webhooks: webhooksProcessor(ctx, () => dispatcher.wake()),
  };
  const options: Partial<Record<QueueName, Partial<WorkerOptions>>> = {
    scans: scansWorkerOptions(ctx.config),
    webhooks: webhooksWorkerOptions(ctx),
    // Account jobs run for seconds to minutes: a dead worker's job is taken over about JOB_LOCK_MS
    // after it died (infra/jobs/worker-options.ts). A bulk insert's retry waits on the cafe row
    // until Postgres has rolled the dead one's transaction back.
    'analytics-export': accountJobWorkerOptions(ctx.config.JOB_LOCK_MS),
    'audit-export': accountJobWorkerOptions(ctx.config.JOB_LOCK_MS),
    'cafe-bulk-insert': accountJobWorkerOptions(ctx.config.JOB_LOCK_MS),
    'bulk-generate': accountJobWorkerOptions(ctx.config.JOB_LOCK_MS),
    'qr-render': accountJobWorkerOptions(ctx.config.JOB_LOCK_MS),
    'print-sheets': accountJobWorkerOptions(ctx.config.JOB_LOCK_MS),
  };
  const startWorker = <N extends QueueName>(name: N): Worker<JobPayloads[N], KeptResult<N>> => {
    const worker = new Worker<JobPayloads[N], KeptResult<N>>(name, processors[name], {
      connection: ctx.redis,
      prefix: ctx.config.REDIS_NAMESPACE,
      concurrency: ctx.config.WORKER_CONCURRENCY,
      ...options[name],
    });
    worker.on('failed', (job, err) => {
      ctx.logger.warn({ queue: name, jobId: job?.id, err: err.message }, 'job failed');
      if (job && ACCOUNT_JOB_QUEUES.has(name)) {
        recordGivenUpJob(ctx.db, job, err).catch((e: Error) =>
          ctx.logger.error({ queue: name, jobId: job.id, err: e.message }, 'job record not updated'),
        );
      }
    });
    worker.on('error', (err) => workerError(ctx.logger, err, { queue: name }));
    return worker;
  };
  const workers: Worker[] = QUEUE_NAMES.map((name) => startWorker(name));
  // Each worker's own connections are up before it can be closed: a close during their start
  // rejects a connection promise nobody awaits ("Connection is closed").
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  await checkRedisDurability(ctx.redis, ctx.logger);
  // Schedules and jobs a Redis that lost its data no longer holds come back from here (infra/jobs/lost-jobs.ts).
  const recover = async () => {
    await scheduleMaintenance(ctx);
    const requeued = await requeueLostJobs(ctx);
    if (requeued > 0) ctx.logger.warn({ requeued }, 'jobs Redis no longer held were queued again');
  };
  await recover();
  const stopRecovering = keepRecovering(ctx.redis, ctx.config.JOB_RECOVERY_MS, ctx.logger, recover);
  return {
    workers,
    dispatcher,
    close: async () => {
      await dispatcher.close();
      await stopRecovering();
      await Promise.all(workers.map((w) => w.close()));
    },
  };
}

/**
 * Lowers this process's CPU priority (nice), so that on a machine it shares with the api or the
 * redirect, queued work (scan ingestion, QR batches) waits for request handling, never the other
 * way round; queued jobs catch up when requests leave CPU free. On Linux a nice value belongs to
 * one thread, so it is set on every thread the process already has (V8's own threads for garbage
 * collection and compiling start before any of our code); threads started later inherit it from
 * the thread that starts them. A platform that refuses keeps the default.
 */
export function lowerPriority(nice: number): void {
  if (nice === 0) return;
  let threads: number[] = [0];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    // No /proc (not Linux): the process priority is the call on itself.
  }
  for (const thread of threads) {
    try {
      setPriority(thread, nice);
    } catch {
      // Not permitted here (or the thread has ended): it runs at the normal priority.
    }
  }
}
