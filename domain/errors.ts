import { z } from 'zod';

/** One bad field of a request: `path` is dotted with array indexes, e.g. `data.rules[2].timeFrom`. */
export interface FieldError {
  path: string;
  message: string;
}

/**
 * An error that maps to a user-facing HTTP answer. Domain code throws these; the api's error
 * handler sends `statusCode` with `body` and never anything else (no stack traces).
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${statusCode}`);
  }
}

export class NotFoundError extends AppError {
  /** `thing` is the resource name as users read it: "Folder" gives `{message: "Folder not found"}`. */
  constructor(thing: string) {
    super(404, { message: `${thing} not found` });
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

/** The 400 body: `{message: "Validation failed", errors, omittedErrors?}`. */
export function validationBody(errors: FieldError[] | FieldErrorList) {
  return { message: 'Validation failed', ...(errors instanceof FieldErrorList ? errors : FieldErrorList.of(errors)).toBody() };
}

export class ValidationError extends AppError {
  constructor(errors: FieldError[] | FieldErrorList) {
    super(400, validationBody(errors));
  }

  /** The listed errors (at most MAX_LISTED_ERRORS). */
  get errors(): FieldError[] {
    return this.body.errors as FieldError[];
  }
}

export class UnauthorizedError extends AppError {
  constructor() {
    super(401, { message: 'Unauthorized' });
  }
}

export class ForbiddenError extends AppError {
  constructor() {
    super(403, { message: 'You do not have permission to perform this action.' });
  }
}

export class ConflictError extends AppError {
  constructor(message: string, path?: string) {
    super(409, path ? { message, errors: [{ path, message }] } : { message });
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
      zodIssuesToFieldErrors(best.map((e) => ({ ...e, path: [...issue.path, ...e.path] })), prefix, out);
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
  constructor(message: string, retryAfterSeconds: number) {
    super(429, { message }, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

/** 503: the service cannot do this now, through no fault of the request; retry after `retryAfterSeconds`. */
export class ServiceUnavailableError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(503, { message }, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}
