import { sql, type SQL } from 'drizzle-orm';
import { linkCounters, links } from '../schema.js';

/** The values of the `status` filter. */
export const LINK_STATUSES = ['active', 'paused', 'scheduled', 'expired', 'limit_reached'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** What decides whether a link resolves before its scan limit is consulted; instants in epoch ms. */
export interface WindowFields {
  paused: boolean;
  scheduleActive: boolean;
  startDate: number | null;
  endDate: number | null;
}

/**
 * Why a link does not resolve at `now` whatever its scans, or null. The one order of precedence,
 * in JS and in SQL alike: paused beats everything (the owner's explicit act), then the schedule
 * window, then (in linkStatus) the scan limit. The redirect asks this of a cached link.
 */
export function windowStatus(link: WindowFields, now: number): 'paused' | 'scheduled' | 'expired' | null {
  if (link.paused) return 'paused';
  if (link.scheduleActive && link.startDate !== null && now < link.startDate) return 'scheduled';
  if (link.scheduleActive && link.endDate !== null && now >= link.endDate) return 'expired';
  return null;
}

interface StatusFields {
  paused: boolean;
  scheduleActive: boolean;
  startDate: Date | null;
  endDate: Date | null;
  scanLimitActive: boolean;
  scanLimit: number | null;
  limitScanCount: number;
}

export function linkStatus(link: StatusFields, now = new Date()): LinkStatus {
  const window = windowStatus(
    {
      paused: link.paused,
      scheduleActive: link.scheduleActive,
      startDate: link.startDate?.getTime() ?? null,
      endDate: link.endDate?.getTime() ?? null,
    },
    now.getTime(),
  );
  if (window) return window;
  if (link.scanLimitActive && link.scanLimit !== null && link.limitScanCount >= link.scanLimit) return 'limit_reached';
  return 'active';
}

export const linkStatusSql: SQL<LinkStatus> = sql<LinkStatus>`case
  when ${links.paused} then 'paused'
  when ${links.scheduleActive} and ${links.startDate} is not null and now() < ${links.startDate} then 'scheduled'
  when ${links.scheduleActive} and ${links.endDate} is not null and now() >= ${links.endDate} then 'expired'
  when ${links.scanLimitActive} and ${links.scanLimit} is not null
    and (select c.limit_scan_count from ${linkCounters} c where c.link_id = ${links.id}) >= ${links.scanLimit} then 'limit_reached'
  else 'active' end`;
