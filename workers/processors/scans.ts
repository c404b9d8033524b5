/**
 * The scans job: one redirect process's batch of scans into Postgres (domain/scans/ingest.ts),
 * written together with the other batches this process holds at that moment.
 * Ingestion is idempotent by scan id, so every way a batch can run twice (a retry after Postgres
 * was away, a worker killed after its commit, a lock lost to a stalled check) is harmless.
 */
import type { WorkerOptions } from 'bullmq';
import type { Config } from '#platform/config/index.js';
import type { AppContext } from '#infra/context.js';
import { scanBatchSize } from '#domain/scans/batch.js';
import { ScanIngester } from '#domain/scans/ingest.js';
import { ScanBatchAcks } from '#domain/scans/batch-acks.js';
import { scanRetryDelay } from '#infra/scans/scan-jobs.js';
import type { ScanTraffic } from '#domain/scans/traffic.js';
import type { QueueProcessor } from '#infra/jobs/queues.js';

/** What the processor is built from: the process's config and logger, and the Postgres pool it writes scans with. */
type ScansProcessorParts = Pick<AppContext, 'config' | 'logger'> & { database: Pick<AppContext['database'], 'pool'> };

export function scansProcessor(ctx: ScansProcessorParts, traffic: ScanTraffic): QueueProcessor<'scans'> {
  const ingester = new ScanIngester(ctx.database.pool, ctx.logger, {
    ms: ctx.config.SCAN_INGEST_LINGER_MS,
    maxBatches: ctx.config.SCAN_WORKER_CONCURRENCY,
    maxScans: ctx.config.SCAN_INGEST_MAX_SCANS,
    partitions: ctx.config.SCAN_INGEST_PARTITIONS,
  });
  const acks = new ScanBatchAcks(ctx.database.pool);
  return async (job) => {
    const size = scanBatchSize(job.data);
    if (size === 0) ctx.logger.error({ jobId: job.id }, 'scans job without scans: completed empty');
    // Metered on arrival, not after the write: the write waits up to SCAN_INGEST_LINGER_MS for
    // company, and bulk work should step back as soon as scans start coming, not a write later.
    traffic.add(size);
    await ingester.ingest(job.data);
    // Before the job completes (and BullMQ removes it): the redirect that sent it keeps its
    // write-ahead file until this, and sends the batch again if it finds neither.
    await acks.acknowledge(job.id);
  };
}

export function scansWorkerOptions(config: Config): Partial<WorkerOptions> {
  return {
    // Batches held at once: those that arrive while a statement runs are written by the next one together.
    concurrency: config.SCAN_WORKER_CONCURRENCY,
    // A batch whose worker died is noticed by the next stalled check after its lock ran out.
    lockDuration: config.SCAN_WORKER_LOCK_MS,
    stalledInterval: config.SCAN_WORKER_LOCK_MS,
    // BullMQ fails a job that stalls more than this; a batch must survive any number of worker crashes.
    maxStalledCount: 1_000,
    settings: { backoffStrategy: scanRetryDelay },
  };
}
