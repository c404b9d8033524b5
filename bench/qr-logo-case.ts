/**
 * One case of the qr-logo benchmark, in a process of its own so its peak memory is its own:
 * renders one PNG code of `CODE` px with a `SIDE` × `SIDE` px PNG logo (none for 0) straight
 * through the renderer (no pixel limit in the way) and prints one JSON line.
 */
import { withQrDefaults } from '#domain/qr/options.js';
import { renderPng } from '#domain/qr/render/index.js';
import { pngBytes } from '../test/support/fixtures.js';

const side = Number(process.env.SIDE);
const code = Number(process.env.CODE);
const logo = side ? pngBytes(side, side, [30, 90, 200]) : null;
const options = withQrDefaults(
  { qrOptions: { errorCorrectionLevel: 'H' }, imageOptions: { imageSize: 0.5 } },
  'http://localhost:3001/abcdefg',
);
options.width = options.height = code;
const rssBefore = process.memoryUsage().rss;
const start = performance.now();
renderPng(options, logo && { data: logo, contentType: 'image/png', width: side, height: side });
const ms = performance.now() - start;
process.stdout.write(
  `${JSON.stringify({ ms, logoBytes: logo?.length ?? 0, addedMb: (process.resourceUsage().maxRSS * 1024 - rssBefore) / 2 ** 20 })}\n`,
);
