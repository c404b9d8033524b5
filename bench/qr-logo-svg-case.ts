/**
 * One case of the qr-logo-svg benchmark, in a process of its own: the SVG logo `LOGO` offered as
 * a data: URI to the loader that accepts QR options (timed), then, when accepted, one PNG code of
 * `CODE` px drawn with it straight through the renderer. Prints one JSON line.
 */
import { loadConfig } from '#platform/config/index.js';
import { loadQrImage, type QrImageContext } from '#domain/qr/image-source.js';
import { withQrDefaults } from '#domain/qr/options.js';
import { renderPng } from '#domain/qr/render/index.js';

const SVG = 'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 200"';
const repeat = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('');
const maskChain = (n: number) =>
  `<mask id="m0"><rect width="200" height="200" fill="#fff"/></mask>${repeat(n - 1, (i) => `<mask id="m${i + 1}"><rect width="200" height="200" fill="#fff" mask="url(#m${i})"/></mask>`)}`;
const LOGOS: Record<string, string> = {
  plain: `<svg ${SVG}><circle cx="100" cy="100" r="90" fill="#c33"/><path d="M60 100h80M100 60v80" stroke="#fff" stroke-width="12"/></svg>`,
  // The reported one: turbulence, a morphology of radius 85 and a blur over the whole logo.
  filters: `<svg ${SVG}><filter id="f" x="-1" y="-1" width="3" height="3"><feTurbulence baseFrequency="0.05" numOctaves="10"/><feMorphology radius="85"/><feGaussianBlur stdDeviation="50"/></filter><rect width="200" height="200" filter="url(#f)"/></svg>`,
  masks: `<svg ${SVG}><defs>${repeat(30, (i) => `<mask id="m${i}"><rect width="200" height="200" fill="#fff"/></mask>`)}</defs>${repeat(30, (i) => `<rect width="200" height="200" mask="url(#m${i})"/>`)}</svg>`,
  // Each mask masked by the one before: all hundred layers are held at once.
  'chained-masks': `<svg ${SVG}><defs>${maskChain(100)}</defs><rect width="200" height="200" mask="url(#m99)"/></svg>`,
  // The most the caps let through: 16 chained masks inside groups nested to depth 24.
  'at-the-caps': `<svg ${SVG}><defs>${maskChain(16)}</defs>${'<g opacity="0.9">'.repeat(21)}<rect width="200" height="200" mask="url(#m15)"/>${'</g>'.repeat(21)}</svg>`,
};

const svg = LOGOS[process.env.LOGO!]!;
const code = Number(process.env.CODE);
const ctx = { config: loadConfig(process.env) } as QrImageContext;
const acceptStart = performance.now();
let accepted: Awaited<ReturnType<typeof loadQrImage>> = null;
let refusal: string | null = null;
try {
  accepted = await loadQrImage(ctx, 'bench', `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`);
} catch (err) {
  refusal = (err as { errors?: Array<{ message: string }> }).errors?.[0]?.message ?? String(err);
}
const acceptMs = performance.now() - acceptStart;
let renderMs: number | null = null;
const rssBefore = process.memoryUsage().rss;
if (accepted) {
  const options = withQrDefaults(
    { qrOptions: { errorCorrectionLevel: 'H' }, imageOptions: { imageSize: 0.5 } },
    'http://localhost:3001/abcdefg',
  );
  options.width = options.height = code;
  const start = performance.now();
  renderPng(options, accepted);
  renderMs = performance.now() - start;
}
const addedMb = (process.resourceUsage().maxRSS * 1024 - rssBefore) / 2 ** 20;
process.stdout.write(`${JSON.stringify({ bytes: svg.length, acceptMs, refusal, renderMs, addedMb })}\n`);
