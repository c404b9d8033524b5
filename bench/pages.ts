/**
 * Hosted pages as a phone loads them: for each link type, the page's weight (the HTML and every
 * image it fetches, as transferred) and its time to first byte, at 390×844 (2× pixels) in headless
 * Chromium against real api and redirect processes, with the photos as a phone takes them (five
 * 4000×3000 JPEGs of a few MB each).
 *
 * Before and after in the same run: "before" is a second account whose photos have no web-sized
 * copies (their `file_blobs.variants` cleared after upload), so its pages serve the photos as
 * uploaded, as every page did before copies existed; "after" is the same links on an account
 * whose uploads made copies. First screen: what loads before any scrolling; whole page: after
 * scrolling to the end (lazy images then load). Also the upload of one such photo (POST /files,
 * copies made in the request) against the same bytes uploaded again (stored already: no copies,
 * no write), and the copies alone (sharp in this process).
 */
import { once } from 'node:events';
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import { makeImageVariants } from '#domain/files/image-variants.js';
import { exampleData } from '../test/support/link-examples.js';
import { pdfBytes } from '../test/support/fixtures.js';
import { randomUnit } from '../test/support/seeded-random.js';
import { median, printTable, startBenchStack } from './support.js';

const PHOTOS = 5;
const TTFB_REQUESTS = 50;
const UPLOAD_RUNS = 5;
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } as const;
const TYPES = [
  'image',
  'gallery',
  'product',
  'event',
  'pdf',
  'multi-pdf',
  'vcard',
  'wifi',
  'location',
  'email',
  'sms',
  'landing',
  'multi-links',
] as const;

/**
 * A photo-like JPEG (4000×3000 unless told): shapes of every size from a few pixels to a third of the frame, in
 * many colours, over fine grain. Detail at every scale is what keeps a real photo's smaller
 * copies from being almost free; plain noise averages out to a flat colour when scaled down.
 */
export async function photo(seed: number, width = 4000, height = 3000): Promise<Buffer> {
  // Seeded, so each run draws the same five photos.
  const random = randomUnit(seed * 7919 + 17);
  const shapes: string[] = [];
  for (let i = 0; i < 3000; i++) {
    const size = Math.round(4 + 1300 * random() ** 4);
    const colour = `hsl(${Math.round(random() * 360)},${Math.round(30 + random() * 60)}%,${Math.round(20 + random() * 60)}%)`;
    const x = Math.round(random() * width);
    const y = Math.round(random() * height);
    shapes.push(
      random() < 0.5
        ? `<circle cx="${x}" cy="${y}" r="${size / 2}" fill="${colour}" fill-opacity="0.7"/>`
        : `<rect x="${x}" y="${y}" width="${size}" height="${Math.round(size * (0.3 + random()))}" fill="${colour}" fill-opacity="0.7" transform="rotate(${Math.round(random() * 90)} ${x} ${y})"/>`,
    );
  }
  const scene = await sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="hsl(${seed * 67},40%,50%)"/>${shapes.join('')}</svg>`,
    ),
  )
    .removeAlpha()
    .raw()
    .toBuffer();
  // Sensor grain: a little noise on every pixel.
  const grain = randomBytes(width * height * 3);
  for (let i = 0; i < scene.length; i++) scene[i] = Math.max(0, Math.min(255, scene[i]! + ((grain[i]! & 15) - 8)));
  return sharp(scene, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

interface Weight {
  firstScreen: number;
  whole: number;
  images: number;
}

/** What Chromium transfers for the page at a phone's size: at load, and after scrolling to the end. */
async function weigh(browser: Browser, url: string): Promise<Weight> {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    let bytes = 0;
    const imageRequests = new Set<string>();
    cdp.on('Network.responseReceived', (e) => {
      if (e.type === 'Image') imageRequests.add(e.requestId);
    });
    cdp.on('Network.loadingFinished', (e) => {
      bytes += e.encodedDataLength;
    });
    const response = await page.goto(url, { waitUntil: 'networkidle' });
    if (response?.status() !== 200) throw new Error(`${url} answered ${response?.status()}`);
    const firstScreen = bytes;
    for (let y = 0; y < 20; y++) {
      const done = await page.evaluate(() => {
        window.scrollBy(0, window.innerHeight);
        return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight;
      });
      await page.waitForLoadState('networkidle');
      if (done) break;
    }
    await page.waitForTimeout(300);
    await page.waitForLoadState('networkidle');
    return { firstScreen, whole: bytes, images: imageRequests.size };
  } finally {
    await context.close();
  }
}

function ttfb(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    request(
      url,
      { headers: { 'accept-encoding': 'gzip, deflate, br', 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' } },
      (res) => {
        const ms = performance.now() - start;
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(ms) : reject(new Error(`${url} answered ${res.statusCode}`))));
      },
    )
      .on('error', reject)
      .end();
  });
}

async function medianTtfb(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < TTFB_REQUESTS; i++) times.push(await ttfb(url));
  return median(times);
}

export async function benchPages(): Promise<string> {
  const { database, api, redirect, accountWithKey, stop } = await startBenchStack('pages');
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const photos = await Promise.all(Array.from({ length: PHOTOS }, (_, i) => photo(i)));
    const pdf = pdfBytes('A menu');

    async function upload(auth: Record<string, string>, bytes: Buffer, name: string): Promise<{ fileId: string; ms: number }> {
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(bytes)]), name);
      const start = performance.now();
      const res = await fetch(`${api}/api/v1/files`, { method: 'POST', headers: auth, body: form });
      const ms = performance.now() - start;
      if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
      return { fileId: ((await res.json()) as { fileId: string }).fileId, ms };
    }
    /** Each type's link on the account, with files of its own (the same bytes: stored once). */
    async function makeLinks(auth: Record<string, string>): Promise<Map<string, string>> {
      const slugs = new Map<string, string>();
      for (const type of TYPES) {
        const images = [];
        for (const [i, bytes] of photos.entries()) images.push((await upload(auth, bytes, `IMG_${2040 + i}.jpg`)).fileId);
        const pdfs = [(await upload(auth, pdf, 'menu.pdf')).fileId, (await upload(auth, pdf, 'menu-2.pdf')).fileId];
        let data = exampleData(type, { images, pdfs });
        // Galleries and products with all five photos: the case the issue measures.
        if (type === 'gallery') data = { files: images.map((fileId) => ({ fileId })) };
        if (type === 'product') data = { ...data, images: { files: images.map((fileId) => ({ fileId })) } };
        const res = await fetch(`${api}/api/v1/links`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Terrace ${type}`, type, data }),
        });
        if (res.status !== 200) throw new Error(`POST /links ${type} answered ${res.status}: ${await res.text()}`);
        slugs.set(type, ((await res.json()) as { id: string }).id);
      }
      return slugs;
    }

    // The cost of copies at upload: a new photo, and the same bytes again (stored already).
    const timing = await accountWithKey('bench-pages-upload');
    const firstUploads: number[] = [];
    const againUploads: number[] = [];
    for (let run = 0; run < UPLOAD_RUNS; run++) {
      const fresh = await photo(100 + run);
      firstUploads.push((await upload(timing.auth, fresh, 'new.jpg')).ms);
      againUploads.push((await upload(timing.auth, fresh, 'again.jpg')).ms);
    }
    const sharpMs: number[] = [];
    for (let run = 0; run < UPLOAD_RUNS; run++) {
      const start = performance.now();
      await makeImageVariants('bench', photos[run % PHOTOS]!, 'image/jpeg');
      sharpMs.push(performance.now() - start);
    }

    const after = await accountWithKey('bench-pages-after');
    const afterLinks = await makeLinks(after.auth);
    const before = await accountWithKey('bench-pages-before');
    const beforeLinks = await makeLinks(before.auth);
    // As uploads were before copies existed: the same links, serving the photos as uploaded.
    await database.pool.query('update file_blobs set variants = null where account_id = $1', [before.id]);

    const kib = (n: number) => (n / 1024).toFixed(0);
    const rows: Array<Array<string | number>> = [];
    const totals = { before: 0, after: 0 };
    for (const type of TYPES) {
      const b = await weigh(browser, `${redirect}/${beforeLinks.get(type)}`);
      const a = await weigh(browser, `${redirect}/${afterLinks.get(type)}`);
      const t = await medianTtfb(`${redirect}/${afterLinks.get(type)}`);
      totals.before += b.whole;
      totals.after += a.whole;
      rows.push([
        type,
        kib(b.firstScreen),
        kib(a.firstScreen),
        kib(b.whole),
        kib(a.whole),
        b.whole > 0 ? (a.whole / b.whole).toFixed(2) : '—',
        a.images,
        t.toFixed(2),
      ]);
    }
    const pageTable = printTable(
      `pages: weight at 390×844 (2× pixels) in Chromium, KiB transferred (HTML + images), before (photos as uploaded) and after (web-sized copies); five 4000×3000 JPEGs of ${photos.map((p) => (p.length / 1e6).toFixed(1)).join(', ')} MB; TTFB median of ${TTFB_REQUESTS} sequential GETs`,
      [
        'type',
        'first screen before',
        'first screen after',
        'whole page before',
        'whole page after',
        'after / before',
        'images fetched',
        'TTFB ms',
      ],
      [...rows, ['all of them', '', '', kib(totals.before), kib(totals.after), (totals.after / totals.before).toFixed(2), '', '']],
    );
    const uploadTable = printTable(
      `upload of one 4000×3000 JPEG (POST /files), median of ${UPLOAD_RUNS}`,
      ['what', 'ms'],
      [
        ['the same bytes again: stored already, no copies (baseline)', median(againUploads).toFixed(0)],
        ['**a new photo: stored, with its four copies made by sharp**', median(firstUploads).toFixed(0)],
        ['the copies alone (sharp, in this process)', median(sharpMs).toFixed(0)],
      ],
    );
    return `${pageTable}\n${uploadTable}`;
  } finally {
    await browser.close();
    await stop();
  }
}
