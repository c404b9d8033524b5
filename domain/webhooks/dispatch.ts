/**
 * The worker's side of deliveries before they are sent: scans waiting for `link.scanned` made into
 * deliveries of up to SCAN_BATCH_SIZE (a full batch at once, the rest once its oldest scan has
 * waited WEBHOOK_SCAN_BATCH_MS), new deliveries claimed for queueing, deliveries whose job was lost
 * found again, and old ones pruned. Each step is one statement or transaction that any number of
 * workers may run at once: rows are taken with SKIP LOCKED, so each scan lands in exactly one
 * delivery and each delivery is claimed once.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import { NEW_DELIVERY_ID } from './events.js';

/** Scans per `link.scanned` delivery. */
export const SCAN_BATCH_SIZE = 100;

/** Endpoints with scans waiting: how many (counted up to a batch) and since when. */
async function waitingScans(db: Database): Promise<Array<{ endpointId: string; n: number; oldest: Date }>> {
  const { rows } = await db.execute<{ endpoint_id: string; n: number; oldest: string }>(sql`
    select e.endpoint_id, least(count(*), ${SCAN_BATCH_SIZE})::int as n, min(q.queued_at) as oldest
    from (select distinct endpoint_id from webhook_scan_queue) e
    cross join lateral (
      select queued_at from webhook_scan_queue where endpoint_id = e.endpoint_id order by id limit ${SCAN_BATCH_SIZE}
    ) q
    group by e.endpoint_id`);
  return rows.map((r) => ({ endpointId: r.endpoint_id, n: r.n, oldest: new Date(r.oldest) }));
}

/**
 * One delivery of the endpoint's oldest waiting scans (up to a batch), written by the statement
 * that takes them off the queue. Returns how many scans it carried (0: none were free).
 */
async function batchScans(db: Database, endpointId: string): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    with taken as (
      delete from webhook_scan_queue where id in (
        select id from webhook_scan_queue where endpoint_id = ${endpointId} order by id limit ${SCAN_BATCH_SIZE} for update skip locked
      )
      returning id, scan
    ),
    made as (
      insert into webhook_deliveries (id, endpoint_id, account_id, event_type, body)
      select ${NEW_DELIVERY_ID}, e.id, e.account_id, 'link.scanned',
        json_build_object(
          'type', 'link.scanned',
          'timestamp', to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
          'data', json_build_object('count', count(*), 'scans', json_agg(t.scan order by t.id))
        )::text
      from taken t cross join webhook_endpoints e
      where e.id = ${endpointId}
      group by e.id, e.account_id
      returning 1
    )
    select (select count(*)::int from taken) as n, (select count(*) from made) as made`);
  return rows[0]?.n ?? 0;
}

/**
 * Every endpoint's full batches, and its partial one once due. Returns the deliveries made;
 * `due` is when the next partial batch will be (null: none waits).
 */
export async function batchWaitingScansOnce(
  db: Database,
  batchMs: number,
  now = new Date(),
): Promise<{ made: number; nextDueAt: Date | null }> {
  let made = 0;
  let nextDueAt: Date | null = null;
  for (const waiting of await waitingScans(db)) {
    let { n, oldest } = waiting;
    for (;;) {
      const dueAt = new Date(oldest.getTime() + batchMs);
      if (n < SCAN_BATCH_SIZE && dueAt > now) {
        if (nextDueAt === null || dueAt < nextDueAt) nextDueAt = dueAt;
        break;
      }
      const carried = await batchScans(db, waiting.endpointId);
      if (carried === 0) break;
      made++;
      if (carried < SCAN_BATCH_SIZE) break;
      const [next] = (await waitingScans(db)).filter((w) => w.endpointId === waiting.endpointId);
      if (!next) break;
      ({ n, oldest } = next);
    }
  }
  return { made, nextDueAt };
}

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  attempts: number;
}

/**
 * New deliveries no job was queued for yet, oldest first, marked as queued: for each endpoint only
 * as many as bring its deliveries waiting for a first attempt or due now to `perEndpoint`. The
 * rest wait in Postgres, where they cost nothing, instead of as jobs a slow endpoint's slots would
 * turn away again and again (every worker's time, every account's deliveries).
 */
export async function claimNewDeliveries(db: Database, limit: number, perEndpoint: number): Promise<ClaimedDelivery[]> {
  const { rows } = await db.execute<{ id: string; endpoint_id: string; attempts: number }>(sql`
    with busy as (
      select endpoint_id, count(*)::int as n from webhook_deliveries
      where state = 'pending' and queued_at is not null and (next_attempt_at is null or next_attempt_at <= now())
      group by endpoint_id
    ),
    candidates as (
      select id from (
        select d.id, d.endpoint_id, row_number() over (partition by d.endpoint_id order by d.created_at, d.id) as nth
        from webhook_deliveries d
        where d.state = 'pending' and d.queued_at is null
      ) c
      left join busy b on b.endpoint_id = c.endpoint_id
      where c.nth <= ${perEndpoint} - coalesce(b.n, 0)
      limit ${limit}
    )
    update webhook_deliveries set queued_at = now()
    where id in (select id from webhook_deliveries where id in (select id from candidates) and queued_at is null for update skip locked)
    returning id, endpoint_id, attempts`);
  return rows.map((r) => ({ id: r.id, endpointId: r.endpoint_id, attempts: r.attempts }));
}

/**
 * Pending deliveries whose next attempt is overdue by `graceMs`: their job was lost (a Redis that
 * lost its data) or never added. Queueing them again is harmless: a job id that exists is kept.
 */
export async function overdueDeliveries(db: Database, graceMs: number, limit = 1000): Promise<ClaimedDelivery[]> {
  const { rows } = await db.execute<{ id: string; endpoint_id: string; attempts: number }>(sql`
    select id, endpoint_id, attempts from webhook_deliveries
    where state = 'pending' and queued_at is not null
      and coalesce(next_attempt_at, queued_at) < now() - make_interval(secs => ${graceMs / 1000})
    order by next_attempt_at nulls first
    limit ${limit}`);
  return rows.map((r) => ({ id: r.id, endpointId: r.endpoint_id, attempts: r.attempts }));
}

/** Deliveries (and their attempts) older than the log keeps, except those still being retried. */
export async function pruneDeliveries(db: Database, retentionDays: number): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    with gone as (
      delete from webhook_deliveries where id in (
        select id from webhook_deliveries
        where created_at < now() - make_interval(days => ${retentionDays}) and state <> 'pending'
        limit 10000
      )
      returning 1
    )
    select count(*)::int as n from gone`);
  return rows[0]?.n ?? 0;
}
