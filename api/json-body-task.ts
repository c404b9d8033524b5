/**
 * What the api's body thread does (json-body-thread.ts): a large JSON body, as bytes, parsed and
 * checked exactly as the api's JSON parser and a route's body schema would on the event loop
 * (app.ts, plugins/app/validation.ts), answering the checked value or the 400's field errors.
 */
import type { z } from 'zod';
import { bulkInsertBody, type BulkInsertBody } from '#domain/cafes/bulk-insert-schema.js';
import { packBulkInsertEntries } from '#domain/cafes/bulk-insert-packing.js';
import { FieldErrorList, formatPath, zodIssuesToFieldErrors, type FieldError } from '#domain/errors.js';
import { findUnstorableText, prototypeKeyIn, jsonShapeError, UNSTORABLE_TEXT_MESSAGE } from './plugins/app/validation.js';

/**
 * The bodies checked in the thread, by name (a schema cannot be sent to a thread), and what the
 * thread answers of a checked body: a bulk insert's entries packed for its job, so the event loop
 * receives one string a fraction of the body's size instead of 5000 objects to copy in and then
 * write out again as 14 MB of JSON (docs/decisions/0398-bulk-insert-entries-packed-in-the-thread.md).
 */
const THREAD_CHECKED_BODIES = {
  'cafe-bulk-insert': { schema: bulkInsertBody, answer: (body: BulkInsertBody) => ({ packedItems: packBulkInsertEntries(body.items) }) },
} satisfies Record<string, { schema: z.ZodType; answer: (body: never) => unknown }>;
export type ThreadCheckedBody = keyof typeof THREAD_CHECKED_BODIES;
/** What the thread answers for a valid body of each kind. */
export type ThreadCheckedValue<B extends ThreadCheckedBody> = ReturnType<(typeof THREAD_CHECKED_BODIES)[B]['answer']>;

export interface JsonBodyTask {
  body: ThreadCheckedBody;
  /** The body's bytes as received (UTF-8). */
  bytes: Uint8Array;
}

export type JsonBodyOutcome =
  | { value: unknown }
  /** The listed errors and how many there were in all (FieldErrorList). */
  | { errors: FieldError[]; total: number };

const NOT_JSON: FieldError[] = [{ path: '(body)', message: 'Body is not valid JSON' }];

export function checkJsonBody(task: JsonBodyTask): JsonBodyOutcome {
  const text = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength).toString('utf8');
  let parsed: unknown;
  // An empty body is no body, left to the schema (app.ts's parser does the same).
  if (text !== '') {
    const misshapen = jsonShapeError(text);
    if (misshapen) return failed(misshapen.errors);
    try {
      parsed = JSON.parse(text);
    } catch {
      return failed(NOT_JSON);
    }
    // Fastify's parser refuses these keys (prototype poisoning); app.ts's names the key.
    const poisoned = prototypeKeyIn(parsed);
    if (poisoned) return failed(poisoned.errors);
  }
  const unstorable = findUnstorableText(parsed).map((path) => ({ path: formatPath(path) || '(body)', message: UNSTORABLE_TEXT_MESSAGE }));
  if (unstorable.length > 0) return failed(unstorable);
  const checked = THREAD_CHECKED_BODIES[task.body];
  const result = checked.schema.safeParse(parsed);
  if (result.success) return { value: checked.answer(result.data) };
  const list = zodIssuesToFieldErrors(result.error.issues);
  return { errors: list.listed, total: list.size };
}

function failed(errors: FieldError[]): JsonBodyOutcome {
  const list = FieldErrorList.of(errors);
  return { errors: list.listed, total: list.size };
}
