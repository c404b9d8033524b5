/**
 * Scans per local day of many links at once: the links list's sparklines, one read for a page of
 * links instead of one per row (docs/decisions/0378-the-links-list-redesigned.md). Read like the
 * other analytics (analytics.ts): whole UTC hours from each link's hour rows in scan_rollups, plus
 * the raw scans of the part of an hour at the window's start in a zone like Asia/Kolkata.
 */
import { and, inArray, sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import { links } from '../schema.js';
import { linksWithin, type LinkScope } from '../links/scope.js';
import { at, planWindow, rowsOf } from './analytics.js';
import { ROLLUP_DIMENSIONS } from './rollups.js';
import { addDays, analyticsWindow, formatDate, localDateAt } from './window.js';

export interface LinkDaysQuery {
  /** The links' slugs (dynamic_link_id); those not the account's are left out of the answer. */
  ids: readonly string[];
  /** Today and the days before it: this many local days. */
  days: number;
  timezone: string;
  exclude_bots: boolean;
}

export interface LinkDays {
  /** The local days, oldest first, `YYYY-MM-DD`. */
  days: string[];
  /** Per link asked for and found, in the order asked: its scans on each of those days. */
  links: Array<{ dynamic_link_id: string; scans: number[] }>;
}

export async function linkDailyScans(db: Database, scope: LinkScope, query: LinkDaysQuery, now = new Date()): Promise<LinkDays> {
  const today = localDateAt(now, query.timezone);
  const first = addDays(today, -(query.days - 1));
  const days = Array.from({ length: query.days }, (_, i) => formatDate(addDays(first, i)));
  const window = analyticsWindow({ duration: 'custom', date_from: days[0]!, timezone: query.timezone }, now);
  const found =
    query.ids.length === 0
      ? []
      : await db
          .select({ id: links.id, slug: links.slug })
          .from(links)
          .where(and(linksWithin(scope), inArray(links.slug, [...query.ids])));
  if (found.length === 0) return { days, links: [] };
  const ids = sql`${`{${found.map((l) => l.id).join(',')}}`}::uuid[]`;
  const plan = planWindow(window, now.getTime());
  const bots = query.exclude_bots ? sql`not c.is_bot` : sql`true`;
  const parts = [
    sql`select r.scope_id as link_id, r.bucket as at, r.is_bot, r.scans from scan_rollups r
        where r.scope_id = any(${ids}) and r.dimension = ${ROLLUP_DIMENSIONS.all} and r.grain = 'hour'
          and r.bucket >= ${at(plan.hoursFrom)} and r.bucket < ${at(plan.hoursTo)}`,
    ...plan.raw.map(
      ([a, b]) => sql`select s.link_id, s.created_at as at, s.is_bot, 1 as scans from scans s
        where s.link_id = any(${ids}) and s.created_at >= ${at(a)} and s.created_at < ${at(b)}`,
    ),
  ];
  const counted = await rowsOf<{ link_id: string; day: string; n: number }>(
    db,
    sql`select c.link_id, to_char(c.at at time zone ${query.timezone}, 'YYYY-MM-DD') as day, sum(c.scans)::int as n
        from (${sql.join(parts, sql` union all `)}) c where ${bots} group by 1, 2`,
  );
  const perLink = new Map(found.map((l) => [l.id, new Array<number>(days.length).fill(0)]));
  const dayIndex = new Map(days.map((d, i) => [d, i]));
  for (const row of counted) {
    const i = dayIndex.get(row.day);
    if (i !== undefined) perLink.get(row.link_id)![i] = row.n;
  }
  const bySlug = new Map(found.map((l) => [l.slug, perLink.get(l.id)!]));
  return {
    days,
    links: [...new Set(query.ids)].filter((s) => bySlug.has(s)).map((s) => ({ dynamic_link_id: s, scans: bySlug.get(s)! })),
  };
}
