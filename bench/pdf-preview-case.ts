/**
 * One case of the pdf-preview benchmark, in a process of its own so its memory is its own: draws
 * the first page of `COUNT` copies of one PDF (`CASE`: a normal page, a page 25 × 14,400 pt, a
 * page holding a 60,000 × 20,000 image, pages holding 12 or 40 images just under the image
 * limit) at once, as uploads do, sampling every 20 ms this process's memory (RSS) and that of the
 * processes it started. Prints one JSON line.
 */
import { readFile } from 'node:fs/promises';
import { renderPdfFirstPage } from '#platform/images/pdf-preview.js';
import { pdfPage } from '../test/support/fixtures.js';

const PDFS: Record<string, () => Buffer> = {
  normal: () => pdfPage({ text: 'A normal page', width: 595, height: 842 }),
  tall: () => pdfPage({ text: 'tall', width: 25, height: 14_400 }),
  image: () => pdfPage({ text: 'image', width: 600, height: 200, image: { width: 60_000, height: 20_000 } }),
  // Images just under the image limit: twelve fit in the memory limit, forty do not.
  'images-12': () => pdfPage({ text: 'images', width: 600, height: 800, image: { width: 4_330, height: 5_770, count: 12 } }),
  'images-40': () => pdfPage({ text: 'images', width: 600, height: 800, image: { width: 4_330, height: 5_770, count: 40 } }),
};

/** RSS in bytes of a process and of every process below it. */
async function treeRss(pid: number): Promise<{ own: number; below: number }> {
  const rss = async (p: number) => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${p}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : 0;
    } catch {
      return 0; // ended meanwhile
    }
  };
  const children = async (p: number): Promise<number[]> => {
    try {
      const ids = (await readFile(`/proc/${p}/task/${p}/children`, 'utf8')).trim().split(/\s+/).filter(Boolean).map(Number);
      return [...ids, ...(await Promise.all(ids.map(children))).flat()];
    } catch {
      return [];
    }
  };
  const below = await Promise.all((await children(pid)).map(rss));
  return { own: await rss(pid), below: below.reduce((a, b) => a + b, 0) };
}

const pdf = PDFS[process.env.CASE!]!();
const count = Number(process.env.COUNT ?? 1);
const before = (await treeRss(process.pid)).own;
let peakOwn = before;
let peakTotal = before;
const sample = async () => {
  const { own, below } = await treeRss(process.pid);
  peakOwn = Math.max(peakOwn, own);
  peakTotal = Math.max(peakTotal, own + below);
};
// treeRss reads a process that ended meanwhile as 0 bytes: a sample never rejects.
const sampler = setInterval(() => void sample(), 20);
const start = performance.now();
const pages = await Promise.all(Array.from({ length: count }, () => renderPdfFirstPage(pdf, 960)));
const ms = performance.now() - start;
await new Promise((r) => setTimeout(r, 1000));
clearInterval(sampler);
const after = (await treeRss(process.pid)).own;
const mb = (n: number) => Math.round(n / 2 ** 20);
process.stdout.write(
  `${JSON.stringify({ pdfBytes: pdf.length, ms, drawn: pages.filter(Boolean).length, ownAddedMb: mb(peakOwn - before), totalAddedMb: mb(peakTotal - before), keptMb: mb(after - before) })}\n`,
);
process.exit(0);
