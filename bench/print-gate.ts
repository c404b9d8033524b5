/**
 * What the print gate costs a render (issue target: at most ~50 ms added to a single render on
 * this machine). In this process, one thread, as a render thread runs it: the PNG render alone
 * (the baseline, same run), the gate (8 captures, both decoders) at 3 cm from 30 cm, the whole
 * print report (the gate plus the reading-distance search) and, for a failing design, the
 * auto-fix search. Medians of BENCH_RUNS rounds (default 9), after one warm-up of each.
 */
import { withQrDefaults, type QrOptions } from '#domain/qr/options.js';
import { autoFix } from '#domain/qr/print/auto-fix.js';
import { printReport } from '#domain/qr/print/print-report.js';
import { gateDesign } from '#domain/qr/print/scannability.js';
import { renderPng, type QrImage } from '#domain/qr/render/index.js';
import { median, printTable } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const DATA = 'https://qr.example/k7F2qXa?q';

/** A 64 px logo, drawn as PNG by the renderer itself (a square code makes a fine opaque picture). */
function logo(): QrImage {
  const data = renderPng(withQrDefaults({ width: 64, height: 64, margin: 0 }, 'logo'));
  return { data, contentType: 'image/png', width: 64, height: 64 };
}

async function timed(fn: () => unknown): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

export async function benchPrintGate(): Promise<string> {
  const image = logo();
  const cases: Array<{ name: string; options: QrOptions; image: QrImage | null }> = [
    { name: 'default design, 300 px', options: {}, image: null },
    { name: 'default design, 2000 px', options: { width: 2000, height: 2000 }, image: null },
    { name: 'logo at half of Q, modules cleared', options: { imageOptions: { imageSize: 0.5, hideBackgroundDots: true } }, image },
    {
      name: 'logo at all of M (fails: auto-fix searches)',
      options: { qrOptions: { errorCorrectionLevel: 'M' }, imageOptions: { imageSize: 1 } },
      image,
    },
  ];
  const rows: Array<Array<string | number>> = [];
  for (const c of cases) {
    const opts = withQrDefaults(c.options, DATA);
    const render = await timed(() => renderPng(opts, c.image));
    const gate = await timed(() => gateDesign(opts, c.image, 30, 300));
    const verdict = (await gateDesign(opts, c.image, 30, 300)).verdict;
    const report = await timed(() => printReport(opts, c.image, { sizeMm: 30, proposeFix: false }));
    const fix = verdict === 'scans-well' ? null : await timed(() => autoFix(opts, c.image, 30, 300));
    rows.push([
      c.name,
      render.toFixed(1),
      gate.toFixed(1),
      ((render + gate) / render).toFixed(1),
      verdict,
      report.toFixed(0),
      fix === null ? '—' : fix.toFixed(0),
    ]);
  }
  return printTable(
    `print-gate: one thread, medians of ${RUNS} (3 cm read from 30 cm)`,
    ['design', 'PNG render ms (baseline)', 'gate ms (added)', 'render + gate vs render', 'verdict', 'report ms', 'auto-fix ms'],
    rows,
  );
}
