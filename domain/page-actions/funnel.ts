/**
 * A link's funnel: its human scans in a window, and how many visitors went on to tap each action
 * of its page ("1,204 scans → 310 saved the contact"). Taps are kept per UTC day
 * (page_action_days), so a window's taps are those of the UTC days it overlaps; its scans are
 * counted as every other analytics read counts them.
 */
import { and, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import { generalAnalytics, linkIdOf, percentageOf, type AnalyticsScope } from '../analytics/analytics.js';
import { analyticsWindow, type WindowQuery } from '../analytics/window.js';
import { PAGE_ACTION_NAMES, PAGE_ACTIONS, type PageAction } from './actions.js';
import { pageActionDays } from './tables.js';

export interface FunnelStep {
  action: PageAction;
  name: string;
  taps: number;
  percentage: string;
}

export interface Funnel {
  scans: number;
  actions: FunnelStep[];
}

const DAY_MS = 86_400_000;
const utcDay = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS).toISOString().slice(0, 10);

/** The funnel of the scope's link; an id that is not one of the caller's links has none (0 scans, no actions). */
export async function actionFunnel(db: Database, scope: AnalyticsScope, query: WindowQuery, now = new Date()): Promise<{ data: Funnel }> {
  const linkId = await linkIdOf(db, scope);
  if (!linkId) return { data: { scans: 0, actions: [] } };
  const window = analyticsWindow(query, now);
  // Taps never come from bots, so they are set against the human scans whatever exclude_bots says.
  const general = await generalAnalytics(db, scope, { ...query, exclude_bots: true, limit: 1 });
  const scans = general.data.humanScans;
  if (window.to.getTime() <= window.from.getTime()) return { data: { scans, actions: [] } };
  const taps = sql<number>`sum(${pageActionDays.taps})::int`;
  const rows = await db
    .select({ action: pageActionDays.action, taps })
    .from(pageActionDays)
    .where(
      and(
        eq(pageActionDays.linkId, linkId),
        eq(pageActionDays.accountId, scope.accountId),
        gte(pageActionDays.day, utcDay(window.from.getTime())),
        lte(pageActionDays.day, utcDay(window.to.getTime() - 1)),
        inArray(pageActionDays.action, [...PAGE_ACTIONS]),
      ),
    )
    .groupBy(pageActionDays.action)
    .orderBy(desc(taps), pageActionDays.action);
  return {
    data: {
      scans,
      actions: rows
        .filter((r) => r.taps > 0)
        .map((r) => {
          const action = r.action as PageAction;
          return { action, name: PAGE_ACTION_NAMES[action], taps: r.taps, percentage: percentageOf(r.taps, scans) };
        }),
    },
  };
}
