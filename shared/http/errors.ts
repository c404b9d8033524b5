import type { z } from 'zod';

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

export class ValidationError extends AppError {
  constructor(readonly errors: FieldError[]) {
    super(400, { message: 'Validation failed', errors });
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
export function zodIssuesToFieldErrors(issues: ReadonlyArray<z.core.$ZodIssue>, prefix = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        out.push({ path: formatPath([...issue.path, key], prefix), message: 'Unknown field' });
      }
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0 && issue.errors.every((e) => e.length > 0)) {
      // A discriminated or plain union: report the branch that got furthest, so the path is useful.
      const best = issue.errors.reduce((a, b) => (deepest(b) > deepest(a) ? b : a));
      out.push(...zodIssuesToFieldErrors(best.map((e) => ({ ...e, path: [...issue.path, ...e.path] })), prefix));
    } else {
      out.push({ path: formatPath(issue.path, prefix) || '(body)', message: issue.message });
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
