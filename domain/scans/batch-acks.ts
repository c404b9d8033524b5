/**
 * Acknowledgements of batches of scans written to Postgres (the `scan_batch_acks` table), the one
 * hand-off between ingestion and the redirect's write-ahead files: the worker acknowledges a batch
 * by its id (its job id) once every scan of it is committed; the redirect that sent the batch
 * takes the acknowledgement (deleting the row) and only then deletes the batch's write-ahead file
 * (docs/decisions/0385-write-ahead-kept-until-postgres-has-the-scans.md).
 *
 * An acknowledgement written after the scans' commit, not in its transaction, is enough: a worker
 * that dies in between leaves the job to be run again, which inserts nothing (ingestion is
 * idempotent by scan id) and acknowledges then. It must come before the job completes: BullMQ
 * removes a completed job, and a redirect that finds neither the job in Redis nor its
 * acknowledgement sends the batch again.
 */
import type { Pool } from '#platform/database/raw.js';
import { isUuid } from '#platform/format/ids.js';

type Queryable = Pick<Pool, 'query'>;

/** Acknowledgements nobody took (a redirect without write-ahead, a test's batches) are pruned after this. */
const UNTAKEN_KEPT = '1 day';
const PRUNE_EVERY_MS = 60 * 60_000;
/** Ids per statement when the redirect takes its acknowledgements. */
const TAKE_CHUNK = 5000;

/**
 * The worker's side: `acknowledge()` once a batch's scans are committed. The batches that finish
 * within one event-loop turn (a group commit finishes many at once) are acknowledged by one insert.
 */
export class ScanBatchAcks {
  private pending: string[] = [];
  private written: Promise<void> | null = null;
  private lastPrune = 0;

  constructor(private readonly db: Queryable) {}

  /**
   * Resolves once the batch is acknowledged. A job id that is not a UUID (a hand-made job) was
   * not sent by a redirect: nobody waits for it.
   */
  acknowledge(batchId: string | undefined): Promise<void> {
    if (!isUuid(batchId)) return Promise.resolve();
    this.pending.push(batchId);
    this.written ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.write());
    return this.written;
  }

  private async write(): Promise<void> {
    const ids = this.pending;
    this.pending = [];
    this.written = null;
    await this.db.query('insert into scan_batch_acks (batch_id) select unnest($1::uuid[]) on conflict do nothing', [ids]);
    if (Date.now() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = Date.now();
    await this.db.query(`delete from scan_batch_acks where acked_at < now() - interval '${UNTAKEN_KEPT}'`);
  }
}

/** The redirect's side: which of these batches are in Postgres; their acknowledgements are deleted as they are read. */
export async function takeScanBatchAcks(db: Queryable, batchIds: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < batchIds.length; i += TAKE_CHUNK) {
    const { rows } = await db.query<{ batch_id: string }>(
      'delete from scan_batch_acks where batch_id = any($1::uuid[]) returning batch_id',
      [batchIds.slice(i, i + TAKE_CHUNK)],
    );
    for (const row of rows) taken.add(row.batch_id);
  }
  return taken;
}
