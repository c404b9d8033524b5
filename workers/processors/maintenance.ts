import type { Processor } from 'bullmq';
import { deactivateExpiredKeys } from '../../shared/accounts/api-keys.js';
import type { AppContext } from '../../shared/context.js';
import { sweepOrphanFiles } from '../../shared/files/files.js';
import type { MaintenanceJob } from '../../shared/jobs/queues.js';

/** Scheduled housekeeping. Each kind is safe to run twice or concurrently. */
export function maintenanceProcessor(ctx: AppContext): Processor<MaintenanceJob> {
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
}
