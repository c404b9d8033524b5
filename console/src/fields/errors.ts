/**
 * API validation errors by the field they name. A 400 answer lists `{path, message}` with paths in
 * the request body's terms (`data.files.0.fileId`, `linkConfigurations.customUrl`); forms key their
 * inputs by the same paths, so each message lands at its field.
 */
export type FieldErrors = Readonly<Record<string, string>>;

export const NO_ERRORS: FieldErrors = Object.freeze({});

/**
 * The field errors an API error body carries (the first message per path), or none. The API
 * writes list indexes in brackets (`data.files[0].fileId`); they are read as dotted segments
 * (`data.files.0.fileId`), the form's keys.
 */
export function fieldErrorsOf(error: unknown): FieldErrors {
  const list = (error as { errors?: unknown } | null | undefined)?.errors;
  if (!Array.isArray(list)) return NO_ERRORS;
  const byPath: Record<string, string> = {};
  for (const entry of list) {
    const { path, message } = (entry ?? {}) as { path?: unknown; message?: unknown };
    if (typeof path !== 'string' || typeof message !== 'string') continue;
    const dotted = path.replace(/\[(\d+)\]/g, '.$1');
    if (!(dotted in byPath)) byPath[dotted] = message;
  }
  return byPath;
}

/** Errors a form has no field for (shown above the form, so none is lost). */
export function unplacedErrors(errors: FieldErrors, placed: (path: string) => boolean): string[] {
  return Object.entries(errors)
    .filter(([path]) => !placed(path))
    .map(([path, message]) => (path ? `${path}: ${message}` : message));
}

/** The errors under `prefix`, keyed by the rest of their path (`qrOptions.dotsOptions.color` → `dotsOptions.color`), for a part of a form that names its fields from its own root. */
export function errorsUnder(errors: FieldErrors, prefix: string): FieldErrors {
  const inside: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) if (path.startsWith(`${prefix}.`)) inside[path.slice(prefix.length + 1)] = message;
  return inside;
}
