/**
 * Large JSON bodies parsed and checked off the event loop (decision 0361): a route that takes
 * megabytes (a bulk insert of a whole menu, up to 16 MiB) receives its body as bytes and has them
 * parsed and checked against its schema here, in one worker thread, with the answers the api
 * gives on the event loop for any other body (a 400 naming each bad field, "Body is not valid
 * JSON", …). Parsing and checking 14 MB took 1.7-2.7 s of the event loop, and every other
 * account's requests waited for it.
 *
 * The thread starts on the first such body and stops after a minute without one. An account has
 * at most ACCOUNT_BODIES bodies in the thread or waiting for it; past that a body is a 429 with
 * Retry-After, so one account's bodies cannot fill the queue every other account's wait in.
 */
import { Piscina } from 'piscina';
import { runnable } from '#platform/process/runnable.js';
import { FieldErrorList, TooManyRequestsError, ValidationError } from '#domain/errors.js';
import type { JsonBodyOutcome, JsonBodyTask, ThreadCheckedBody, ThreadCheckedValue } from './json-body-task.js';

const ACCOUNT_BODIES = 2;
/** Heap the thread may use: a 16 MiB body parsed and checked takes about a fifth of it. */
const THREAD_HEAP_MB = 512;

export interface JsonBodyChecker {
  /** `bytes` parsed and checked as the body `body` names, for `accountId`: the checked value; throws the 400 (or 429) otherwise. */
  check<B extends ThreadCheckedBody>(accountId: string, body: B, bytes: Buffer): Promise<ThreadCheckedValue<B>>;
  close(): Promise<void>;
}

export function createJsonBodyChecker(): JsonBodyChecker {
  const pool = new Piscina<JsonBodyTask, JsonBodyOutcome>({
    filename: runnable(new URL('./json-body-worker.mjs', import.meta.url)).href,
    minThreads: 0,
    maxThreads: 1,
    idleTimeout: 60_000,
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
  });
  const inFlight = new Map<string, number>();
  return {
    async check(accountId, body, bytes) {
      const held = inFlight.get(accountId) ?? 0;
      if (held >= ACCOUNT_BODIES)
        throw new TooManyRequestsError('rate_limited', 'Too many large bodies of this account are being read; retry later', 2);
      inFlight.set(accountId, held + 1);
      let outcome: JsonBodyOutcome;
      try {
        // The bytes are moved to the thread, not copied, when they are a buffer of their own.
        const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
        const task: JsonBodyTask = { body, bytes: whole ? new Uint8Array(bytes.buffer) : new Uint8Array(bytes) };
        outcome = await pool.run(task, { transferList: [task.bytes.buffer as ArrayBuffer] });
      } finally {
        const left = inFlight.get(accountId)! - 1;
        if (left === 0) inFlight.delete(accountId);
        else inFlight.set(accountId, left);
      }
      if ('value' in outcome) return outcome.value as ThreadCheckedValue<typeof body>;
      const errors = FieldErrorList.of(outcome.errors);
      if (outcome.total > outcome.errors.length) errors.countUnlisted(outcome.total - outcome.errors.length);
      throw new ValidationError(errors);
    },
    close: () => pool.destroy(),
  };
}
