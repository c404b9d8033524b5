/**
 * One account uploads a burst of huge photos; how long does another account's ordinary photo take
 * meanwhile? Web-sized copies are made at upload in a few slots per api process
 * (domain/files/image-variants.ts). Account A sends BENCH_IMAGE_FLOOD (default 8) 7000 × 7000
 * 16-bit PNGs at once; a second later account B uploads a 1200 × 900 JPEG BENCH_IMAGE_PROBES
 * (default 5) times in a row. Baseline: B's same uploads with nothing else running, in the same
 * run. Every image is new bytes (never a stored blob), so each upload makes its copies.
 */
import sharp from 'sharp';
import { multipart } from '../test/support/fixtures.js';
import { median, printTable, startBenchStack } from './support.js';

const FLOOD = Number(process.env.BENCH_IMAGE_FLOOD ?? 8);
const PROBES = Number(process.env.BENCH_IMAGE_PROBES ?? 5);

/** A flat 16-bit PNG (a few hundred KB: decoding it is what costs, 294 MB of pixels). */
const hugePng = (i: number) =>
  sharp({ create: { width: 7000, height: 7000, channels: 3, background: { r: 20 + i, g: 90, b: 160 } } })
    .toColourspace('rgb16')
    .png()
    .toBuffer();

/** A 1200 × 900 JPEG with some detail; `i` makes its bytes unique. */
async function photo(i: number): Promise<Buffer> {
  const shapes = Array.from(
    { length: 40 },
    (_, k) =>
      `<circle cx="${(k * 97 + i * 13) % 1200}" cy="${(k * 53) % 900}" r="${20 + ((k * 7) % 90)}" fill="hsl(${(k * 37 + i) % 360},60%,50%)"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900"><rect width="1200" height="900" fill="#eee"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

export async function benchImageFairness(): Promise<string> {
  const stack = await startBenchStack('image_fairness');
  try {
    const a = await stack.accountWithKey('bench-flood');
    const b = await stack.accountWithKey('bench-other');
    const upload = async (auth: Record<string, string>, bytes: Buffer, name: string) => {
      const form = multipart([{ name: 'file', data: bytes, filename: name }]);
      const res = await fetch(`${stack.api}/api/v1/files`, {
        method: 'POST',
        headers: { ...auth, 'content-type': form.contentType },
        body: new Uint8Array(form.body),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`upload answered ${res.status}`);
    };
    const probe = async (from: number) => {
      const ms: number[] = [];
      for (let i = 0; i < PROBES; i++) {
        const bytes = await photo(from + i);
        const t = performance.now();
        await upload(b.auth, bytes, 'photo.jpg');
        ms.push(performance.now() - t);
      }
      return ms;
    };
    const huge = await Promise.all(Array.from({ length: FLOOD }, (_, i) => hugePng(i)));
    await probe(1000); // warm-up: sharp and the connection pool
    const quiet = await probe(0);

    const start = performance.now();
    let floodDoneMs = 0;
    const flood = Promise.all(huge.map((bytes) => upload(a.auth, bytes, 'huge.png'))).then(() => (floodDoneMs = performance.now() - start));
    await new Promise((r) => setTimeout(r, 1000));
    const during = await probe(100);
    const duringDoneMs = performance.now() - start;
    await flood;
    return printTable(
      `image-fairness: A uploads ${FLOOD} 7000 × 7000 16-bit PNGs (${(huge[0]!.length / 1024).toFixed(0)} KiB each) at once; B uploads a 1200 × 900 JPEG ${PROBES} times`,
      ['figure', 'value'],
      [
        [`B's upload alone: median / max (ms)`, `${median(quiet).toFixed(0)} / ${Math.max(...quiet).toFixed(0)}`],
        [`B's upload during A's burst: median / max (ms)`, `${median(during).toFixed(0)} / ${Math.max(...during).toFixed(0)}`],
        [`B's latencies during, in order (ms)`, during.map((p) => p.toFixed(0)).join(', ')],
        [`B's last upload done / A's burst done, after (s)`, `${(duringDoneMs / 1000).toFixed(1)} / ${(floodDoneMs / 1000).toFixed(1)}`],
      ],
    );
  } finally {
    await stack.stop();
  }
}
