/**
 * What a centre image's pixels cost a render: one PNG code with a PNG logo of 0 (none), 1024²,
 * 2048² (the limit, QR_IMAGE_MAX_PIXELS), 4096² and 8000² px, at 300 px and at 4096 px (the
 * largest code), each render in a fresh process (bench/qr-logo-case.ts). Figures: time of the
 * render (median of BENCH_QR_LOGO_RUNS processes, default 3) and the memory it added to the
 * process's peak (max RSS after − RSS before). Logos above the limit are refused by the api; here
 * they are drawn anyway, to show why.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { median, printTable, ROOT } from './support.js';

const RUNS = Number(process.env.BENCH_QR_LOGO_RUNS ?? 3);
const run = promisify(execFile);

export async function benchQrLogo(): Promise<string> {
  const rows: Array<Array<string | number>> = [];
  for (const code of [300, 4096]) {
    for (const side of [0, 1024, 2048, 4096, 8000]) {
      const results: Array<{ ms: number; logoBytes: number; addedMb: number }> = [];
      for (let i = 0; i < RUNS; i++) {
        const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/qr-logo-case.ts'], {
          cwd: ROOT,
          env: { ...process.env, SIDE: String(side), CODE: String(code) },
        });
        results.push(JSON.parse(stdout));
      }
      rows.push([
        `${code} px`,
        side ? `${side} × ${side}${side * side > 2048 * 2048 ? ' (refused by the api)' : ''}` : 'none',
        side ? (results[0]!.logoBytes / 1024).toFixed(0) : '—',
        median(results.map((r) => r.ms)).toFixed(0),
        median(results.map((r) => r.addedMb)).toFixed(0),
      ]);
    }
  }
  return printTable(
    `qr-logo: one PNG render per process, level H, imageSize 0.5, median of ${RUNS}`,
    ['code', 'logo (px)', 'logo PNG KiB', 'render ms', 'peak memory added MB'],
    rows,
  );
}
