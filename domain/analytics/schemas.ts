/**
 * The analytics reads' filters and limits, and the plain query they take; the HTTP queries and the
 * export's body that carry them are the api's (api/routes/analytics/schemas.ts).
 */
import { UNKNOWN_SOURCE } from '../links/attribution.js';
import type { WindowQuery } from './window.js';

/** The most ranked rows one read answers (a larger `limit` answers this many). */
export const MAX_LIMIT = 1000;

/**
 * The analytics filters (an addition to the API contract): a fact each scan counted must have,
 * as the scans column it is in.
 */
export const FILTER_PARAMS = { country: 'country_name', browser: 'browser_name', os: 'os_name', source: 'source' } as const;
export type FilterParam = keyof typeof FILTER_PARAMS;

/**
 * The filters on visitor facts, and `domain`: only the scans of links on that domain now (a host
 * name in the stored form, the default domain by its host; decision 0426).
 */
export type AnalyticsFilters = Partial<Record<FilterParam, string>> & { domain?: string };

/** The name of a missing value in ranked rows, and in filters. */
export const UNKNOWN_NAME = 'Unknown';

/** What each filter calls a missing value: as its ranked rows do (the source ranking says `unknown`). */
const MISSING_NAMES: Record<FilterParam, string> = {
  country: UNKNOWN_NAME,
  browser: UNKNOWN_NAME,
  os: UNKNOWN_NAME,
  source: UNKNOWN_SOURCE,
};

/**
 * The filters given, each as the scans column it tests and the value that column must hold once
 * null is read as '' (the filter's missing name asks for ''). Empty without filters.
 */
export function filterConditions(filters: AnalyticsFilters): Array<{ column: string; value: string }> {
  return (Object.keys(FILTER_PARAMS) as FilterParam[]).flatMap((param) => {
    const value = filters[param];
    if (value === undefined) return [];
    return [{ column: FILTER_PARAMS[param], value: value === MISSING_NAMES[param] ? '' : value }];
  });
}

/**
 * What the analytics reads take: the window (window.ts), the filters, whether bot scans count, and
 * how many ranked rows (at most MAX_LIMIT). The api's query (api/routes/analytics/schemas.ts) parses to one.
 */
export interface AnalyticsQuery extends WindowQuery, AnalyticsFilters {
  exclude_bots: boolean;
  limit: number;
}

/** The most links one sparkline read may name: a page of the list at its largest. */
export const MAX_LINK_DAYS_IDS = 1000;
export const MAX_LINK_DAYS = 31;
