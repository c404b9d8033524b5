/**
 * The queues every process agrees on, and the payload each job kind carries. api and redirect
 * only enqueue; workers/ processes. Adding a job kind means adding it here first.
 */
import { Queue, type ConnectionOptions } from 'bullmq';
import type { AnalyticsExportPayload } from '../analytics/export.js';
import type { CafeBulkInsertPayload } from '../cafes/bulk-insert.js';
import type { BulkGeneratePayload } from '../bulk/bulk.js';
import type { ScanBatchPayload } from '../scans/types.js';

export const QUEUE_NAMES = [
  'bulk-generate',
  'cafe-bulk-insert',
  'analytics-export',
  'qr-render',
  'scans',
  'maintenance',
] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Queues whose jobs belong to an account and have a jobs row (shared/jobs/records.ts). */
export const ACCOUNT_JOB_QUEUES: ReadonlySet<QueueName> = new Set(['bulk-generate', 'cafe-bulk-insert', 'analytics-export', 'qr-render']);

/** Scheduled housekeeping; each kind is registered as a repeatable job by the worker. */
export type MaintenanceJob =
  | { kind: 'expire-api-keys' }
  | { kind: 'sweep-orphan-files' }
  | { kind: 'prune-visitor-days' }
  | { kind: 'expire-jobs' }
  | { kind: 'prune-idempotency-keys' };

/** Fields every account-owned job carries, so the worker can keep its jobs row current. */
export interface AccountJobData<P = unknown> {
  accountId: string;
  payload: P;
}

/** Render these links' QR codes (PNG and SVG) into one ZIP in object storage. */
export interface QrRenderPayload {
  linkIds: string[];
}

export interface QrRenderResult {
  /** Storage key of the ZIP. */
  zipKey: string;
  /** GET /jobs/:jobId/download serves the ZIP under this name. */
  fileName: string;
  downloadUrl: string;
  /** Links rendered (each as PNG and SVG). */
  count: number;
  bytes: number;
}

export interface JobPayloads {
  'analytics-export': AccountJobData<AnalyticsExportPayload>;
  'cafe-bulk-insert': AccountJobData<CafeBulkInsertPayload>;
  'bulk-generate': AccountJobData<BulkGeneratePayload>;
  maintenance: MaintenanceJob;
  'qr-render': AccountJobData<QrRenderPayload>;
  scans: ScanBatchPayload;
}

export type Queues = Record<QueueName, Queue>;

export function createQueues(connection: ConnectionOptions, prefix: string): Queues {
  const entries = QUEUE_NAMES.map((name) => [name, new Queue(name, { connection, prefix })] as const);
  return Object.fromEntries(entries) as Queues;
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q) => q.close()));
}
