/**
 * The zod pieces every link type's data schema is built from: error wording, strict objects,
 * lists, and the field schemas (URL, email, phone, time zone, dates, colour, file reference).
 */
import { z } from 'zod';
import { isCssColor } from '../../qr/css-color.js';
import { isUuid } from '#platform/format/ids.js';
import { EMAIL_MAX, SHORT_TEXT_MAX, TIMEZONE_MAX, URL_MAX } from './limits.js';
import { httpUrlHref, isIsoDate, isIsoDateTime, isPhoneNumber, isTimeOfDay } from './formats.js';
import { isIanaTimezone } from './timezone.js';

export const REQUIRED = 'Required';
const oneOf = (values: readonly string[]) => `Must be one of: ${values.join(', ')}`;
const atMost = (max: number) => `Must be at most ${max} characters`;

/** "Required" when the member is missing, otherwise what the value should have been. */
const typeError = (expected: string) => (issue: { input?: unknown }) => (issue.input === undefined ? REQUIRED : expected);

export const stringType = () => z.string({ error: typeError('Must be a string') });
export const numberType = () => z.number({ error: typeError('Must be a number') });
export const booleanType = () => z.boolean({ error: typeError('Must be true or false') });

/** A required string: not blank, at most `max` characters, kept exactly as sent. */
export function text(max: number) {
  return stringType()
    .refine((s) => s.trim().length > 0, { error: REQUIRED, abort: true })
    .max(max, { error: atMost(max) });
}

/** An optional string: may be empty, at most `max` characters. */
export function optionalText(max: number) {
  return stringType()
    .max(max, { error: atMost(max) })
    .optional();
}

export function enumOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: typeError(oneOf(values)) });
}

/** Only the type mismatch gets our wording; unknown keys are "Unknown field" via zodIssuesToFieldErrors. */
export function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'invalid_type' ? typeError('Must be an object')(issue) : undefined),
  });
}

export function list<T extends z.ZodType>(item: T, min: number, max: number) {
  let schema = z.array(item, { error: typeError('Must be an array') });
  if (min > 0) schema = schema.min(min, { error: min === 1 ? 'Must have at least 1 item' : `Must have at least ${min} items` });
  return schema.max(max, { error: `Must have at most ${max} items` });
}

/** The `error` of a discriminated union: what is wrong with the discriminator (or the whole value). */
export function discriminatorError(key: string, values: readonly string[]) {
  return (issue: { code?: string; input?: unknown }) => {
    if (issue.code === 'invalid_type') return typeError('Must be an object')(issue);
    if (issue.code === 'invalid_union') {
      const input = issue.input as Record<string, unknown> | undefined;
      return input?.[key] === undefined ? REQUIRED : oneOf(values);
    }
    return undefined;
  };
}

/** Runs an object-level refinement even when some members failed, as long as the value is an object. */
export const WHEN_OBJECT = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
};

/** Rejects repeated elements (compared by `key`), reporting each repeat at its own index. */
export function noDuplicates(key: (value: string) => string = (v) => v) {
  return (values: readonly string[], ctx: z.RefinementCtx<readonly string[]>) => {
    const seen = new Set<string>();
    values.forEach((value, i) => {
      const k = key(value);
      if (seen.has(k)) ctx.addIssue({ code: 'custom', message: 'Duplicate value', path: [i], input: value });
      seen.add(k);
    });
  };
}

/** An http(s) URL, validated, then stored in its WHATWG serialisation (`httpUrlHref`), which must fit URL_MAX as well. */
export const urlSchema = () =>
  stringType()
    .max(URL_MAX, { error: atMost(URL_MAX), abort: true })
    .transform((value, ctx) => {
      const href = httpUrlHref(value);
      if (href === null) ctx.issues.push({ code: 'custom', message: 'Must be a valid URL', input: value });
      else if (href.length > URL_MAX)
        ctx.issues.push({ code: 'custom', message: `Must be at most ${URL_MAX} characters once percent-encoded`, input: value });
      else return href;
      return z.NEVER;
    });

export const emailSchema = () =>
  stringType()
    .max(EMAIL_MAX, { error: atMost(EMAIL_MAX), abort: true })
    .regex(z.regexes.email, { error: 'Must be a valid email' });

export const phoneSchema = () => stringType().refine(isPhoneNumber, { error: 'Must be a valid phone number' });

export const timezoneSchema = () =>
  stringType()
    .max(TIMEZONE_MAX, { error: atMost(TIMEZONE_MAX), abort: true })
    .refine(isIanaTimezone, { error: 'Must be a valid IANA time zone' });

export const dateTimeSchema = () => stringType().refine(isIsoDateTime, { error: 'Must be an ISO 8601 date-time (YYYY-MM-DDTHH:MM)' });

export const dateSchema = () => stringType().refine(isIsoDate, { error: 'Must be a date (YYYY-MM-DD)' });

export const timeSchema = () => stringType().refine(isTimeOfDay, { error: 'Must be a time (HH:MM, 24-hour)' });

export const nonNegative = () => numberType().min(0, { error: 'Must be >= 0' });

export const colorSchema = () =>
  stringType()
    .max(SHORT_TEXT_MAX, { error: atMost(SHORT_TEXT_MAX), abort: true })
    .refine(isCssColor, { error: 'Must be a CSS color or hex' });

export const fileIdSchema = () => stringType().refine(isUuid, { error: 'Must be a file id (UUID)' });

/** `{fileId}`: a file uploaded through the files API. */
export const fileRefSchema = strict({ fileId: fileIdSchema() });
