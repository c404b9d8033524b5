/**
 * One account floods the api with big QR renders; how long does another account's small code
 * take meanwhile? Account A sends BENCH_QR_FLOOD (default 30) concurrent
 * GET /links/:id/qr?size=4000…3971 (every size a new picture, so no cache hit); a second later
 * account B asks for its 200 px code (a new size each time) BENCH_QR_PROBES (default 5) times in a
 * row. Reports B's latencies and how A's requests were answered (200, 429 with Retry-After, 503,
 * 500). The api is a child process with its default render settings (QR_RENDER_THREADS = cores − 1).
 */
import { eq } from 'drizzle-orm';
import { createDatabase } from '#infra/database.js';
import { accounts } from '#domain/schema.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { freshDatabase, median, printTable, startBenchApi, stopProcess } from './support.js';

const FLOOD = Number(process.env.BENCH_QR_FLOOD ?? 30);
const PROBES = Number(process.env.BENCH_QR_PROBES ?? 5);

async function newLink(origin: string, key: string): Promise<string> {
  const res = await fetch(`${origin}/api/v1/links`, {
    method: 'POST',
    headers: { authorization: `Basic ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      name: 'qr',
      type: 'website',
      data: { url: 'https://example.com' },
      qrOptions: { qrOptions: { errorCorrectionLevel: 'H' } },
    }),
  });
  if (!res.ok) throw new Error(`create answered ${res.status}`);
  return ((await res.json()) as { id: string }).id;
}

export async function benchQrFairness(): Promise<string> {
  const DATABASE_URL = await freshDatabase('qr_fairness');
  const database = createDatabase(DATABASE_URL, 2);
  const a = await createAccount(database.db, { name: 'bench-flood', plan: 'pro' });
  const b = await createAccount(database.db, { name: 'bench-other', plan: 'pro' });
  const aKey = (await createApiKey(database.db, { accountId: a.id, scopes: ['all'] })).key;
  const bKey = (await createApiKey(database.db, { accountId: b.id, scopes: ['all'] })).key;
  const api = await startBenchApi(DATABASE_URL);
  try {
    const aLink = await newLink(api.origin, aKey);
    const bLink = await newLink(api.origin, bKey);
    const qr = (key: string, link: string, size: number) =>
      fetch(`${api.origin}/api/v1/links/${link}/qr?size=${size}`, { headers: { authorization: `Basic ${key}` } });
    // Warm the render threads up, so the first probe does not pay for starting one.
    await (await qr(bKey, bLink, 199)).arrayBuffer();

    const statuses = new Map<string, number>();
    const start = performance.now();
    let lastFloodMs = 0;
    const flood = Array.from({ length: FLOOD }, (_, i) =>
      qr(aKey, aLink, 4000 - i).then(async (res) => {
        await res.arrayBuffer();
        const label =
          res.status === 429 || res.status === 503 ? `${res.status} (Retry-After ${res.headers.get('retry-after')})` : String(res.status);
        statuses.set(label, (statuses.get(label) ?? 0) + 1);
        lastFloodMs = performance.now() - start;
      }),
    );
    await new Promise((r) => setTimeout(r, 1000));
    const probes: number[] = [];
    for (let i = 0; i < PROBES; i++) {
      const t = performance.now();
      const res = await qr(bKey, bLink, 200 + i);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`B's code answered ${res.status}`);
      probes.push(performance.now() - t);
    }
    await Promise.all(flood);
    const rows: Array<Array<string | number>> = [
      [
        `B's 200 px code while A's ${FLOOD} renders of 4000 px are under way: median / max (ms)`,
        `${median(probes).toFixed(0)} / ${Math.max(...probes).toFixed(0)}`,
      ],
      [`B's latencies in order (ms)`, probes.map((p) => p.toFixed(0)).join(', ')],
      [`A's answers`, [...statuses].map(([s, n]) => `${n} × ${s}`).join(', ')],
      [`A's last answer after (s)`, (lastFloodMs / 1000).toFixed(1)],
    ];
    return printTable(`qr-fairness: one account floods ${FLOOD} big renders, another asks for a small code`, ['figure', 'value'], rows);
  } finally {
    await stopProcess(api.child);
    await database.db.delete(accounts).where(eq(accounts.id, a.id));
    await database.db.delete(accounts).where(eq(accounts.id, b.id));
    await database.close();
  }
}
