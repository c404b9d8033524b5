/**
 * QR rendering off the event loop: a pool of worker threads (piscina). A burst of renders waits
 * here and never stalls the api's or redirect's request handling; threads start on first use and
 * stop when idle, so a process that never renders holds none.
 *
 * The threads are shared fairly between accounts. Piscina's own queue is first come, first served,
 * so one account's backlog of big renders would make every other account wait behind all of it.
 * Renders therefore wait in one lane per account, and a task goes to piscina only when a thread is
 * free (piscina never queues anything):
 * - an account has at most `perAccountThreads` renders running at once, so other accounts always
 *   find threads when there are more threads than that;
 * - a free thread goes to the waiting account with the fewest renders running, ties to the one
 *   served longest ago (an account that has not rendered yet comes first): another account's
 *   backlog delays a render by at most the renders already running, never by the backlog;
 * - a caller may bound how many renders of its account wait (`maxWaiting`): past it the render is
 *   refused at once with a 429 and Retry-After (the api does; bulk jobs wait, their own window
 *   bounds them);
 * - a render that has not finished `timeoutMs` after it was asked for, waiting included, fails
 *   with a 503 and Retry-After; a running one has its thread terminated (piscina replaces it).
 */
import { Piscina } from 'piscina';
import { ServiceUnavailableError, TooManyRequestsError, ValidationError } from '#domain/errors.js';
import type { ResolvedQrOptions } from '#domain/qr/options.js';
import type { QrImage } from '#domain/qr/render/index.js';
import {
  RENDER_BUSY_MESSAGE,
  RENDER_TIMEOUT_MESSAGE,
  type QrRenderer,
  type QrRendererOptions,
  type RenderCall,
  type RenderLoad,
} from '#domain/qr/renderer.js';
import type { QrFormat, RenderOutcome, RenderTask } from '#domain/qr/render-task.js';
import { runnable } from '#platform/process/runnable.js';

interface Waiting {
  task: RenderTask;
  signal: AbortSignal;
  onAbort: () => void;
  resolve: (outcome: RenderOutcome) => void;
  reject: (err: unknown) => void;
}

interface Lane {
  running: number;
  waiting: Waiting[];
  /** When a thread last went to this lane (a counter); 0: never. */
  servedAt: number;
}

/** A task's answer of the kind asked, or the 400 its option error is. */
function answerOf<K extends 'image' | 'report' | 'sheet'>(
  outcome: RenderOutcome,
  kind: K,
  call: RenderCall,
): Extract<RenderOutcome, { kind: K }> {
  if (!outcome.ok) {
    const path = call.pathPrefix ? `${call.pathPrefix}.${outcome.path}` : outcome.path;
    throw new ValidationError([{ path, message: outcome.message }]);
  }
  if (outcome.kind !== kind) throw new Error(`A ${kind} task answered ${outcome.kind}`);
  return outcome as Extract<RenderOutcome, { kind: K }>;
}

export function createQrRenderer(opts: QrRendererOptions): QrRenderer {
  const pool = new Piscina<RenderTask, RenderOutcome>({
    filename: runnable(new URL('./render-worker.mjs', import.meta.url)).href,
    minThreads: 0,
    maxThreads: opts.threads,
    idleTimeout: 30_000,
  });
  const perAccount = Math.max(1, Math.min(opts.perAccountThreads, opts.threads));
  const lanes = new Map<string, Lane>();
  let running = 0;
  let served = 0;
  let rendered = 0;
  let renderMs = 0;
  // Recent render time, for Retry-After: a starting guess, then a moving average of real renders.
  let averageMs = 1000;

  /** Seconds until the account's renders now running and waiting are likely done. */
  const retryAfter = (lane: Lane | undefined) => ((lane ? lane.running + lane.waiting.length : 0) / perAccount) * (averageMs / 1000);

  const dropIfIdle = (accountId: string, lane: Lane) => {
    if (lane.running === 0 && lane.waiting.length === 0) lanes.delete(accountId);
  };

  const dispatch = () => {
    while (running < opts.threads) {
      let next: [string, Lane] | null = null;
      for (const entry of lanes) {
        const lane = entry[1];
        if (lane.waiting.length === 0 || lane.running >= perAccount) continue;
        if (!next || lane.running < next[1].running || (lane.running === next[1].running && lane.servedAt < next[1].servedAt)) next = entry;
      }
      if (!next) return;
      const [accountId, lane] = next;
      const item = lane.waiting.shift()!;
      item.signal.removeEventListener('abort', item.onAbort);
      lane.running++;
      lane.servedAt = ++served;
      running++;
      const startedAt = performance.now();
      pool
        .run(item.task, { signal: item.signal })
        .then(
          (outcome) => {
            const tookMs = performance.now() - startedAt;
            averageMs = averageMs * 0.8 + tookMs * 0.2;
            rendered++;
            renderMs += tookMs;
            item.resolve(outcome);
          },
          (err) =>
            item.reject(
              item.signal.aborted ? new ServiceUnavailableError('render_timeout', RENDER_TIMEOUT_MESSAGE, retryAfter(lane)) : err,
            ),
        )
        .finally(() => {
          lane.running--;
          running--;
          dropIfIdle(accountId, lane);
          dispatch();
        });
    }
  };

  const run = (task: RenderTask, call: RenderCall) =>
    new Promise<RenderOutcome>((resolve, reject) => {
      const known = lanes.get(call.accountId);
      const mustWait = !!known && (known.waiting.length > 0 || known.running >= perAccount);
      if (call.maxWaiting !== undefined && mustWait && known.waiting.length >= call.maxWaiting) {
        reject(new TooManyRequestsError('render_busy', RENDER_BUSY_MESSAGE, retryAfter(known)));
        return;
      }
      const lane = known ?? { running: 0, waiting: [], servedAt: 0 };
      lanes.set(call.accountId, lane);
      const signal = AbortSignal.timeout(call.timeoutMs ?? opts.timeoutMs);
      const item: Waiting = {
        task,
        signal,
        resolve,
        reject,
        // Timed out while waiting: leave the lane without ever taking a thread.
        onAbort: () => {
          const at = lane.waiting.indexOf(item);
          if (at >= 0) lane.waiting.splice(at, 1);
          dropIfIdle(call.accountId, lane);
          reject(new ServiceUnavailableError('render_timeout', RENDER_TIMEOUT_MESSAGE, retryAfter(lane)));
        },
      };
      signal.addEventListener('abort', item.onAbort, { once: true });
      lane.waiting.push(item);
      dispatch();
    });

  const renderFixed: QrRenderer['renderFixed'] = async (format, options, image, autoFix, call, print) => {
    const task: RenderTask = { kind: 'image', format, options, image, ...(autoFix && { autoFix }), ...(print && { print }) };
    const { body, fixed } = answerOf(await run(task, call), 'image', call).value;
    return { body: Buffer.from(body.buffer, body.byteOffset, body.byteLength), fixed };
  };

  return {
    async render(format, options, image, call) {
      return (await renderFixed(format, options, image, undefined, call)).body;
    },
    renderFixed,
    async sheet(sheet, call) {
      const body = answerOf(await run({ kind: 'sheet', sheet }, call), 'sheet', call).value;
      return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    },
    async report(options, image, print, call) {
      return answerOf(await run({ kind: 'report', options, image, print }, call), 'report', call).value;
    },
    load(accountId) {
      const lane = lanes.get(accountId);
      return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
    },
    activity() {
      let waiting = 0;
      for (const lane of lanes.values()) waiting += lane.waiting.length;
      return { running, waiting, rendered, renderSeconds: renderMs / 1000 };
    },
    async close() {
      for (const lane of lanes.values()) {
        for (const item of lane.waiting.splice(0)) {
          item.signal.removeEventListener('abort', item.onAbort);
          item.reject(new Error('QR renderer closed'));
        }
      }
      await pool.destroy();
    },
  };
}
