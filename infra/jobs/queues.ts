/**
 * The BullMQ queues of the job kinds in domain/jobs/job-kinds.ts, one per kind, under the install's
 * REDIS_NAMESPACE: `Queues` types what api and redirect enqueue, `QueueProcessor` what workers/
 * processes, so a processor that takes or answers something else does not compile.
 */
import { Queue, type ConnectionOptions, type Processor } from 'bullmq';
import type { JobPayloads, KeptResult, QueueName } from '#domain/jobs/job-kinds.js';

export type QueueOf<N extends QueueName> = Queue<JobPayloads[N], KeptResult<N>>;
export type Queues = { [N in QueueName]: QueueOf<N> };
/** A processor of queue N: takes its payload, answers what BullMQ keeps of its result. */
export type QueueProcessor<N extends QueueName> = Processor<JobPayloads[N], KeptResult<N>>;

export function createQueues(connection: ConnectionOptions, prefix: string): Queues {
  const queue = <N extends QueueName>(name: N): QueueOf<N> => new Queue<JobPayloads[N], KeptResult<N>>(name, { connection, prefix });
  return {
    'bulk-generate': queue('bulk-generate'),
    'cafe-bulk-insert': queue('cafe-bulk-insert'),
    'analytics-export': queue('analytics-export'),
    'audit-export': queue('audit-export'),
    'qr-render': queue('qr-render'),
    'print-sheets': queue('print-sheets'),
    scans: queue('scans'),
    maintenance: queue('maintenance'),
    webhooks: queue('webhooks'),
  };
}

export async function closeQueues(queues: Queues): Promise<void> {
  await Promise.all(Object.values(queues).map((q) => q.close()));
}
