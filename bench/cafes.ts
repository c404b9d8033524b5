/**
 * Cafe bulk insert (target: 5000 items in < 1 s end to end, all or nothing): POST
 * /cafes/:id/items/bulk-insert of 5000 items, from the request to the api until its 200 answer
 * (the api queues the job, a real worker process replaces the menu in one transaction, the api
 * answers the job's result), replacing a menu of 5000 items each time. Compared in the same run
 * with the same 5000 items made one by one: POST /cafes/:id/items (multipart, as that route
 * takes), 16 at a time. Medians of BENCH_RUNS (default 3).
 */
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../db/client.js';
import { createAccount } from '../shared/accounts/accounts.js';
import { createApiKey } from '../shared/accounts/api-keys.js';
import { freePort, freshDatabase, median, printTable, sendOverConnections, startServer, startWorker } from './support.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'qrlinks-bench-cafes';
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

async function bulkInsert(api: string, auth: Record<string, string>, cafeId: string, items: unknown[]): Promise<number> {
  const start = performance.now();
  const res = await fetch(`${api}/api/v1/cafes/${cafeId}/items/bulk-insert`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ items }),
  });
  const body = (await res.json()) as { data?: { items: number } };
  const ms = performance.now() - start;
  if (res.status !== 200 || body.data?.items !== items.length) throw new Error(`bulk insert answered ${res.status}: ${JSON.stringify(body)}`);
  return ms;
}

/** The same items one POST /items each, CONNECTIONS requests in flight. */
async function singleInserts(api: string, auth: Record<string, string>, cafeId: string): Promise<number> {
  const categories = (await (await fetch(`${api}/api/v1/cafes/${cafeId}/categories`, { headers: auth })).json()) as { data: Array<{ id: string; name: string }> };
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
  const DATABASE_URL = await freshDatabase('cafes');
  const database = createDatabase(DATABASE_URL, 2);
  const storageDir = await mkdtemp(join(tmpdir(), 'qrlinks-bench-cafes-'));
  const env = { DATABASE_URL, REDIS_URL, QUEUE_PREFIX: PREFIX, STORAGE_DIR: storageDir, MIGRATE_ON_START: 'false', WORKER_NICE: '0' };
  const port = await freePort();
  const api = `http://127.0.0.1:${port}`;
  const apiProcess = await startServer('api/server.ts', { ...env, PORT: String(port), RATE_LIMIT_MAX: '100000000' }, `${api}/health`);
  const worker = await startWorker(env);
  try {
    const account = await createAccount(database.db, { name: 'bench-cafes', plan: 'pro' });
    const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'], expiresAt: null }, 100);
    const auth = { authorization: `Basic ${key}` };
    const created = await fetch(`${api}/api/v1/cafes`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"name":"Bench cafe"}' });
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
    return printTable(
      `cafes: ${ITEMS} items (${CATEGORIES} categories, 6 groups) into a cafe, median of ${RUNS} (runs: bulk ${bulkMs.map((m) => m.toFixed(0)).join(', ')} ms; single ${singleMs.map((m) => (m / 1000).toFixed(1)).join(', ')} s)`,
      ['how', 'items/s', 's', '× single', `< ${TARGET_MS / 1000} s`],
      [
        [`${ITEMS} × POST /cafes/:id/items (multipart), ${CONNECTIONS} connections (baseline)`, rate(single), (single / 1000).toFixed(2), '1.00', '—'],
        [
          `**POST /cafes/:id/items/bulk-insert** end to end (api → queue → worker → transaction → answer), replacing ${ITEMS} items`,
          rate(bulk),
          (bulk / 1000).toFixed(3),
          (single / bulk).toFixed(1),
          bulk < TARGET_MS ? 'yes' : 'NO',
        ],
      ],
    );
  } finally {
    worker.kill('SIGTERM');
    apiProcess.kill('SIGTERM');
    await Promise.all([once(worker, 'exit'), once(apiProcess, 'exit')]);
    await database.close();
    await rm(storageDir, { recursive: true, force: true });
  }
}
