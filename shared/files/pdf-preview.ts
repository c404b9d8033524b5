/**
 * The first page of an uploaded PDF as a picture, for the cover preview pages show beside a PDF
 * (image-variants.ts makes its web-sized copies from it). Rendered by pdf.js on @napi-rs/canvas
 * (both from npm, the canvas as prebuilt binaries) in a worker thread started for the one PDF,
 * with a memory limit and a time limit: a PDF is a program of sorts, and a hostile one must cost
 * at most PDF_PREVIEW_TIMEOUT_MS of one thread, never the process. Any failure (an encrypted
 * or broken file, the limit reached) means no preview; the upload itself is unaffected.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';

/** Longest a first page may take to render. */
export const PDF_PREVIEW_TIMEOUT_MS = 10_000;
/** Heap a render may use. */
const PDF_PREVIEW_HEAP_MB = 256;

const require = createRequire(import.meta.url);
/** pdf.js's own copies of the 14 standard PDF fonts, read from its package (never fetched). */
const STANDARD_FONTS = `${join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
const WORKER = new URL('./pdf-preview-worker.mjs', import.meta.url);

/** The PDF's first page as a PNG `width` pixels wide, or null when it cannot be drawn in time. */
export function renderPdfFirstPage(pdf: Buffer, width: number, timeoutMs = PDF_PREVIEW_TIMEOUT_MS): Promise<Buffer | null> {
  return new Promise((resolve) => {
    let settled = false;
    const worker = new Worker(WORKER, {
      workerData: { pdf: new Uint8Array(pdf), width, fontsUrl: STANDARD_FONTS },
      resourceLimits: { maxOldGenerationSizeMb: PDF_PREVIEW_HEAP_MB },
      // No loader of the parent's (tsx, a test runner's): the worker is plain JavaScript.
      execArgv: [],
    });
    const finish = (png: Buffer | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      resolve(png);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    worker.on('message', (message: { png?: Uint8Array; error?: string }) => finish(message.png ? Buffer.from(message.png) : null));
    // Out of memory, or a crash of the renderer: no preview.
    worker.on('error', () => finish(null));
    worker.on('exit', () => finish(null));
  });
}
