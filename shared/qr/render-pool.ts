/**
 * QR rendering off the event loop: a pool of worker threads (piscina). A burst of renders queues
 * here and never stalls the api's or redirect's request handling; threads start on first use and
 * stop when idle, so a process that never renders holds none.
 */
import { Piscina } from 'piscina';
import { ValidationError } from '../http/errors.js';
import type { ResolvedQrOptions } from './options.js';
import type { QrImage } from './render/index.js';
import type { QrFormat, RenderOutcome, RenderTask } from './render-task.js';

export interface QrRenderer {
  render(format: QrFormat, options: ResolvedQrOptions, image: QrImage | null, opts?: { pathPrefix?: string }): Promise<Buffer>;
  close(): Promise<void>;
}

const RENDER_TIMEOUT_MS = 20_000;

export function createQrRenderer(threads: number): QrRenderer {
  const pool = new Piscina<RenderTask, RenderOutcome>({
    filename: new URL('./render-worker.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    idleTimeout: 30_000,
  });
  return {
    async render(format, options, image, opts = {}) {
      // A thread that cannot start or a render that never ends must not hang the request.
      const outcome = await pool.run({ format, options, image }, { signal: AbortSignal.timeout(RENDER_TIMEOUT_MS) });
      if (!outcome.ok) {
        const path = opts.pathPrefix ? `${opts.pathPrefix}.${outcome.path}` : outcome.path;
        throw new ValidationError([{ path, message: outcome.message }]);
      }
      return Buffer.from(outcome.body.buffer, outcome.body.byteOffset, outcome.body.byteLength);
    },
    close: () => pool.destroy(),
  };
}
