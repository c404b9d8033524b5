/**
 * The first page of an uploaded PDF as a picture, for the cover preview pages show beside a PDF
 * (image-variants.ts makes its web-sized copies from it). Rendered by pdf.js on @napi-rs/canvas
 * (both from npm, the canvas as prebuilt binaries) in a process started for the one PDF
 * (pdf-preview-worker.mjs). A PDF is a program of sorts, and most of what a hostile one costs is
 * native memory (the canvas, decoded images) that no JavaScript heap limit sees and that a thread
 * would leave in the process once it ends. So the render is bounded three ways:
 * - the page is drawn into at most PDF_PREVIEW_MAX_PIXELS (a page 25 pt wide and 14,400 pt tall
 *   would otherwise be a 960 × 552,960 canvas, 2 GB);
 * - pdf.js leaves out any image of more than PDF_PREVIEW_MAX_IMAGE_PIXELS instead of decoding it;
 * - the process has PDF_PREVIEW_MEMORY_MB of data memory beyond what a bare node starts with
 *   (`ulimit -d`: heap, canvas and images alike; an allocation past it fails and the process
 *   ends) and PDF_PREVIEW_TIMEOUT_MS, after
 *   which it is killed. Whatever it used goes back to the system when it ends.
 * Any failure (an encrypted or broken file, a limit reached) means no preview; the upload itself
 * is unaffected.
 */
import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnable } from '../process/runnable.js';

/** Longest a first page may take to render. */
export const PDF_PREVIEW_TIMEOUT_MS = 10_000;
/** Data memory (heap and native) the rendering process may use. */
export const PDF_PREVIEW_MEMORY_MB = 512;
/** Pixels the page is drawn into at most: an A4 page 960 px wide is 1.3 million. */
export const PDF_PREVIEW_MAX_PIXELS = 4_000_000;
/** Bigger images in the PDF are not drawn (decoded, one would take 4 bytes a pixel). */
export const PDF_PREVIEW_MAX_IMAGE_PIXELS = 25_000_000;
/** The JavaScript heap, well inside the data limit so a runaway heap fails as out-of-memory first. */
const HEAP_MB = 192;

const require = createRequire(import.meta.url);
/** pdf.js's own copies of the 14 standard PDF fonts, read from its package (never fetched). */
const STANDARD_FONTS = `${join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;
const WORKER = fileURLToPath(runnable(new URL('./pdf-preview-worker.mjs', import.meta.url)));

/**
 * The data memory (kB, as `ulimit -d` counts it) a bare node with the worker's flags has before it
 * runs anything, measured once. Node 24's V8 reserves address space that counts: some 560 MB
 * against Node 20's 48 MB, so a fixed limit of PDF_PREVIEW_MEMORY_MB would not even let Node 24
 * start (docs/decisions/0416). 0 where it cannot be read.
 */
let startingDataKb: Promise<number> | undefined;
function nodeStartingDataKb(): Promise<number> {
  startingDataKb ??= new Promise((resolve) =>
    execFile(
      process.execPath,
      [`--max-old-space-size=${HEAP_MB}`, '-p', `/^VmData:\\s*(\\d+)/m.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1]`],
      (error, stdout) => resolve(error ? 0 : Number(stdout.trim()) || 0),
    ),
  );
  return startingDataKb;
}

/** The PDF's first page as a PNG `width` pixels wide (narrower for a very tall page), or null when it cannot be drawn within the limits. */
export function renderPdfFirstPage(pdf: Buffer, width: number, timeoutMs = PDF_PREVIEW_TIMEOUT_MS): Promise<Buffer | null> {
  return nodeStartingDataKb().then((startingKb) => renderWithin(pdf, width, timeoutMs, startingKb + PDF_PREVIEW_MEMORY_MB * 1024));
}

function renderWithin(pdf: Buffer, width: number, timeoutMs: number, dataLimitKb: number): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const args = [String(width), String(PDF_PREVIEW_MAX_PIXELS), String(PDF_PREVIEW_MAX_IMAGE_PIXELS), String(timeoutMs), STANDARD_FONTS];
    // The shell sets the limit and becomes node (exec), so the child's pid is node's.
    const child = spawn(
      '/bin/sh',
      ['-c', `ulimit -d ${dataLimitKb} && exec "$@"`, 'pdf-preview', process.execPath, `--max-old-space-size=${HEAP_MB}`, WORKER, ...args],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    const png: Buffer[] = [];
    let settled = false;
    const finish = (result: Buffer | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      resolve(result);
    };
    const timer = setTimeout(() => finish(null), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => png.push(chunk));
    // A render that ends early never reads all of its input: that write error changes nothing.
    child.stdin.on('error', () => {});
    child.stdin.end(pdf);
    child.on('error', () => finish(null));
    // Out of memory, a crash of the renderer, a file pdf.js cannot read: no preview.
    child.on('close', (code) => finish(code === 0 && png.length > 0 ? Buffer.concat(png) : null));
  });
}
