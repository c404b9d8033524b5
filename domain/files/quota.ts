/**
 * The per-plan storage quota (STORAGE_QUOTA_BYTES in accounts/plans.ts) and an account's use of
 * it: the sizes of its blobs, so bytes the account stores several times (the same upload twice, a
 * duplicated link's files) count once. Only an upload of bytes the account does not store yet can
 * go past it; duplicating a link or uploading known bytes never does.
 */
import { count, eq, sql } from 'drizzle-orm';
import { accounts, fileBlobs, files } from '../schema.js';
import { STORAGE_QUOTA_BYTES, type Plan } from '../accounts/plans.js';
import { AppError, NotFoundError } from '../errors.js';
import type { Executor } from '../database.js';

export interface StorageUsage {
  /** Bytes of the account's unique stored contents. */
  usedBytes: number;
  quotaBytes: number;
  /** The account's files (file ids), attached or not; several may share stored bytes. */
  files: number;
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/**
 * "5 GiB", "1.27 GiB", "20 MiB", "0.81 KiB": enough to read a quota message at a glance. Rounded
 * down, so an account just short of its quota never reads as having reached it.
 */
export function formatStorageSize(bytes: number): string {
  const [unit, size] = bytes >= GIB ? ['GiB', GIB] : bytes >= MIB ? ['MiB', MIB] : ['KiB', 1024];
  return `${Math.floor((bytes / size) * 100) / 100} ${unit}`;
}

export class StorageQuotaExceededError extends AppError {
  constructor(plan: Plan, quotaBytes: number, usedBytes: number, fileBytes: number) {
    super('storage_quota_exceeded', {
      message:
        `Storage quota exceeded: the ${plan} plan stores up to ${formatStorageSize(quotaBytes)} (${quotaBytes} bytes) ` +
        `and this account uses ${formatStorageSize(usedBytes)} (${usedBytes} bytes); ` +
        `this file of ${formatStorageSize(fileBytes)} (${fileBytes} bytes) does not fit. ` +
        'Delete links you no longer need to free space.',
    });
  }
}

async function usedBytes(db: Executor, accountId: string): Promise<number> {
  const [row] = await db
    .select({ used: sql<string>`coalesce(sum(${fileBlobs.size}), 0)` })
    .from(fileBlobs)
    .where(eq(fileBlobs.accountId, accountId));
  return Number(row?.used ?? 0);
}

/**
 * The account's plan. With `lock`, the account row stays locked for the rest of the transaction,
 * so the account's new blobs are recorded one after the other: two uploads cannot both check the
 * same free space and both fit into it. NO KEY UPDATE does not block inserts that merely reference
 * the account (links, files: their foreign keys take KEY SHARE).
 */
async function planOf(db: Executor, accountId: string, lock = false): Promise<Plan> {
  const query = db.select({ plan: accounts.plan }).from(accounts).where(eq(accounts.id, accountId));
  const [row] = await (lock ? query.for('no key update') : query);
  if (!row) throw new NotFoundError('Account');
  return row.plan;
}

/** Locks the account row for the rest of the transaction (see `planOf`); returns the plan. */
export function lockAccountStorage(tx: Executor, accountId: string): Promise<Plan> {
  return planOf(tx, accountId, true);
}

export async function storageUsage(db: Executor, accountId: string): Promise<StorageUsage> {
  const plan = await planOf(db, accountId);
  const [fileCount] = await db.select({ n: count() }).from(files).where(eq(files.accountId, accountId));
  return { usedBytes: await usedBytes(db, accountId), quotaBytes: STORAGE_QUOTA_BYTES[plan], files: fileCount?.n ?? 0 };
}

/**
 * Throws StorageQuotaExceededError when `bytes` of new content would take the account past its
 * plan's quota. Binding only inside the transaction that inserts the blob, after
 * lockAccountStorage (pass its plan); alone, it is a cheap early answer before a byte is written.
 */
export async function assertStorageFits(db: Executor, accountId: string, bytes: number, plan?: Plan): Promise<void> {
  const accountPlan = plan ?? (await planOf(db, accountId));
  const quota = STORAGE_QUOTA_BYTES[accountPlan];
  const used = await usedBytes(db, accountId);
  if (used + bytes > quota) throw new StorageQuotaExceededError(accountPlan, quota, used, bytes);
}
