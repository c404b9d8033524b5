/**
 * `GET /internal/tls-ask` under a fixed 5,000 requests a second (the target: p99 under 1 ms), on
 * the compiled redirect with 10,000 brand domains in its database: a served name, and a flood of
 * names nobody added (every one a 404 from memory). The baseline, in the same run at the same
 * rate, is the redirect's own `/health`, which does no work: the ask's cost is the difference.
 */
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';
import { buildDist, freePort, freshDatabase, printTable, startCompiledServer, stopProcess } from './support.js';

const DOMAINS = 10_000;
const RATE = Number(process.env.BENCH_TLS_ASK_RATE ?? 5000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_RUNS ?? 3);

export async function benchTlsAsk(): Promise<string> {
  await buildDist();
  const DATABASE_URL = await freshDatabase('tls_ask');
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  let served: string;
  try {
    const account = randomUUID();
    await client.query(`insert into accounts (id, name, plan) values ($1, 'bench', 'enterprise')`, [account]);
    await client.query(
      `insert into domains (account_id, hostname, state, token)
       select $1, 'd' || g || '.brand.example', case when g % 2 = 0 then 'verified' else 'pending' end, 'qrlinks-' || md5(g::text)
       from generate_series(1, ${DOMAINS}) g`,
      [account],
    );
    served = 'd2.brand.example';
  } finally {
    await client.end();
  }
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const redirect = await startCompiledServer(
    'redirect',
    { REDIRECT_PORT: String(port), DATABASE_URL, MIGRATE_ON_START: 'false', REDIS_NAMESPACE: 'qrlinks-bench-tls' },
    `${origin}/health`,
  );
  try {
    const cases: Array<[string, autocannon.Options]> = [
      ['baseline: /health', { url: `${origin}/health` }],
      ['ask: a served name', { url: `${origin}/internal/tls-ask?domain=${served}` }],
      [
        'ask: random names (flood, all 404)',
        {
          url: origin,
          requests: [{ setupRequest: (req) => ({ ...req, path: `/internal/tls-ask?domain=${randomUUID()}.example` }) }],
        },
      ],
    ];
    const rows: Array<Array<string | number>> = [];
    for (const [name, opts] of cases) {
      const p99s: number[] = [];
      const p50s: number[] = [];
      let sent = 0;
      let statuses = '';
      for (let round = 0; round < ROUNDS; round++) {
        const result = await autocannon({ ...opts, connections: 50, overallRate: RATE, duration: SECONDS });
        p99s.push(result.latency.p99);
        p50s.push(result.latency.p50);
        sent = Math.round(result.requests.average);
        statuses = `${result['2xx']} 2xx, ${result.non2xx} other`;
      }
      const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      rows.push([name, sent, mid(p50s), mid(p99s), statuses]);
    }
    return printTable(
      `tls-ask at ${RATE} requests/s, ${DOMAINS} domains (half verified), median of ${ROUNDS} × ${SECONDS} s; target p99 < 1 ms`,
      ['case', 'req/s', 'p50 ms', 'p99 ms', 'answers (last round)'],
      rows,
    );
  } finally {
    await stopProcess(redirect);
  }
}
