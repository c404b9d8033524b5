/**
 * The monthly partitions of `scans` and `scan_visitor_days` (db/migrations/0016,
 * docs/decisions/0397): this month's and the next MONTHS_AHEAD are made ahead of their scans, and
 * months wholly past their retention are dropped. `scans` keeps SCAN_RETENTION_DAYS (0: for ever);
 * visitor keys serve only today's and yesterday's scans, so their months go once two days past.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../database.js';

const MONTHS_AHEAD = 3;
/** Days of visitor keys kept (pruneVisitorDays deletes the rows before; whole months go here). */
const VISITOR_DAYS_KEPT = 2;

interface PartitionedTable {
  name: 'scans' | 'scan_visitor_days';
  column: 'created_at' | 'day';
  /** A month's bound as the partition key's type takes it. */
  bound: (month: string) => string;
}

const TABLES: PartitionedTable[] = [
  { name: 'scans', column: 'created_at', bound: (month) => `${month} 00:00:00+00` },
  { name: 'scan_visitor_days', column: 'day', bound: (month) => month },
];

/** `2026-11-01` for any instant of November 2026 (UTC), `offset` months on. */
function monthStart(at: Date, offset = 0): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1)).toISOString().slice(0, 10);
}

const partitionName = (table: string, month: string) => `${table}_p${month.slice(0, 4)}_${month.slice(5, 7)}`;

export interface PartitionChanges {
  created: string[];
  dropped: string[];
}

/** Makes the months ahead and drops the months past retention; safe to run twice or at once in two workers. */
export async function maintainScanPartitions(db: Database, retentionDays: number, now: Date = new Date()): Promise<PartitionChanges> {
  const changes: PartitionChanges = { created: [], dropped: [] };
  for (const table of TABLES) {
    for (let offset = 0; offset <= MONTHS_AHEAD; offset++) {
      const month = monthStart(now, offset);
      if (await createMonth(db, table, month)) changes.created.push(partitionName(table.name, month));
    }
    const keptDays = table.name === 'scans' ? retentionDays : VISITOR_DAYS_KEPT;
    if (keptDays > 0) changes.dropped.push(...(await dropMonthsBefore(db, table, new Date(now.getTime() - keptDays * 86_400_000))));
  }
  return changes;
}

/**
 * The month's partition, made unless it exists. Rows of that month already in the default
 * partition (scans of a month with no partition then) move into it, in the same transaction.
 */
async function createMonth(db: Database, table: PartitionedTable, month: string): Promise<boolean> {
  const name = partitionName(table.name, month);
  const next = monthStart(new Date(`${month}T00:00:00Z`), 1);
  return db.transaction(async (tx) => {
    // One maker of partitions of this table at a time; the second finds the month made.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`qrlinks partitions ${table.name}`}))`);
    const exists = await tx.execute(sql`select 1 from pg_class where relname = ${name} and relkind = 'r'`);
    if (exists.rows.length > 0) return false;
    const [from, to] = [table.bound(month), table.bound(next)];
    await tx.execute(sql.raw(`create table "${name}" (like "${table.name}" including defaults)`));
    await tx.execute(
      sql.raw(
        `with moved as (delete from "${table.name}_default" where "${table.column}" >= '${from}' and "${table.column}" < '${to}' returning *) ` +
          `insert into "${name}" select * from moved`,
      ),
    );
    await tx.execute(sql.raw(`alter table "${table.name}" attach partition "${name}" for values from ('${from}') to ('${to}')`));
    return true;
  });
}

/** Drops the month partitions that end on or before `cutoff`, and deletes the default partition's rows before it. */
async function dropMonthsBefore(db: Database, table: PartitionedTable, cutoff: Date): Promise<string[]> {
  const { rows } = await db.execute<{ name: string }>(sql`
    select c.relname as name from pg_inherits i
    join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
    where p.relname = ${table.name} and c.relname like ${`${table.name}_p%`}`);
  const firstKept = monthStart(cutoff);
  const dropped: string[] = [];
  for (const { name } of rows) {
    const match = /_p(\d{4})_(\d{2})$/.exec(name);
    if (!match || `${match[1]}-${match[2]}-01` >= firstKept) continue;
    await db.execute(sql.raw(`drop table if exists "${name}"`));
    dropped.push(name);
  }
  await db.execute(sql.raw(`delete from "${table.name}_default" where "${table.column}" < '${table.bound(firstKept)}'`));
  return dropped.sort();
}
