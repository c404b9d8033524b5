/**
 * Renders the first page of a PDF to a PNG, as a process of its own (pdf-preview.ts starts one per
 * PDF under a memory limit and kills it past a time limit). pdf.js (pdfjs-dist) parses and draws;
 * @napi-rs/canvas, prebuilt binaries from npm, is the canvas. Plain JavaScript: the process is
 * started without the TypeScript loader.
 *
 * Arguments: width, max page pixels, max image pixels, time limit (ms), standard fonts URL. The
 * PDF comes on standard input; the PNG goes to standard output; exit code 0 when it was drawn.
 */
import { createCanvas } from '@napi-rs/canvas';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const [width, maxPixels, maxImagePixels, timeoutMs] = process.argv.slice(2, 6).map(Number);
const fontsUrl = process.argv[6];
// The parent kills us at the time limit; this ends us too when the parent itself is gone.
setTimeout(() => process.exit(1), timeoutMs).unref();

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);

const document = await getDocument({
  data: new Uint8Array(Buffer.concat(chunks)),
  // No code from the document, no fonts fetched from anywhere but the package's own standard fonts.
  isEvalSupported: false,
  disableFontFace: true,
  useSystemFonts: false,
  standardFontDataUrl: fontsUrl,
  // An image of more pixels is left out of the drawing rather than decoded (a few bytes of PDF
  // can declare a 60000 × 20000 image).
  maxImageSize: maxImagePixels,
  verbosity: 0,
}).promise;
const page = await document.getPage(1);
const natural = page.getViewport({ scale: 1 });
// `width` wide, unless the page is so tall (or so large) that it would take more than maxPixels:
// then as wide as maxPixels allows. The canvas is what costs memory, 4 bytes a pixel.
const scale = Math.min(width / natural.width, Math.sqrt(maxPixels / (natural.width * natural.height)));
const viewport = page.getViewport({ scale });
const canvas = createCanvas(Math.max(1, Math.floor(viewport.width)), Math.max(1, Math.floor(viewport.height)));
const context = canvas.getContext('2d');
// A page is drawn on white, as a viewer shows it (a transparent page would show the site behind it).
context.fillStyle = '#ffffff';
context.fillRect(0, 0, canvas.width, canvas.height);
await page.render({ canvasContext: context, canvas, viewport }).promise;
process.stdout.write(canvas.toBuffer('image/png'), () => process.exit(0));
