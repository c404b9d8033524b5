/**
 * What drawing a PDF's first page (the cover preview made at upload) costs in memory, for a normal
 * page and for the worst PDFs we could build: a page 25 × 14,400 pt (drawn 960 px wide it would
 * be a 2 GB canvas), a 1.1 MB page holding a 60,000 × 20,000 image (4.8 GB decoded), four of
 * those at once, and pages holding 12 or 40 images just under the image limit. Each case runs in
 * a fresh process (bench/pdf-preview-case.ts); figures: memory added to that process (the api's
 * share), added to it and the processes it started (the machine's), still held 1 s after the
 * last render, time, and how many pages were drawn.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { printTable, ROOT } from './support.js';

const run = promisify(execFile);
const CASES: Array<[string, number]> = [
  ['normal', 1],
  ['tall', 1],
  ['image', 1],
  ['image', 4],
  ['images-12', 1],
  ['images-40', 1],
];

export async function benchPdfPreview(): Promise<string> {
  const rows: Array<Array<string | number>> = [];
  for (const [name, count] of CASES) {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/pdf-preview-case.ts'], {
      cwd: ROOT,
      env: { ...process.env, CASE: name, COUNT: String(count) },
    });
    const r = JSON.parse(stdout) as {
      pdfBytes: number;
      ms: number;
      drawn: number;
      ownAddedMb: number;
      totalAddedMb: number;
      keptMb: number;
    };
    rows.push([`${name} × ${count}`, r.pdfBytes, r.ownAddedMb, r.totalAddedMb, r.keptMb, r.ms.toFixed(0), `${r.drawn} of ${count}`]);
  }
  return printTable(
    'pdf-preview: first pages drawn at once in one process, peak memory sampled every 20 ms',
    ['PDF', 'bytes', 'process MB added', 'with its children MB added', 'MB held after', 'ms', 'drawn'],
    rows,
  );
}
