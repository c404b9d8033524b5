/**
 * Fairness per account for the shared resources of an api process: while account A floods one,
 * account B's small request stays within FAIR_FACTOR × its quiet time (measured just before, in
 * the same test). One case per resource, the same steps for each: B alone (median of three), then
 * A's flood, then B once while the flood is still running. The factor is generous on purpose (a
 * shared slow machine); a first-come queue fails it by far, since B then waits for all of A.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngBytes, uploadFile } from '../../support/fixtures.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';

const FAIR_FACTOR = 10;

interface SharedResource {
  name: string;
  /** What B's request and A's flood are, for the test's title. */
  small: string;
  flood: string;
  /** Done once, before anything is timed. */
  prepare(a: TestAccount, b: TestAccount): Promise<void>;
  /** A's flood, resolved when every request of it is answered. */
  startFlood(a: TestAccount): Promise<void>;
  /** B's small request; `n` makes each one new work (no cache, no stored bytes). */
  smallRequest(b: TestAccount, n: number): Promise<void>;
}

let api: TestApi;

const hugePngs: Buffer[] = [];
const photo = (n: number) =>
  sharp({ create: { width: 1200, height: 900, channels: 3, background: { r: n % 256, g: 120, b: 60 } } })
    .jpeg()
    .toBuffer();

const imageSlots: SharedResource = {
  name: 'web-sized copies of uploaded photos (image slots)',
  small: "a 1200 × 900 photo's upload",
  flood: 'four 7000 × 7000 16-bit PNG uploads at once',
  async prepare() {
    for (let i = 0; i < 4; i++) {
      hugePngs.push(
        await sharp({ create: { width: 7000, height: 7000, channels: 3, background: { r: i, g: 90, b: 160 } } })
          .toColourspace('rgb16')
          .png()
          .toBuffer(),
      );
    }
  },
  async startFlood(a) {
    await Promise.all(hugePngs.map((png) => uploadFile(api.app, a.key, png, 'huge.png', 'image/png')));
  },
  async smallRequest(b, n) {
    await uploadFile(api.app, b.key, await photo(n), 'photo.jpg', 'image/jpeg');
  },
};

const links = new Map<string, string>();
const logo = `data:image/png;base64,${pngBytes(512, 512, [30, 90, 200]).toString('base64')}`;
const withLogo = { image: logo, qrOptions: { errorCorrectionLevel: 'H' }, imageOptions: { imageSize: 0.4 } };
let nextSize = 4096;

const renderThreads: SharedResource = {
  name: 'QR render threads',
  small: 'a 1500 px code with a logo',
  flood: 'eight 4000 px codes with a logo at once',
  async prepare(a, b) {
    for (const account of [a, b]) {
      const res = await call(api.app, account.key, 'POST', '/api/v1/links', {
        name: 'qr',
        type: 'website',
        data: { url: 'https://example.com' },
        qrOptions: withLogo,
      });
      expect(res.statusCode, res.body).toBe(200);
      links.set(account.accountId, res.json().id);
    }
  },
  async startFlood(a) {
    const statuses = await Promise.all(
      Array.from({ length: 8 }, () => call(api.app, a.key, 'GET', `/api/v1/links/${links.get(a.accountId)}/qr?size=${nextSize--}`)),
    );
    expect(statuses.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
  },
  async smallRequest(b, n) {
    const res = await call(api.app, b.key, 'GET', `/api/v1/links/${links.get(b.accountId)}/qr?size=${1500 + n}`);
    expect(res.statusCode).toBe(200);
  },
};

beforeAll(async () => {
  // Two render threads, one per account at a time, room for A's whole flood to wait, and no time
  // limit a slow machine could reach: what is measured is only who waits for whom.
  api = await startTestApi({
    QR_RENDER_THREADS: '2',
    QR_RENDER_ACCOUNT_THREADS: '1',
    QR_RENDER_ACCOUNT_QUEUE: '10',
    QR_RENDER_TIMEOUT_MS: '600000',
  });
});
afterAll(() => api?.close());

const timed = async (work: () => Promise<void>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

describe.each([imageSlots, renderThreads])('$name', (resource) => {
  it(`B's ${resource.small} during A's ${resource.flood} takes at most ${FAIR_FACTOR}× its quiet time`, async () => {
    const a = await createTestAccount(api.ctx);
    const b = await createTestAccount(api.ctx);
    await resource.prepare(a, b);
    // Warm-up of every thread and slot: both accounts at once (an account alone may hold only one).
    await Promise.all([resource.smallRequest(b, 0), resource.smallRequest(a, 1)]);
    const medianOfThree = async (from: number) => {
      const ms: number[] = [];
      for (let n = from; n < from + 3; n++) ms.push(await timed(() => resource.smallRequest(b, n)));
      return ms.sort((x, y) => x - y)[1]!;
    };
    const quiet = await medianOfThree(2);

    let floodDone = false;
    const flood = resource.startFlood(a).then(() => (floodDone = true));
    await new Promise((r) => setTimeout(r, 500)); // the flood has taken what it can
    // One request: behind a first-come queue the first one waits for all of A (later ones would not).
    const during = await timed(() => resource.smallRequest(b, 5));
    const duringFlood = !floodDone;
    await flood;

    expect(duringFlood, "B was answered while A's flood was still running").toBe(true);
    expect(during, `B: quiet ${quiet.toFixed(0)} ms (median), during the flood ${during.toFixed(0)} ms`).toBeLessThanOrEqual(
      FAIR_FACTOR * quiet,
    );
  }, 300_000);
});
