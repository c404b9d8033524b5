/** The `data` of a `smart-url` link (the rules all types share: ../schemas.ts). */
import { z } from 'zod';
import {
  dateSchema,
  discriminatorError,
  enumOf,
  list,
  noDuplicates,
  strict,
  stringType,
  text,
  timeSchema,
  timezoneSchema,
  urlSchema,
  WHEN_OBJECT,
} from '../fields.js';
import { isIsoDate } from '../formats.js';
import { isCountryCode } from '../codes.js';
import { CONDITION_TYPES, DEVICES, OPERATORS, SMART_URL_RULES_MAX } from '../smart-url-values.js';

export const COUNTRIES_MAX = 250;

const dateRangeCheck = (rule: unknown, ctx: z.RefinementCtx<unknown>) => {
  const { dateFrom, dateTo } = rule as Record<string, unknown>;
  if (typeof dateFrom !== 'string' || typeof dateTo !== 'string' || !isIsoDate(dateFrom) || !isIsoDate(dateTo)) return;
  // YYYY-MM-DD compares correctly as text. The same day on both ends is a one-day range.
  if (dateTo < dateFrom) ctx.addIssue({ code: 'custom', message: 'Must not be before dateFrom', path: ['dateTo'], input: dateTo });
};

const dateRule = z.discriminatedUnion(
  'operator',
  [
    strict({
      conditionType: z.literal('date'),
      operator: z.literal('after'),
      url: urlSchema(),
      timezone: timezoneSchema(),
      dateFrom: dateSchema(),
    }),
    strict({
      conditionType: z.literal('date'),
      operator: z.literal('before'),
      url: urlSchema(),
      timezone: timezoneSchema(),
      dateTo: dateSchema(),
    }),
    strict({
      conditionType: z.literal('date'),
      operator: z.enum(['between', 'not_between']),
      url: urlSchema(),
      timezone: timezoneSchema(),
      dateFrom: dateSchema(),
      dateTo: dateSchema(),
    }).superRefine(dateRangeCheck, WHEN_OBJECT),
  ],
  { error: discriminatorError('operator', OPERATORS.date) },
);

/**
 * One smart-url rule: where to send a scan when its condition holds. The rule is a union on
 * `conditionType`, and a date rule also on `operator`, so each kind of rule is its own strict
 * object:
 * - every rule: `conditionType`, `operator` (valid for that type, else an error at `operator`), `url`;
 * - location: `countries` (non-empty, ISO 3166-1 alpha-2 any case, no repeats);
 * - device: `devices` (non-empty, no repeats);
 * - time: `timezone`, `timeFrom`, `timeTo` (`HH:MM`; `timeTo` before `timeFrom` is a window
 *   across midnight, so the two are not compared);
 * - date: `timezone` and, by operator, `dateFrom` (after), `dateTo` (before) or both
 *   (between, not_between; `dateTo` >= `dateFrom`, reported at `dateTo`).
 *
 * Unknown-field policy: a member of another kind of rule (`devices` on a time rule, `dateTo` on an
 * `after` date rule) is rejected as an unknown member at its own path
 * (`rules[i].devices`: "Unknown field"), exactly like a misspelt one. Accepting and ignoring it
 * would store a condition that is never applied, and the user would never learn why.
 */
export const smartUrlRuleSchema = z.discriminatedUnion(
  'conditionType',
  [
    strict({
      conditionType: z.literal('location'),
      operator: enumOf(OPERATORS.location),
      url: urlSchema(),
      countries: list(
        stringType().refine(isCountryCode, { error: 'Must be a country code (ISO 3166-1 alpha-2, e.g. US)' }),
        1,
        COUNTRIES_MAX,
      ).superRefine(noDuplicates((c) => c.toUpperCase())),
    }),
    strict({
      conditionType: z.literal('time'),
      operator: enumOf(OPERATORS.time),
      url: urlSchema(),
      timezone: timezoneSchema(),
      timeFrom: timeSchema(),
      timeTo: timeSchema(),
    }),
    dateRule,
    strict({
      conditionType: z.literal('device'),
      operator: enumOf(OPERATORS.device),
      url: urlSchema(),
      devices: list(enumOf(DEVICES), 1, DEVICES.length).superRefine(noDuplicates()),
    }),
  ],
  { error: discriminatorError('conditionType', CONDITION_TYPES) },
);

export const smartUrlDataSchema = strict({
  defaultUrl: urlSchema(),
  rules: list(smartUrlRuleSchema, 0, SMART_URL_RULES_MAX).optional(),
});
