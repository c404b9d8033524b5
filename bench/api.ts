/**
 * The api's fixed cost per request: GET /api/v1/folders (auth by key hash, scope check, rate
 * limit in Redis, a Postgres query, zod-described JSON) against a bare Fastify route that answers
 * the same body from memory, in the same run.
 */
import { createDatabase } from '../domain/database.js';
import { createAccount } from '../domain/accounts/accounts.js';
import { createApiKey } from '../domain/accounts/api-keys.js';
import { folders } from '../domain/schema.js';
import { freshDatabase, medianLoad, printTable, startBenchApi, startJsonBaseline, stopProcess } from './support.js';

const CONNECTIONS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

export async function benchApi(): Promise<string> {
  const DATABASE_URL = await freshDatabase('api');
  const database = createDatabase(DATABASE_URL, 2);
  const account = await createAccount(database.db, { name: 'bench', plan: 'pro' });
  const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'] });
  await database.db.insert(folders).values(Array.from({ length: 20 }, (_, i) => ({ accountId: account.id, name: `Folder ${i}` })));
  await database.close();

  const api = await startBenchApi(DATABASE_URL);
  const url = `${api.origin}/api/v1/folders`;
  const headers = { authorization: `Basic ${key}` };
  const baseline = await startJsonBaseline(await (await fetch(url, { headers })).text());

  try {
    // Warm both up (JIT, pools) before measuring.
    await medianLoad(1, { url, headers, connections: CONNECTIONS, seconds: 1 });
    await medianLoad(1, { url: baseline.url, connections: CONNECTIONS, seconds: 1 });
    const ours = await medianLoad(RUNS, { url, headers, connections: CONNECTIONS, seconds: SECONDS });
    const base = await medianLoad(RUNS, { url: baseline.url, connections: CONNECTIONS, seconds: SECONDS });
    if (ours.non2xx || ours.errors) throw new Error(`api answered ${ours.non2xx} non-2xx and ${ours.errors} errors`);
    return printTable(
      `api: GET /api/v1/folders (20 folders), ${CONNECTIONS} connections, median of ${RUNS} × ${SECONDS} s`,
      ['server', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline'],
      [
        ['bare Fastify, same JSON from memory (baseline)', Math.round(base.requestsPerSec), base.p50, base.p99, '1.00'],
        [
          'qrlinks api (auth + rate limit + Postgres)',
          Math.round(ours.requestsPerSec),
          ours.p50,
          ours.p99,
          (ours.requestsPerSec / base.requestsPerSec).toFixed(2),
        ],
      ],
    );
  } finally {
    await stopProcess(api.child);
    await stopProcess(baseline.child);
  }
}
