/** The analytics GETs' query, shared by the per-link and account-wide routes (answers: api/routes/analytics/schemas.ts). */
import { z } from 'zod';
import { isIanaTimezone } from '../links/data/timezone.js';
import { booleanParam } from '../links/schemas.js';
import { DURATIONS, parseLocalDate } from './window.js';

export const MAX_LIMIT = 1000;

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
});

export type AnalyticsQuery = z.infer<typeof analyticsQuerySchema>;
