import { deactivateExpiredKeys } from '#domain/accounts/api-keys.js';
import { pruneVisitorDays, rollLinkDays } from '#domain/analytics/rollups.js';
import { pruneAuditEvents } from '#domain/audit/events.js';
import { pruneIdempotencyKeys } from '#infra/jobs/bulk-idempotency.js';
import type { AppContext } from '#infra/context.js';
import { sweepOrphanFiles } from '#domain/files/files.js';
import { recheckDomains, RECHECK } from '#domain/domains/recheck.js';
import type { MaintenanceJob } from '#domain/jobs/job-kinds.js';
import type { QueueProcessor } from '#infra/jobs/queues.js';
import { expireFinishedJobs } from '#domain/jobs/retention.js';
import { maintainScanPartitions } from '#domain/scans/partitions.js';
import { pruneDeliveries } from '#domain/webhooks/dispatch.js';

/** Scheduled housekeeping. Each kind is safe to run twice or concurrently. */
export function maintenanceProcessor(ctx: AppContext): QueueProcessor<'maintenance'> {
  return async (job) => {
    switch (job.data.kind) {
      case 'expire-api-keys': {
        const deactivated = await deactivateExpiredKeys(ctx.db);
        if (deactivated > 0) ctx.logger.info({ deactivated }, 'expired API keys deactivated');
        return { deactivated };
      }
      case 'sweep-orphan-files': {
        const deleted = await sweepOrphanFiles(ctx, new Date(Date.now() - ctx.config.ORPHAN_FILE_TTL_MS));
        if (deleted > 0) ctx.logger.info({ deleted }, 'orphaned uploads deleted');
        return { deleted };
      }
      case 'prune-visitor-days': {
        const pruned = await pruneVisitorDays(ctx.db);
        return { pruned };
      }
      case 'roll-link-days': {
        const rolled = await rollLinkDays(ctx.db);
        if (rolled.accounts > 0) ctx.logger.info(rolled, "links' day rows of closed days written");
        return rolled;
      }
      case 'expire-jobs': {
        const expired = await expireFinishedJobs(ctx.db, ctx.storage, new Date(Date.now() - ctx.config.JOB_RETENTION_MS));
        if (expired > 0) ctx.logger.info({ expired }, 'finished jobs past their retention deleted with their files');
        return { expired };
      }
      case 'prune-idempotency-keys': {
        const pruned = await pruneIdempotencyKeys(ctx.db);
        return { pruned };
      }
      case 'scan-partitions': {
        const changes = await maintainScanPartitions(ctx.db, ctx.config.SCAN_RETENTION_DAYS);
        if (changes.created.length + changes.dropped.length > 0)
          ctx.logger.info(changes, 'scan partitions made ahead or dropped past retention');
        return changes;
      }
      case 'check-domains': {
        const result = await recheckDomains(ctx);
        if (result.moved > 0) ctx.logger.info(result, 'brand domains re-checked; some changed state');
        return result;
      }
      case 'prune-webhook-deliveries': {
        const pruned = await pruneDeliveries(ctx.db, ctx.config.WEBHOOK_LOG_RETENTION_DAYS);
        if (pruned > 0) ctx.logger.info({ pruned }, 'webhook deliveries past the log retention deleted');
        return { pruned };
      }
      case 'prune-audit-events': {
        const pruned = await pruneAuditEvents(ctx.db, ctx.config.AUDIT_RETENTION_DAYS);
        if (pruned > 0) ctx.logger.info({ pruned }, 'audit events past their retention deleted');
        return { pruned };
      }
    }
  };
}

/** Repeatable jobs; upserting is idempotent, so every worker process may register them. */
export async function scheduleMaintenance(ctx: AppContext): Promise<void> {
  const opts = { removeOnComplete: 100, removeOnFail: 100 };
  await ctx.queues.maintenance.upsertJobScheduler(
    'expire-api-keys',
    { every: ctx.config.KEY_EXPIRY_SWEEP_MS },
    { name: 'expire-api-keys', data: { kind: 'expire-api-keys' } satisfies MaintenanceJob, opts },
  );
  await ctx.queues.maintenance.upsertJobScheduler(
    'sweep-orphan-files',
    { every: ctx.config.ORPHAN_SWEEP_MS },
    { name: 'sweep-orphan-files', data: { kind: 'sweep-orphan-files' } satisfies MaintenanceJob, opts },
  );
  await ctx.queues.maintenance.upsertJobScheduler(
    'prune-visitor-days',
    { every: VISITOR_DAYS_PRUNE_MS },
    { name: 'prune-visitor-days', data: { kind: 'prune-visitor-days' } satisfies MaintenanceJob, opts },
  );
  await ctx.queues.maintenance.upsertJobScheduler(
    'roll-link-days',
    { every: LINK_DAYS_ROLL_MS },
    { name: 'roll-link-days', data: { kind: 'roll-link-days' } satisfies MaintenanceJob, opts },
  );
  await ctx.queues.maintenance.upsertJobScheduler(
    'expire-jobs',
    { every: JOB_EXPIRY_SWEEP_MS },
    { name: 'expire-jobs', data: { kind: 'expire-jobs' } satisfies MaintenanceJob, opts },
  );
  await ctx.queues.maintenance.upsertJobScheduler(
    'prune-idempotency-keys',
    { every: IDEMPOTENCY_KEYS_PRUNE_MS },
    { name: 'prune-idempotency-keys', data: { kind: 'prune-idempotency-keys' } satisfies MaintenanceJob, opts },
  );
  await ctx.queues.maintenance.upsertJobScheduler(
    'scan-partitions',
    { every: SCAN_PARTITIONS_MS },
    { name: 'scan-partitions', data: { kind: 'scan-partitions' } satisfies MaintenanceJob, opts },
  );
  await ctx.queues.maintenance.upsertJobScheduler(
    'check-domains',
    { every: RECHECK.freshEveryMs },
    { name: 'check-domains', data: { kind: 'check-domains' } satisfies MaintenanceJob, opts },
  );
  await ctx.queues.maintenance.upsertJobScheduler(
    'prune-audit-events',
    { every: AUDIT_PRUNE_MS },
    { name: 'prune-audit-events', data: { kind: 'prune-audit-events' } satisfies MaintenanceJob, opts },
  );
  await ctx.queues.maintenance.upsertJobScheduler(
    'prune-webhook-deliveries',
    { every: AUDIT_PRUNE_MS },
    { name: 'prune-webhook-deliveries', data: { kind: 'prune-webhook-deliveries' } satisfies MaintenanceJob, opts },
  );
}

/** Audit events past AUDIT_RETENTION_DAYS, and webhook deliveries past WEBHOOK_LOG_RETENTION_DAYS, go within the hour. */
const AUDIT_PRUNE_MS = 3_600_000;

/** Months are made three ahead, so a day's delay changes nothing; drops past retention come within the day. */
const SCAN_PARTITIONS_MS = 6 * 3_600_000;

/** Jobs past their retention go within the hour. */
const JOB_EXPIRY_SWEEP_MS = 3_600_000;

/** Idempotency keys past their 24 h go within the hour. */
const IDEMPOTENCY_KEYS_PRUNE_MS = 3_600_000;

/**
 * A closed UTC day's per-dimension rows of each link are written within the hour after it ends;
 * until then its link rankings read link_scan_hours (a few more rows, the same answer).
 */
const LINK_DAYS_ROLL_MS = 3_600_000;

/** Visitor keys of days before yesterday go within the hour (they only serve today's and yesterday's scans). */
const VISITOR_DAYS_PRUNE_MS = 3_600_000;
