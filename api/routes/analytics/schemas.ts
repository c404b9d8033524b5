/**
 * The analytics endpoints' request and response schemas: the GETs' query and answers, shared by
 * the per-link and account-wide routes, the sparklines' query and the export's body.
 */
import { z } from 'zod';
import { EXPORT_FORMATS } from '#domain/analytics/export.js';
import { MAX_LIMIT, MAX_LINK_DAYS, MAX_LINK_DAYS_IDS } from '#domain/analytics/schemas.js';
import { DURATIONS, parseLocalDate } from '#domain/analytics/window.js';
import { isIanaTimezone } from '#domain/links/data/timezone.js';
import { booleanParam } from '#domain/links/schemas.js';
import { hostOfHeader } from '#domain/domains/hostname.js';
import { SCAN_SOURCES, UNKNOWN_SOURCE } from '#domain/links/attribution.js';
import { PAGE_ACTIONS } from '#domain/page-actions/actions.js';

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
const filterShape = {
  country: filterParam('country', 'Germany'),
  browser: filterParam('browser', 'Mobile Safari'),
  os: filterParam('operating system', 'iOS'),
  source: z
    .enum([...SCAN_SOURCES, UNKNOWN_SOURCE], { error: `Must be one of: ${[...SCAN_SOURCES, UNKNOWN_SOURCE].join(', ')}` })
    .optional()
    .describe(
      'An addition: only scans from this source, as the source ranking names it: qr (a printed code), link (the link itself), ' +
        'unknown (a code printed before sources were told apart). Counted from the raw scans of the range (docs/decisions/0391)',
    ),
  domain: z
    .string()
    .min(1, 'Must not be empty')
    .max(300, 'At most 300 characters')
    .transform((name) => hostOfHeader(name) ?? name)
    .optional()
    .describe(
      "An addition: only scans of the links on this domain now (one of the account's domains, or the service's default host; any spelling of the name)",
    ),
};

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

// The GETs' own date and time zone checks, so both read a day and a zone the same way.
const { timezone } = analyticsQuerySchema.shape;

/** POST …/analytics/export (export.ts). */
export const exportBodySchema = z
  .strictObject({
    startDate: localDate
      .optional()
      .describe('First local day (YYYY-MM-DD), included. Default: with endDate, the first of the current month'),
    endDate: localDate.optional().describe('Last local day (YYYY-MM-DD), included. Default: with startDate, today'),
    format: z.enum(EXPORT_FORMATS, { error: `Must be one of: ${EXPORT_FORMATS.join(', ')}` }).default('csv'),
    filters: z.record(z.string(), z.unknown()).optional().describe('Accepted for compatibility; ignored'),
    timezone: timezone.describe('IANA time zone in which startDate and endDate are read; default UTC'),
    includeBots: z
      .boolean({ error: 'Must be true or false' })
      .default(false)
      .describe("Bot scans too, as the analytics GETs' exclude_bots=false (an addition); default false: left out"),
    ...filterShape,
  })
  .describe('Both dates omitted: the last 48 hours, up to now. Bots are left out unless includeBots, as in the analytics GETs.');

export const generalResponse = z
  .object({
    data: z.object({
      numberOfLinks: z.number().int().meta({ description: 'Account-wide: the links the account has; per link: 1, or 0 for an unknown id' }),
      numberOfScans: z.number().int().meta({ description: 'Scans in the range (bots only with exclude_bots=false)' }),
      humanScans: z.number().int().meta({ description: 'Scans in the range not recorded as bots' }),
      botScans: z
        .number()
        .int()
        .meta({ description: 'Scans in the range recorded as bots (isbot user agents, link previews, HEAD), whatever exclude_bots says' }),
      uniqueVisitors: z.number().int().meta({
        description:
          'Distinct visitors (a daily-salted hash of address and user agent), each counted once per UTC day it scanned in the range; bots only with exclude_bots=false',
      }),
    }),
  })
  .meta({ example: { data: { numberOfLinks: 12, numberOfScans: 3480, humanScans: 3480, botScans: 212, uniqueVisitors: 2975 } } });

const rankedRow = z.object({
  number: z.number().int().min(1).meta({ description: 'Rank, from 1' }),
  name: z.string().meta({ description: '"Unknown" for scans where the value could not be told' }),
  scans: z.number().int(),
  percentage: z.string().meta({ description: 'Share of all scans in the range, two decimals', example: '42.50' }),
});

export const rankedResponse = z
  .object({
    data: z.array(rankedRow),
  })
  .meta({
    example: {
      data: [
        { number: 1, name: 'Chrome', scans: 42, percentage: '60.00' },
        { number: 2, name: 'Mobile Safari', scans: 21, percentage: '30.00' },
        { number: 3, name: 'Unknown', scans: 7, percentage: '10.00' },
      ],
    },
  });

/** Where scans came from (additions): ranked rows; placement rows also name the placement, and account-wide its link. */
export const originResponse = z
  .object({
    data: z.array(
      rankedRow.extend({
        name: z.string().meta({
          description:
            'The value: qr, link or unknown (source); the placement name; the referring host; the campaign. `(none)` / `(direct)` for scans without one',
        }),
        placementId: z
          .string()
          .nullable()
          .optional()
          .meta({ description: 'Placement rows: the placement id; null for scans of no placement' }),
        dynamicLinkId: z.string().optional().meta({ description: "Account-wide placement rows: the placement's link" }),
        linkName: z.string().optional().meta({ description: "Account-wide placement rows: the link's name" }),
      }),
    ),
  })
  .meta({
    example: {
      data: [
        { number: 1, name: 'qr', scans: 42, percentage: '70.00' },
        { number: 2, name: 'link', scans: 12, percentage: '20.00' },
        { number: 3, name: 'unknown', scans: 6, percentage: '10.00' },
      ],
    },
  });

/** qr-code's rows also carry the link's slug, so a client can open that link's own analytics. */
export const qrCodeResponse = z
  .object({
    data: z.array(
      rankedRow.extend({
        dynamicLinkId: z.string().meta({ description: "The link's dynamic_link_id (slug), the id of its per-link analytics" }),
      }),
    ),
  })
  .meta({ example: { data: [{ number: 1, name: 'Table 4', scans: 42, percentage: '60.00', dynamicLinkId: 'aB3xY9k' }] } });

const series = <T extends z.ZodType>(x: T) => z.object({ x: z.array(x), y: z.array(z.number().int()) });

export const activityResponse = z
  .object({
    data: z.object({
      Year: series(z.number().int()),
      Month: series(z.string()).meta({ description: 'English month names, one per calendar month in the range' }),
      Day: series(z.string()).meta({ description: 'YYYY-MM-DD, every local day in the range, zero included' }),
      Hour: series(z.string())
        .optional()
        .meta({
          description:
            'Only for a range of at most 7 local days (today, yesterday, 48_hours, 7_days, a custom range of up to 7 days): ' +
            'YYYY-MM-DDTHH:00, every local wall-clock hour in the range, zero included. A DST fall-back hour that comes round twice is one bucket ' +
            'holding both; a skipped spring-forward hour is absent; the first and last may be partial hours (48_hours in a :30 zone, today up to now).',
        }),
    }),
  })
  .meta({
    example: {
      data: {
        Year: { x: [2026], y: [7] },
        Month: { x: ['November'], y: [7] },
        Day: { x: ['2026-11-21', '2026-11-22', '2026-11-23'], y: [0, 4, 3] },
        Hour: {
          x: ['21', '22', '23'].flatMap((day) => Array.from({ length: 24 }, (_, h) => `2026-11-${day}T${String(h).padStart(2, '0')}:00`)),
          y: Array.from({ length: 72 }, (_, i) => ({ 33: 3, 37: 1, 58: 1, 61: 2 })[i] ?? 0),
        },
      },
    },
  });

export const timeResponse = z.object({
  data: z.record(z.string(), z.number().int()).meta({
    description: 'All 168 keys `<Mon..Sun>-<0..23>` (local weekday and hour), zero included',
    example: { 'Mon-0': 0, 'Mon-1': 3 },
  }),
});

export const linkDaysResponse = z.object({
  data: z.object({
    days: z.array(z.string()).meta({ description: 'The local days, oldest first (YYYY-MM-DD)' }),
    links: z
      .array(z.object({ dynamic_link_id: z.string(), scans: z.array(z.number().int()).meta({ description: 'Scans on each of `days`' }) }))
      .meta({ description: "The links asked for that are the account's, in the order asked" }),
  }),
});

/** GET /links/:id/analytics/actions: the window and nothing else (taps carry no visitor facts to filter by). */
export const actionsQuerySchema = analyticsQuerySchema.pick({
  duration: true,
  date_from: true,
  date_to: true,
  exclude_bots: true,
  timezone: true,
});

export const actionsResponse = z
  .object({
    data: z.object({
      scans: z
        .number()
        .int()
        .meta({ description: 'Human scans of the link in the range (bots never count here, whatever exclude_bots says)' }),
      actions: z
        .array(
          z.object({
            action: z.enum(PAGE_ACTIONS).meta({ description: "What was tapped on the link's page" }),
            name: z.string().meta({ description: 'The funnel\'s words for it ("saved the contact")' }),
            taps: z.number().int().meta({ description: 'Visitors who tapped it, each counted once per UTC day' }),
            percentage: z.string().meta({ description: 'taps as a share of scans, two decimals' }),
          }),
        )
        .meta({ description: 'Most tapped first; actions nobody tapped are left out' }),
    }),
  })
  .meta({
    example: {
      data: {
        scans: 1204,
        actions: [
          { action: 'save_contact', name: 'saved the contact', taps: 310, percentage: '25.75' },
          { action: 'call', name: 'called', taps: 42, percentage: '3.49' },
        ],
      },
    },
  });
