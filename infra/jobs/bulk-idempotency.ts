/**
 * `Idempotency-Key` for POST /bulk-generate: a client that retries a request (a timeout, a
 * dropped connection) with the same key gets the first request's job and result, never a second
 * batch. Keys are per account and kept IDEMPOTENCY_KEY_TTL_MS (24 h; then pruned by the
 * maintenance queue, and an older row found first is taken as absent). The row is claimed in the
 * transaction that makes the job's row, so of concurrent requests with one key exactly one starts
 * a job: the others wait on the key's unique index and then find that job. The same key with a
 * different request is a 409.
 */
import { createHash, randomUUID } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Queue } from 'bullmq';
import type { Database } from '#domain/database.js';
import { idempotencyKeys, jobs } from '#domain/schema.js';
import { ConflictError, ValidationError } from '#domain/errors.js';
import { type AccountJobInput } from '#domain/jobs/records.js';
import { addAccountJob, jobRow } from './account-jobs.js';
import { takeQueueTurn } from './fair-turns.js';

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3600 * 1000;
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const KEY_MAX = 255;

/** The header's key: 1-255 visible ASCII characters; absent is null (every request a new batch). */
export function idempotencyKeyOf(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  const key = Array.isArray(header) ? header.join(',') : header;
  if (key.length < 1 || key.length > KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ValidationError([{ path: IDEMPOTENCY_HEADER, message: `Must be 1 to ${KEY_MAX} visible ASCII characters` }]);
  }
  return key;
}

/** JSON with every object's members sorted, so two equal requests hash alike whatever their member order. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

const CLAIM_ATTEMPTS = 3;

/**
 * The job for this key: a new one (its jobs row, then BullMQ) when the key is new to the account,
 * else the job the key started. A job still `queued` is added to BullMQ again (a no-op when it is
 * there): the first request may have stopped between its commit and its add.
 */
export async function startIdempotentJob<P>(
  db: Database,
  queue: Queue,
  key: string,
  hash: string,
  input: AccountJobInput<P>,
  maxQueued: number,
): Promise<{ jobId: string; replayed: boolean }> {
  const { accountId } = input;
  for (let attempt = 1; ; attempt++) {
    const id = randomUUID();
    const priority = await db.transaction(async (tx) => {
      const rows = await tx
        .insert(idempotencyKeys)
        .values({ accountId, key, requestHash: hash, jobId: id })
        .onConflictDoNothing()
        .returning({ jobId: idempotencyKeys.jobId });
      if (rows.length === 0) return null;
      // A full queue (429) rolls the key back with the rest: the same key may be tried again.
      const turn = await takeQueueTurn(tx, queue, accountId, input.type, maxQueued);
      await tx.insert(jobs).values(jobRow(id, queue, input));
      return turn;
    });
    if (priority !== null) {
      await addAccountJob(queue, id, input, priority);
      return { jobId: id, replayed: false };
    }
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key)));
    if (attempt >= CLAIM_ATTEMPTS) throw new Error('Idempotency key could not be claimed');
    if (!row) continue; // pruned meanwhile
    if (row.createdAt.getTime() < Date.now() - IDEMPOTENCY_KEY_TTL_MS) {
      await db
        .delete(idempotencyKeys)
        .where(and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.createdAt, row.createdAt)));
      continue;
    }
    if (row.requestHash !== hash) {
      throw new ConflictError(
        'idempotency_key_reused',
        `This ${IDEMPOTENCY_HEADER} was already used with a different request; use a new key for a new batch`,
      );
    }
    const [job] = await db.select({ state: jobs.state }).from(jobs).where(eq(jobs.id, row.jobId));
    // A job whose first add was lost has waited its turn already: it goes first.
    if (job?.state === 'queued') await addAccountJob(queue, row.jobId, input, 1);
    return { jobId: row.jobId, replayed: true };
  }
}

/** Deletes keys past their time; for the maintenance queue. */
export async function pruneIdempotencyKeys(db: Database, now = Date.now()): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now - IDEMPOTENCY_KEY_TTL_MS)))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}
