/**
 * The job kinds every process agrees on, and the payload and result of each, declared once: the
 * queues that carry them (infra/jobs/queues.ts) are typed from these, so what api and redirect
 * enqueue and what a worker's processor takes and answers cannot drift apart. Adding a job kind
 * means adding it here first.
 */
import type { AnalyticsExportPayload, AnalyticsExportResult } from '../analytics/export.js';
import type { AuditExportPayload, AuditExportResult } from '../audit/export.js';
import type { BulkInsertResult, CafeBulkInsertPayload } from '../cafes/bulk-insert-schema.js';
import type { BulkGeneratePayload, BulkGenerateResult } from '../bulk/job.js';
import type { ScanBatchPayload } from '../scans/types.js';
import type { PrintSheetPayload, PrintSheetResult } from '../qr/print/sheet-job.js';

export const QUEUE_NAMES = [
  'bulk-generate',
  'cafe-bulk-insert',
  'analytics-export',
  'audit-export',
  'qr-render',
  'print-sheets',
  'scans',
  'maintenance',
  'webhooks',
] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Queues whose jobs belong to an account and have a jobs row (domain/jobs/records.ts). */
export const ACCOUNT_JOB_QUEUES: ReadonlySet<QueueName> = new Set([
  'bulk-generate',
  'cafe-bulk-insert',
  'analytics-export',
  'audit-export',
  'qr-render',
  'print-sheets',
]);

/** Scheduled housekeeping; each kind is registered as a repeatable job by the worker. */
export type MaintenanceJob =
  | { kind: 'expire-api-keys' }
  | { kind: 'sweep-orphan-files' }
  | { kind: 'prune-visitor-days' }
  | { kind: 'roll-link-days' }
  | { kind: 'expire-jobs' }
  | { kind: 'prune-idempotency-keys' }
  | { kind: 'scan-partitions' }
  | { kind: 'prune-audit-events' }
  | { kind: 'check-domains' }
  | { kind: 'prune-webhook-deliveries' };

/** What a housekeeping run did: how many rows it changed, under the kind's own word. */
export type MaintenanceResult =
  | { deactivated: number }
  | { deleted: number }
  | { pruned: number }
  | { expired: number }
  | { accounts: number; rows: number }
  | { created: string[]; dropped: string[] }
  | { checked: number; moved: number };

/**
 * What BullMQ holds of an account-owned job: its account, nothing more. The job's input (a bulk
 * insert's menu can be 14 MB) lives in its jobs row until the job ends (domain/jobs/records.ts),
 * so Redis, which must not evict (README, "Scale out"), never holds large payloads. `P` types that
 * input; `payload` is present only in jobs queued by a version that kept the input here.
 */
export interface AccountJobData<P = unknown> {
  accountId: string;
  payload?: P;
}

/**
 * One delivery to send (domain/webhooks/deliveries.ts): its attempts on the retry schedule, or a
 * single attempt asked for by a replay. `attemptsBefore`: attempts its row had when this job was
 * queued, so a job queued again after a loss goes on with the schedule where it was.
 */
export interface WebhookDeliveryJob {
  deliveryId: string;
  endpointId: string;
  trigger: 'schedule' | 'replay' | 'test';
  attemptsBefore: number;
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
  'audit-export': AccountJobData<AuditExportPayload>;
  'cafe-bulk-insert': AccountJobData<CafeBulkInsertPayload>;
  'bulk-generate': AccountJobData<BulkGeneratePayload>;
  maintenance: MaintenanceJob;
  'qr-render': AccountJobData<QrRenderPayload>;
  'print-sheets': AccountJobData<PrintSheetPayload>;
  scans: ScanBatchPayload;
  webhooks: WebhookDeliveryJob;
}

/** What a job of each queue answers: an account job's in its jobs row, another's as BullMQ's return value. */
export interface JobResults {
  'analytics-export': AnalyticsExportResult;
  'audit-export': AuditExportResult;
  'cafe-bulk-insert': BulkInsertResult;
  'bulk-generate': BulkGenerateResult;
  maintenance: MaintenanceResult;
  'qr-render': QrRenderResult;
  'print-sheets': PrintSheetResult;
  scans: void;
  webhooks: string;
}

/** The queues whose jobs belong to an account (ACCOUNT_JOB_QUEUES), and what such a job's request carries. */
export type AccountQueueName = { [N in QueueName]: JobPayloads[N] extends AccountJobData ? N : never }[QueueName];
export type AccountJobPayload<N extends AccountQueueName> = NonNullable<JobPayloads[N]['payload']>;

/**
 * What BullMQ keeps as a finished job's return value: nothing for an account job, whose result (a
 * batch's 1,200 links) is its jobs row's, so a finished job leaves only small data in Redis.
 */
export type KeptResult<N extends QueueName> = N extends AccountQueueName ? null : JobResults[N];
