import { z } from 'zod';

/** One bad field of a request: `path` is dotted with array indexes, e.g. `data.rules[2].timeFrom`. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * Every `code` an error answer of the api can carry, with the status it comes with. The single
 * list: throw sites name one of these (TypeScript refuses anything else), the error handler uses
 * the generic ones, and the OpenAPI document enumerates them per status. A code names the reason
 * as precisely as the code that refuses knows it; the generic code of a status (`not_found`,
 * `conflict`, …) is for the rest. Codes are stable: clients match on them, not on `message`.
 */
export const ERROR_CODES = {
  validation_failed: 400,
  password_too_weak: 400,
  unauthorized: 401,
  plan_feature_unavailable: 401,
  invalid_credentials: 401,
  totp_required: 401,
  totp_invalid: 401,
  forbidden: 403,
  csrf_rejected: 403,
  role_required: 403,
  folder_forbidden: 403,
  password_incorrect: 403,
  registration_closed: 403,
  own_role_unchangeable: 403,
  not_found: 404,
  account_not_found: 404,
  api_key_not_found: 404,
  session_not_found: 404,
  reset_link_invalid: 404,
  invitation_not_found: 404,
  member_not_found: 404,
  setup_link_invalid: 404,
  cafe_not_found: 404,
  category_not_found: 404,
  file_not_found: 404,
  folder_not_found: 404,
  group_not_found: 404,
  item_not_found: 404,
  job_not_found: 404,
  job_file_not_found: 404,
  link_not_found: 404,
  domain_not_found: 404,
  webhook_not_found: 404,
  delivery_not_found: 404,
  template_not_found: 404,
  placement_not_found: 404,
  utm_template_not_found: 404,
  not_acceptable: 406,
  request_timeout: 408,
  conflict: 409,
  slug_taken: 409,
  idempotency_key_reused: 409,
  menu_full: 409,
  api_key_limit_reached: 409,
  link_limit_reached: 409,
  job_not_completed: 409,
  email_taken: 409,
  last_owner: 409,
  two_factor_on: 409,
  two_factor_off: 409,
  two_factor_not_started: 409,
  invitation_expired: 409,
  already_member: 409,
  setup_done: 409,
  domain_taken: 409,
  domain_limit_reached: 409,
  domain_disabled: 409,
  domain_in_use: 409,
  webhook_limit_reached: 409,
  placement_limit_reached: 409,
  placement_name_taken: 409,
  utm_template_limit_reached: 409,
  utm_template_name_taken: 409,
  payload_too_large: 413,
  file_too_large: 413,
  storage_quota_exceeded: 413,
  job_files_quota_exceeded: 413,
  link_data_quota_exceeded: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  unsupported_image_type: 415,
  rate_limited: 429,
  auth_attempts_exceeded: 429,
  sign_in_attempts_exceeded: 429,
  password_reset_requests_exceeded: 429,
  job_queue_full: 429,
  render_busy: 429,
  headers_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
  render_timeout: 503,
  job_failed: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes an answer of `status` can carry. */
export type ErrorCodeOf<S extends number> = { [C in ErrorCode]: (typeof ERROR_CODES)[C] extends S ? C : never }[ErrorCode];

/** The codes an answer of `status` can carry, for the API documentation (empty for a status we never answer). */
export function errorCodesOf(status: number): ErrorCode[] {
  return (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code] === status);
}

/**
 * The code of an answer whose reason is known only by its status (a refusal of Fastify, one of
 * its plugins or Node's HTTP parser). Undefined for a status no answer of ours has.
 */
export const GENERIC_ERROR_CODES: Partial<Record<number, ErrorCode>> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal_error',
  503: 'service_unavailable',
};

/** What an error answer says besides its code: `message` always, some answers more (`errors`, …). */
type ErrorFields = { message: string } & Record<string, unknown>;

/** An error answer's body: `{code, message, ...}`. */
export type ErrorBody = { code: ErrorCode } & ErrorFields;

/**
 * An error that maps to a user-facing HTTP answer. Domain code throws these; the api's error
 * handler sends `statusCode` (the code's, from ERROR_CODES) with `body` and never anything else
 * (no stack traces).
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly body: ErrorBody;

  constructor(
    readonly code: ErrorCode,
    fields: ErrorFields,
    readonly headers: Record<string, string> = {},
  ) {
    super(fields.message);
    this.statusCode = ERROR_CODES[code];
    this.body = { code, ...fields };
  }
}

/** The code of each resource a 404 can name; the key is the resource as users read it. */
const NOT_FOUND_CODES = {
  Account: 'account_not_found',
  'API key': 'api_key_not_found',
  Session: 'session_not_found',
  Invitation: 'invitation_not_found',
  Member: 'member_not_found',
  Cafe: 'cafe_not_found',
  Category: 'category_not_found',
  File: 'file_not_found',
  Folder: 'folder_not_found',
  Group: 'group_not_found',
  Item: 'item_not_found',
  Job: 'job_not_found',
  'Job file': 'job_file_not_found',
  Link: 'link_not_found',
  Domain: 'domain_not_found',
  Webhook: 'webhook_not_found',
  Delivery: 'delivery_not_found',
  Template: 'template_not_found',
  Placement: 'placement_not_found',
  'UTM template': 'utm_template_not_found',
} as const satisfies Record<string, ErrorCodeOf<404>>;

/** A resource a 404 can name. */
export type Resource = keyof typeof NOT_FOUND_CODES;

export class NotFoundError extends AppError {
  /** `thing` is the resource name as users read it: "Folder" gives `{code: "folder_not_found", message: "Folder not found"}`. */
  constructor(thing: Resource) {
    super(NOT_FOUND_CODES[thing], { message: `${thing} not found` });
  }
}

/** The most field errors one answer lists; `omittedErrors` counts the others. */
export const MAX_LISTED_ERRORS = 100;

/**
 * The field errors of one request as answers carry them: the first MAX_LISTED_ERRORS in the order
 * found, and how many there are in all. Past the cap an error is only counted, so a request with
 * millions of problems (a CSV header of unknown columns, a body of unknown keys) costs no more to
 * answer than one with a hundred.
 */
export class FieldErrorList {
  readonly listed: FieldError[] = [];
  private total = 0;

  static of(errors: Iterable<FieldError>): FieldErrorList {
    const list = new FieldErrorList();
    for (const error of errors) list.add(error);
    return list;
  }

  /** Every error found, listed or not. */
  get size(): number {
    return this.total;
  }

  /** Once full, further errors are only counted: a caller may count them without building them. */
  get full(): boolean {
    return this.listed.length >= MAX_LISTED_ERRORS;
  }

  add(error: FieldError): void {
    if (!this.full) this.listed.push(error);
    this.total++;
  }

  /** Counts `n` more errors that are not listed; only once the list is full. */
  countUnlisted(n: number): void {
    if (!this.full) throw new Error('countUnlisted before the list is full');
    this.total += n;
  }

  /** `errors`, and `omittedErrors` when some are not listed. */
  toBody(): { errors: FieldError[]; omittedErrors?: number } {
    const omitted = this.total - this.listed.length;
    return omitted > 0 ? { errors: this.listed, omittedErrors: omitted } : { errors: this.listed };
  }
}

/** How an answer lists field errors (`FieldErrorList.toBody()`), for the API documentation. */
export const fieldErrorListShape = {
  errors: z
    .array(z.object({ path: z.string(), message: z.string() }))
    .max(MAX_LISTED_ERRORS)
    .meta({ description: `Each entry names a field; at most ${MAX_LISTED_ERRORS}, in the order found` }),
  omittedErrors: z
    .number()
    .int()
    .min(1)
    .optional()
    .meta({ description: `Present when there are more than ${MAX_LISTED_ERRORS} errors: how many are not listed` }),
};

function validationFields(errors: FieldError[] | FieldErrorList) {
  return { message: 'Validation failed', ...(errors instanceof FieldErrorList ? errors : FieldErrorList.of(errors)).toBody() };
}

/** The 400 body: `{code: "validation_failed", message: "Validation failed", errors, omittedErrors?}`. */
export function validationBody(errors: FieldError[] | FieldErrorList) {
  return { code: 'validation_failed' as const, ...validationFields(errors) };
}

export class ValidationError extends AppError {
  constructor(errors: FieldError[] | FieldErrorList) {
    super('validation_failed', validationFields(errors));
  }

  /** The listed errors (at most MAX_LISTED_ERRORS). */
  get errors(): FieldError[] {
    return this.body.errors as FieldError[];
  }
}

/** 401 `{message: "Unauthorized"}`; `code` says why (`unauthorized`: no, an unknown or a revoked key). */
export class UnauthorizedError extends AppError {
  constructor(code: ErrorCodeOf<401> = 'unauthorized') {
    super(code, { message: 'Unauthorized' });
  }
}

export class ForbiddenError extends AppError {
  constructor(code: ErrorCodeOf<403> = 'forbidden', message = 'You do not have permission to perform this action.') {
    super(code, { message });
  }
}

/** 409: the resource is not in a state that allows this; `path` names the field that conflicts. */
export class ConflictError extends AppError {
  constructor(code: ErrorCodeOf<409>, message: string, path?: string) {
    super(code, path ? { message, errors: [{ path, message }] } : { message });
  }
}

/** Formats a zod path the way our error bodies name fields: `a.b[2].c`; an empty member name is `""`. */
export function formatPath(path: ReadonlyArray<PropertyKey>, prefix = ''): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const name = String(part) === '' ? '""' : String(part);
      out += out ? `.${name}` : name;
    }
  }
  return out;
}

/**
 * Turns zod issues into field errors. An unknown member is reported at its own path
 * (`qrOptions.dotsOptions.shape`), not at its parent, so a client sees which key to remove.
 */
export function zodIssuesToFieldErrors(issues: ReadonlyArray<z.core.$ZodIssue>, prefix = '', out = new FieldErrorList()): FieldErrorList {
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const [i, key] of issue.keys.entries()) {
        if (out.full) {
          out.countUnlisted(issue.keys.length - i);
          break;
        }
        out.add({ path: formatPath([...issue.path, key], prefix), message: 'Unknown field' });
      }
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0 && issue.errors.every((e) => e.length > 0)) {
      // A discriminated or plain union: report the branch that got furthest, so the path is useful.
      const best = issue.errors.reduce((a, b) => (deepest(b) > deepest(a) ? b : a));
      zodIssuesToFieldErrors(
        best.map((e) => ({ ...e, path: [...issue.path, ...e.path] })),
        prefix,
        out,
      );
    } else {
      out.add({ path: formatPath(issue.path, prefix) || '(body)', message: issue.message });
    }
  }
  return out;
}

function deepest(issues: ReadonlyArray<z.core.$ZodIssue>): number {
  return Math.max(...issues.map((i) => i.path.length));
}

/** 429: the caller is over a limit; `retryAfterSeconds` (at least 1) goes into Retry-After. */
export class TooManyRequestsError extends AppError {
  constructor(code: ErrorCodeOf<429>, message: string, retryAfterSeconds: number) {
    super(code, { message }, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** 503: the service cannot do this now, through no fault of the request; retry after `retryAfterSeconds`. */
export class ServiceUnavailableError extends AppError {
  constructor(code: ErrorCodeOf<503>, message: string, retryAfterSeconds: number) {
    super(code, { message }, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
