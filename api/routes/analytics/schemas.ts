/** The analytics GETs' answers, shared by the per-link and account-wide routes (query: domain/analytics/schemas.ts). */
import { z } from 'zod';

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
