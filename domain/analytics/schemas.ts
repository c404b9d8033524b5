/** The analytics GETs' query, shared by the per-link and account-wide routes (answers: api/routes/analytics/schemas.ts). */
import { z } from 'zod';
import { isIanaTimezone } from '../links/data/timezone.js';
import { booleanParam } from '../links/schemas.js';
import { DURATIONS, parseLocalDate } from './window.js';

export const MAX_LIMIT = 1000;

/** The analytics filters (an addition to the API contract): a visitor fact each scan counted must have. */
export const FILTER_PARAMS = { country: 'country_name', browser: 'browser_name', os: 'os_name' } as const;
export type FilterParam = keyof typeof FILTER_PARAMS;

const filterParam = (what: string, example: string) =>
  z
    .string()
    .min(1, 'Must not be empty')
    .max(255, 'At most 255 characters')
    .optional()
    .describe(
      `Only scans whose ${what} is this one, as the ranked rows name it (e.g. ${example}; "Unknown" for scans where it could not be told). ` +
        'Filtered answers are counted from the raw scans of the range (docs/decisions/0391)',
    );

/** The filter parameters, shared by the GETs' query and the export's body. */
export const filterShape = {
  country: filterParam('country', 'Germany'),
  browser: filterParam('browser', 'Mobile Safari'),
  os: filterParam('operating system', 'iOS'),
};
export type AnalyticsFilters = Partial<Record<FilterParam, string>>;

/** The name of a missing value in ranked rows, and in filters. */
export const UNKNOWN_NAME = 'Unknown';

/**
 * The filters given, each as the scans column it tests and the value that column must hold once
 * null is read as '' ("Unknown" is the missing value). Empty without filters.
 */
export function filterConditions(filters: AnalyticsFilters): Array<{ column: string; value: string }> {
  return (Object.keys(FILTER_PARAMS) as FilterParam[]).flatMap((param) => {
    const value = filters[param];
    if (value === undefined) return [];
    return [{ column: FILTER_PARAMS[param], value: value === UNKNOWN_NAME ? '' : value }];
  });
}

const localDate = z
  .string()
  .refine((v) => parseLocalDate(v) !== null, 'Must be a date YYYY-MM-DD')
  .meta({ format: 'date' });

export const analyticsQuerySchema = z.strictObject({
  duration: z
    .enum(DURATIONS, { error: `Must be one of: ${DURATIONS.join(', ')}` })
    .default('48_hours')
    .describe(
      'What the numbers cover, in `timezone`, up to now: today (from local midnight), yesterday (the whole local day), ' +
        '48_hours (from the start of the UTC hour 48 hours ago), 7_days / 30_days / 3_months / 1_year (today and the 6 / 29 / 89 / 364 local days before), ' +
        'custom (whole local days date_from to date_to)',
    ),
  date_from: localDate.optional().describe('With duration=custom: the first local day (default: the first of the current month)'),
  date_to: localDate.optional().describe('With duration=custom: the last local day, included (default: today)'),
  exclude_bots: booleanParam.default(true).describe('Default true; false includes scans recorded as bots'),
  limit: z.coerce
    .number({ error: 'Must be a whole number >= 1' })
    .int('Must be a whole number >= 1')
    .min(1, 'Must be a whole number >= 1')
    .transform((n) => Math.min(n, MAX_LIMIT))
    .default(20)
    .describe(`Rows for ops, country, region, browser and qr-code; default 20; above ${MAX_LIMIT} answers ${MAX_LIMIT}`),
  timezone: z
    .string()
    .refine(isIanaTimezone, 'Unknown time zone; use an IANA name such as Europe/Berlin')
    .default('UTC')
    .describe('IANA time zone that decides today, yesterday, day buckets, activity and the weekday-hour keys'),
  ...filterShape,
});

export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;

/** The most links one sparkline read may name: a page of the list at its largest. */
export const MAX_LINK_DAYS_IDS = 1000;
export const MAX_LINK_DAYS = 31;

/** GET /analytics/links-by-day (an addition): scans per day of the links named, for the list's sparklines. */
export const linkDaysQuerySchema = z.strictObject({
  ids: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().max(64)).max(MAX_LINK_DAYS_IDS, `At most ${MAX_LINK_DAYS_IDS} links`))
    .describe("Comma-separated dynamic_link_ids; ids that are not the account's links are left out of the answer"),
  days: z.coerce
    .number({ error: `Must be a whole number from 1 to ${MAX_LINK_DAYS}` })
    .int(`Must be a whole number from 1 to ${MAX_LINK_DAYS}`)
    .min(1, `Must be a whole number from 1 to ${MAX_LINK_DAYS}`)
    .max(MAX_LINK_DAYS, `Must be a whole number from 1 to ${MAX_LINK_DAYS}`)
    .default(14)
    .describe('Today and the days before it, in `timezone`: this many local days (default 14)'),
  exclude_bots: analyticsQuerySchema.shape.exclude_bots,
  timezone: analyticsQuerySchema.shape.timezone,
});
