/**
 * Cafe bulk insert (target: 5000 items in < 1 s end to end, all or nothing): POST
 * /cafes/:id/items/bulk-insert of 5000 items, from the request to the api until its 200 answer
 * (the api queues the job, a real worker process replaces the menu in one transaction, the api
 * answers the job's result), replacing a menu of 5000 items each time. Compared in the same run
 * with the same 5000 items made one by one: POST /cafes/:id/items (multipart, as that route
 * takes), 16 at a time. Medians of BENCH_RUNS (default 3).
 *
 * Menu page (target: time to first byte < 50 ms from cache for 5000 items): GET /<slug> of a cafe's
 * link on a real redirect process, for menus of 50 and 5000 items, as a phone asks (brotli
 * accepted): the time to the response's headers, sequentially, from the page cache (warm) and
 * right after a menu edit (cold: the menu read from Postgres, rendered and compressed), with the
 * page's size raw and as sent. Baseline in the same run: GET /<slug> of a website link (a 302).
 */
import { request } from 'node:http';
import { median, printTable, sendOverConnections, startBenchStack } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ITEMS = 5000;
const CATEGORIES = 50;
const CONNECTIONS = 16;
const TARGET_MS = 1000;

/** A menu like a big restaurant group's: 50 categories in 5 groups (and General), short texts. */
const menu = Array.from({ length: ITEMS }, (_, i) => ({
  name: `Dish ${i}`,
  price: Number(((i % 400) * 0.25 + 1).toFixed(2)),
  currency: 'EUR',
  category: `Category ${i % CATEGORIES}`,
  ...(i % CATEGORIES < 40 ? { group: `Group ${i % 5}` } : {}),
  description: `House dish number ${i}, made fresh every day`,
  ingredients: ['salt', 'olive oil', `herb ${i % 9}`],
}));

const PAGE_REQUESTS = 200;
const COLD_RUNS = 5;
const TTFB_TARGET_MS = 50;

interface Fetched {
  ttfbMs: number;
  status: number;
  encoding: string | undefined;
  bytes: number;
}

/** One GET, timed to its headers (the time to first byte); the body is read to its end. */
function timedGet(url: string, acceptEncoding: string): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    request(
      url,
      { headers: { 'accept-encoding': acceptEncoding, 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' } },
      (res) => {
        const ttfbMs = performance.now() - start;
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve({ ttfbMs, status: res.statusCode ?? 0, encoding: res.headers['content-encoding'], bytes }));
        res.on('error', reject);
      },
    )
      .on('error', reject)
      .end();
  });
}

async function sequentialTtfb(url: string, n: number): Promise<{ median: number; p95: number; last: Fetched }> {
  const times: number[] = [];
  let last: Fetched | undefined;
  for (let i = 0; i < n; i++) {
    last = await timedGet(url, 'gzip, deflate, br');
    if (last.status !== 200 && last.status !== 302) throw new Error(`${url} answered ${last.status}`);
    times.push(last.ttfbMs);
  }
  times.sort((a, b) => a - b);
  return { median: median(times), p95: times[Math.floor(times.length * 0.95)]!, last: last! };
}

async function bulkInsert(api: string, auth: Record<string, string>, cafeId: string, items: unknown[]): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${api}/api/v1/cafes/${cafeId}/items/bulk-insert`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ items }),
  });
  const body = (await res.json()) as { data?: { items: number } };
  const ms = performance.now() - start;
  if (res.status !== 200 || body.data?.items !== items.length)
    throw new Error(`bulk insert answered ${res.status}: ${JSON.stringify(body)}`);
  return ms;
}

/** The same items one POST /items each, CONNECTIONS requests in flight. */
async function singleInserts(api: string, auth: Record<string, string>, cafeId: string): Promise<number> {
  const categories = (await (await fetch(`${api}/api/v1/cafes/${cafeId}/categories`, { headers: auth })).json()) as {
    data: Array<{ id: string; name: string }>;
  };
  const categoryIds = new Map(categories.data.map((c) => [c.name, c.id]));
  return sendOverConnections(menu, CONNECTIONS, (item) => {
    const form = new FormData();
    form.set('category_id', categoryIds.get(item.category.toLowerCase())!);
    form.set('name', item.name);
    form.set('price', String(item.price));
    form.set('currency', item.currency);
    form.set('description', item.description);
    for (const ingredient of item.ingredients) form.append('ingredients', ingredient);
    return fetch(`${api}/api/v1/cafes/${cafeId}/items`, { method: 'POST', headers: auth, body: form });
  });
}

export async function benchCafes(): Promise<string> {
  const { api, redirect, accountWithKey, stop } = await startBenchStack('cafes');
  try {
    const { auth } = await accountWithKey('bench-cafes');
    const created = await fetch(`${api}/api/v1/cafes`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{"name":"Bench cafe"}',
    });
    const cafeId = ((await created.json()) as { data: { id: string } }).data.id;

    // Warm-up: the first replacement starts the api's job listener and fills the menu to replace.
    await bulkInsert(api, auth, cafeId, menu);
    const bulkMs: number[] = [];
    for (let run = 0; run < RUNS; run++) bulkMs.push(await bulkInsert(api, auth, cafeId, menu));
    const singleMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      // Each run starts from the menu's categories with no items: one item per category, replaced.
      await bulkInsert(api, auth, cafeId, menu.slice(0, CATEGORIES));
      singleMs.push(await singleInserts(api, auth, cafeId));
    }
    const bulk = median(bulkMs);
    const single = median(singleMs);
    const rate = (ms: number) => Math.round(ITEMS / (ms / 1000));
    const bulkTable = printTable(
      `cafes: ${ITEMS} items (${CATEGORIES} categories, 6 groups) into a cafe, median of ${RUNS} (runs: bulk ${bulkMs.map((m) => m.toFixed(0)).join(', ')} ms; single ${singleMs.map((m) => (m / 1000).toFixed(1)).join(', ')} s)`,
      ['how', 'items/s', 's', '× single', `< ${TARGET_MS / 1000} s`],
      [
        [
          `${ITEMS} × POST /cafes/:id/items (multipart), ${CONNECTIONS} connections (baseline)`,
          rate(single),
          (single / 1000).toFixed(2),
          '1.00',
          '—',
        ],
        [
          `**POST /cafes/:id/items/bulk-insert** end to end (api → queue → worker → transaction → answer), replacing ${ITEMS} items`,
          rate(bulk),
          (bulk / 1000).toFixed(3),
          (single / bulk).toFixed(1),
          bulk < TARGET_MS ? 'yes' : 'NO',
        ],
      ],
    );

    // The menu page, on a redirect process over the same database.
    const pages: Array<Array<string | number>> = [];
    const website = await fetch(`${api}/api/v1/links`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'baseline', type: 'website', data: { url: 'https://example.com/' } }),
    });
    // POST /links answers the new link's slug as its `id`.
    const websiteSlug = ((await website.json()) as { id: string }).id;
    const baseline = await sequentialTtfb(`${redirect}/${websiteSlug}`, PAGE_REQUESTS);
    pages.push([
      'GET /<slug> of a website link, a 302 (baseline)',
      '—',
      '—',
      baseline.median.toFixed(2),
      baseline.p95.toFixed(2),
      '—',
      '1.00',
      '—',
    ]);
    for (const size of [50, ITEMS]) {
      const made = await fetch(`${api}/api/v1/cafes`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `Menu of ${size}` }),
      });
      const cafe = ((await made.json()) as { data: { id: string; link: { dynamic_link_id: string } } }).data;
      await bulkInsert(api, auth, cafe.id, menu.slice(0, size));
      const url = `${redirect}/${cafe.link.dynamic_link_id}`;
      const cold: number[] = [];
      for (let run = 0; run < COLD_RUNS; run++) {
        // An edit makes the next scan read, render and compress the menu again.
        const edit = await fetch(`${api}/api/v1/cafes/${cafe.id}`, {
          method: 'PUT',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ description: `Edition ${run}` }),
        });
        if (edit.status !== 200) throw new Error(`edit answered ${edit.status}`);
        await new Promise((r) => setTimeout(r, 200)); // the invalidation reaching the redirect process
        cold.push((await timedGet(url, 'gzip, deflate, br')).ttfbMs);
      }
      const warm = await sequentialTtfb(url, PAGE_REQUESTS);
      const raw = await timedGet(url, 'identity');
      const gzip = await timedGet(url, 'gzip');
      pages.push([
        `**GET /<slug> of a menu of ${size} items**, from the page cache`,
        (raw.bytes / 1024).toFixed(0),
        `${(warm.last.bytes / 1024).toFixed(0)} (br), ${(gzip.bytes / 1024).toFixed(0)} (gzip)`,
        warm.median.toFixed(2),
        warm.p95.toFixed(2),
        median(cold).toFixed(1),
        (warm.median / baseline.median).toFixed(2),
        warm.median < TTFB_TARGET_MS ? 'yes' : 'NO',
      ]);
    }
    const pageTable = printTable(
      `menu page: time to first byte over ${PAGE_REQUESTS} sequential GETs (median, p95) and right after an edit (cold, median of ${COLD_RUNS}); size of the HTML (images are lazy and not counted)`,
      ['page', 'HTML KiB', 'sent KiB', 'TTFB ms', 'p95 ms', 'cold ms', '× baseline', `< ${TTFB_TARGET_MS} ms`],
      pages,
    );
    return `${bulkTable}\n${pageTable}`;
  } finally {
    await stop();
  }
}
