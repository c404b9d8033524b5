/**
 * Renders the first page of a PDF to a PNG, in a worker thread of its own (pdf-preview.ts starts
 * one per upload and ends it past a time limit, so a hostile PDF can neither block the process's
 * event loop nor run forever). pdf.js (pdfjs-dist) parses and draws; @napi-rs/canvas, prebuilt
 * binaries from npm, is the canvas. Plain JavaScript: a worker thread does not get the TypeScript loader.
 *
 * workerData: { pdf: Uint8Array, width: number, fontsUrl: string }. Posts { png: Uint8Array } or { error: string }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const { pdf, width, fontsUrl } = workerData;

try {
  const document = await getDocument({
    data: pdf,
    // No code from the document, no fonts fetched from anywhere but the package's own standard fonts.
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: fontsUrl,
    verbosity: 0,
  }).promise;
  const page = await document.getPage(1);
  const natural = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: width / natural.width });
  const canvas = createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
  const context = canvas.getContext('2d');
  // A page is drawn on white, as a viewer shows it (a transparent page would show the site behind it).
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: context, canvas, viewport }).promise;
  parentPort.postMessage({ png: canvas.toBuffer('image/png') });
  await document.destroy();
} catch (err) {
  parentPort.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
