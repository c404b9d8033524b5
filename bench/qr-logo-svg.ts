/**
 * What an SVG logo's effects cost: a plain logo, the reported one (feTurbulence, feMorphology of
 * radius 85, feGaussianBlur), thirty masks, a hundred chained masks and the most the caps let
 * through (bench/qr-logo-svg-case.ts), each offered where QR options are accepted (timed:
 * accepted, or refused with the message) and, when accepted, drawn on a PNG code of 1024 and
 * 4096 px, each in a fresh process (bench/qr-logo-svg-case.ts) killed after BENCH_QR_SVG_LIMIT_S
 * (default 120) seconds.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { printTable, ROOT } from './support.js';

const LIMIT_S = Number(process.env.BENCH_QR_SVG_LIMIT_S ?? 120);
const run = promisify(execFile);

export async function benchQrLogoSvg(): Promise<string> {
  const rows: Array<Array<string | number>> = [];
  for (const logo of ['plain', 'filters', 'masks', 'chained-masks', 'at-the-caps']) {
    for (const code of [1024, 4096]) {
      let cells: Array<string | number>;
      try {
        const { stdout } = await run(process.execPath, ['--import', 'tsx', 'bench/qr-logo-svg-case.ts'], {
          cwd: ROOT,
          env: { ...process.env, LOGO: logo, CODE: String(code) },
          timeout: LIMIT_S * 1000,
        });
        const r = JSON.parse(stdout) as {
          bytes: number;
          acceptMs: number;
          refusal: string | null;
          renderMs: number | null;
          addedMb: number;
        };
        const drawn = r.renderMs !== null;
        cells = [
          r.bytes,
          r.refusal ? `400 in ${r.acceptMs.toFixed(0)} ms` : `accepted in ${r.acceptMs.toFixed(0)} ms`,
          drawn ? (r.renderMs! / 1000).toFixed(2) : '—',
          drawn ? r.addedMb.toFixed(0) : '—',
        ];
      } catch {
        cells = ['', 'accepted', `> ${LIMIT_S} (killed)`, ''];
      }
      rows.push([logo, `${code} px`, ...cells]);
    }
  }
  return printTable(
    'qr-logo-svg: an SVG logo accepted (or refused), then one PNG code drawn with it, a process each',
    ['logo', 'code', 'SVG bytes', 'where options are accepted', 'render s', 'render peak MB added'],
    rows,
  );
}
