/**
 * Where scans came from (an addition to the API contract): scans by source (a printed code, the
 * link itself, unknown), by placement, by the referrer's host and by utm_campaign, ranked as the
 * contract's rankings are (docs/decisions/0429-where-scans-come-from-in-analytics.md).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import { UNKNOWN_SOURCE } from '../links/attribution.js';
import { percentageOf, readingFor, rowsOf, type AnalyticsScope } from './analytics.js';
import type { OriginDimension } from './rollups.js';
import type { AnalyticsQuery } from './schemas.js';

/** What a row of scans with no value is called, per dimension. */
export const NO_ORIGIN_NAMES: Record<OriginDimension, string> = {
  source: UNKNOWN_SOURCE,
  placement: '(none)',
  referrer: '(direct)',
  campaign: '(none)',
};

export interface OriginRow {
  number: number;
  name: string;
  scans: number;
  percentage: string;
  /** Placement rows: the placement's id (null for scans of no placement) and, account-wide, its link's id and name. */
  placementId?: string | null;
  dynamicLinkId?: string;
  linkName?: string;
}

/** Scans by one origin dimension, most first, ties by value (byte order); percentages are of every scan in the window. */
export async function originAnalytics(
  db: Database,
  scope: AnalyticsScope,
  query: AnalyticsQuery,
  dimension: OriginDimension,
): Promise<{ data: OriginRow[] }> {
  const { rows, bots } = await readingFor(db, scope, query);
  if (!rows) return { data: [] };
  const counted = await rowsOf<{ value: string; scans: number; total: number }>(
    db,
    sql`select c.value collate "C" as value, sum(c.scans)::int as scans, (sum(sum(c.scans)) over ())::float8 as total
        from (${rows(dimension, true)}) c where ${bots}
        group by 1 having sum(c.scans) > 0 order by 2 desc, 1 limit ${query.limit}`,
  );
  const placements =
    dimension === 'placement'
      ? await placementNames(
          db,
          scope.accountId,
          counted.map((r) => r.value),
        )
      : null;
  return {
    data: counted.map((r, i) => {
      const row: OriginRow = {
        number: i + 1,
        name: r.value === '' ? NO_ORIGIN_NAMES[dimension] : r.value,
        scans: r.scans,
        percentage: percentageOf(r.scans, r.total),
      };
      if (!placements) return row;
      const placement = placements.get(r.value);
      if (placement) row.name = placement.name;
      row.placementId = r.value === '' ? null : r.value;
      if (scope.linkSlug === undefined && placement) Object.assign(row, { dynamicLinkId: placement.slug, linkName: placement.linkName });
      return row;
    }),
  };
}

/** The account's placements among `ids` (removed ones too: their scans stay theirs), with their links. */
async function placementNames(db: Database, accountId: string, ids: string[]) {
  const wanted = ids.filter((id) => id !== '');
  const names = new Map<string, { name: string; slug: string; linkName: string }>();
  if (wanted.length === 0) return names;
  const found = await db.execute<{ id: string; name: string; slug: string; link_name: string }>(
    sql`select p.id, p.name, l.slug, l.name as link_name from link_placements p join links l on l.id = p.link_id
        where p.account_id = ${accountId} and p.id = any(${`{${wanted.join(',')}}`}::uuid[])`,
  );
  for (const r of found.rows) names.set(r.id, { name: r.name, slug: r.slug, linkName: r.link_name });
  return names;
}
