/** The `data` of a `event` link (the rules all types share: ../schemas.ts). */
import { dateTimeSchema, fileRefSchema, optionalText, strict, text, timezoneSchema, urlSchema, WHEN_OBJECT } from '../fields.js';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX } from '../limits.js';
import { isIsoDateTime } from '../formats.js';
import { parseDateTimeInZone } from '../timezone.js';

export const EVENT_TITLE_MAX = 100;
/**
 * The instants an event may start and end at: what a calendar file can carry (a four-digit UTC
 * year) and calendar apps agree on (the Gregorian calendar and standard time zones, not the local
 * mean times of earlier years).
 */
export const EVENT_EARLIEST_MS = Date.UTC(1900, 0, 1);
export const EVENT_LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
export const EVENT_RANGE_MESSAGE = 'Must be between 1900-01-01T00:00Z and 9999-12-31T23:59Z';

export const eventDataSchema = strict({
  description: text(LONG_TEXT_MAX),
  location: text(SHORT_TEXT_MAX),
  startDateTime: dateTimeSchema(),
  endDateTime: dateTimeSchema().optional(),
  timezone: timezoneSchema(),
  organizerName: optionalText(SHORT_TEXT_MAX),
  registrationUrl: urlSchema().optional(),
  eventTitle: optionalText(EVENT_TITLE_MAX),
  image: fileRefSchema.optional(),
}).superRefine((data, ctx) => {
  // Runs even when other members failed, so each end is checked whenever it is readable.
  const { timezone } = data as Record<string, unknown>;
  if (typeof timezone !== 'string') return;
  const instant = (field: 'startDateTime' | 'endDateTime') => {
    const value = (data as Record<string, unknown>)[field];
    if (typeof value !== 'string' || !isIsoDateTime(value)) return null;
    const at = parseDateTimeInZone(value, timezone);
    if (at && (at.getTime() < EVENT_EARLIEST_MS || at.getTime() > EVENT_LATEST_MS)) {
      ctx.addIssue({ code: 'custom', message: EVENT_RANGE_MESSAGE, path: [field], input: value });
      return null;
    }
    return at;
  };
  const start = instant('startDateTime');
  const end = instant('endDateTime');
  if (start && end && end.getTime() < start.getTime()) {
    ctx.addIssue({ code: 'custom', message: 'Must not be before startDateTime', path: ['endDateTime'], input: data.endDateTime });
  }
}, WHEN_OBJECT);
