/**
 * How many links an account holds and what their non-file content weighs (data and page style as
 * JSON text: landing HTML, vCard fields, menu text), against its plan's limits
 * (docs/decisions/0372-links-and-their-content-bounded-per-plan.md). Files have their own quota
 * (domain/files/quota.ts); without these, one account could fill the database with links.
 *
 * The counts are kept by triggers on `links` (migration 0020), so every way a link is made (one,
 * a duplicate, a bulk job, a cafe) or removed counts. A write that adds or grows links checks the
 * counts in its own transaction, after its rows are in: the trigger's update holds the account's
 * count row until commit, so two writes of one account cannot both pass the same last room.
 */
import { eq, sql } from 'drizzle-orm';
import { accounts, accountLinkUsage } from '../schema.js';
import type { Plan } from '../accounts/plans.js';
import { AppError } from '../errors.js';
import type { Executor } from '../database.js';
import { formatStorageSize } from '../files/quota.js';

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

/**
 * Links an account may hold, and bytes of their content. A cafe has a few links and a marketer a
 * few thousand codes per campaign; each plan up holds ten times the one below. The content limit
 * is far above what the links need (a website link's data is about 100 bytes; a landing page at
 * most 512 KiB) and caps what one account can make the database store.
 */
export const LINK_LIMITS: Record<Plan, { links: number; dataBytes: number }> = {
  starter: { links: 10_000, dataBytes: 256 * MIB },
  pro: { links: 250_000, dataBytes: 2 * GIB },
  business: { links: 2_500_000, dataBytes: 16 * GIB },
  enterprise: { links: 25_000_000, dataBytes: 128 * GIB },
};

export interface LinkUsage {
  plan: Plan;
  links: number;
  dataBytes: number;
}

export async function linkUsage(db: Executor, accountId: string): Promise<LinkUsage> {
  const [row] = await db
    .select({ plan: accounts.plan, links: accountLinkUsage.links, dataBytes: accountLinkUsage.dataBytes })
    .from(accounts)
    .leftJoin(accountLinkUsage, eq(accountLinkUsage.accountId, accounts.id))
    .where(eq(accounts.id, accountId));
  return { plan: row?.plan ?? 'starter', links: row?.links ?? 0, dataBytes: row?.dataBytes ?? 0 };
}

/** 10000 → "10,000". */
const grouped = (n: number) => n.toLocaleString('en-US');

/** `usage`: the account before the links being added (`adding` of them). */
function linkLimitReached(usage: LinkUsage, adding: number): AppError {
  const limit = LINK_LIMITS[usage.plan].links;
  return new AppError('link_limit_reached', {
    message:
      `Link limit reached: the ${usage.plan} plan holds up to ${grouped(limit)} links and this account has ${grouped(usage.links)}` +
      `${adding > 1 ? `; these ${grouped(adding)} do not fit` : ''}. Delete links you no longer need.`,
  });
}

function dataQuotaExceeded(usage: LinkUsage): AppError {
  const quota = LINK_LIMITS[usage.plan].dataBytes;
  return new AppError('link_data_quota_exceeded', {
    message:
      `Link content quota exceeded: the ${usage.plan} plan stores up to ${formatStorageSize(quota)} of link content ` +
      `(data and page styles, not files) and this would take the account to ${formatStorageSize(usage.dataBytes)}. ` +
      'Delete links you no longer need or shorten their pages.',
  });
}

/**
 * Inside the transaction that added `change.links` links or grew their content by
 * `change.dataBytes`, after its rows are written: throws (so the transaction rolls back) when the
 * account is now past its plan's limits. A write that adds nothing never fails here, so an account
 * over its limits (moved to a lower plan) can always shrink or edit within what it has.
 */
export async function assertLinkUsageWithinPlan(
  tx: Executor,
  accountId: string,
  change: { links: number; dataBytes: number },
): Promise<void> {
  if (change.links <= 0 && change.dataBytes <= 0) return;
  const usage = await linkUsage(tx, accountId);
  const limits = LINK_LIMITS[usage.plan];
  if (change.links > 0 && usage.links > limits.links) throw linkLimitReached({ ...usage, links: usage.links - change.links }, change.links);
  if (change.dataBytes > 0 && usage.dataBytes > limits.dataBytes) throw dataQuotaExceeded(usage);
}

/** What a stored link's content weighs, as the triggers count it. */
export async function linkDataBytes(db: Executor, linkId: string): Promise<number> {
  const result = await db.execute<{ bytes: string }>(
    sql`select link_data_bytes(meta_data, page_style) as bytes from links where id = ${linkId}::uuid`,
  );
  return Number(result.rows[0]?.bytes ?? 0);
}

/** Before a job is queued: a cheap early answer when `count` more links cannot fit (the job's own transaction checks again). */
export async function assertRoomForLinks(db: Executor, accountId: string, count: number): Promise<void> {
  const usage = await linkUsage(db, accountId);
  if (usage.links + count > LINK_LIMITS[usage.plan].links) throw linkLimitReached(usage, count);
}
