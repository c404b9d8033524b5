import type { Processor } from 'bullmq';
import { deactivateExpiredKeys } from '../../shared/accounts/api-keys.js';
import type { AppContext } from '../../shared/context.js';
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
    }
  };
}

/** Repeatable jobs; upserting is idempotent, so every worker process may register them. */
export async function scheduleMaintenance(ctx: AppContext): Promise<void> {
  await ctx.queues.maintenance.upsertJobScheduler(
    'expire-api-keys',
    { every: ctx.config.KEY_EXPIRY_SWEEP_MS },
    { name: 'expire-api-keys', data: { kind: 'expire-api-keys' }, opts: { removeOnComplete: 100, removeOnFail: 100 } },
  );
}
