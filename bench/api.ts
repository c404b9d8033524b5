/**
 * The api's fixed cost per request: GET /api/v1/folders (auth by key hash, scope check, rate
 * limit, a Postgres query, zod-described JSON), compiled as production runs it, against two bare
 * Fastify routes in the same run: one answering the same body from memory (the baseline of the
 * target), and one reading the same folders from Postgres with one prepared statement (the floor
 * of any route that makes a database round trip). Rounds alternate between the three servers, so a
 * change in the machine's load touches all of them; medians of the rounds. The api is measured
 * twice in each round: with an API key (a machine) and with a person's session cookie (the
 * console), whose cost must not exceed the key's. The load comes from wrk when it is installed
 * (a C client, lighter on a small machine than autocannon, which shares the bench's own process).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadavg } from 'node:os';
import { createDatabase } from '#infra/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { folders } from '#domain/schema.js';
import { startSession } from '#domain/people/sessions.js';
import { addMembership, createUser } from '#domain/people/users.js';
import { freshDatabase, medianLoad, printTable, startBenchApi, startJsonBaseline, startPostgresBaseline, stopProcess } from './support.js';

const CONNECTIONS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Sent to our api only (`br`: its answer compressed, decision 0376); the baselines answer identity. */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING;
const run = promisify(execFile);

interface Round {
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
}

async function hasWrk(): Promise<boolean> {
  try {
    await run('wrk', ['--version']);
    return true;
  } catch (err) {
    // wrk prints its version and exits 1.
    return (err as { stdout?: string }).stdout?.includes('wrk') ?? false;
  }
}

/** wrk's "50%  1.23ms" lines, in ms. */
function wrkLatency(out: string, percentile: string): number {
  const match = new RegExp(`^\\s*${percentile}%\\s+([\\d.]+)(us|ms|s)`, 'm').exec(out);
  if (!match) return NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

async function wrkRound(url: string, headers: Record<string, string>, seconds: number): Promise<Round> {
  const args = [
    '-t2',
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    '--latency',
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    url,
  ];
  const { stdout } = await run('wrk', args);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout);
  return {
    requestsPerSec: Number(rps?.[1] ?? 0),
    p50: wrkLatency(stdout, '50'),
    p99: wrkLatency(stdout, '99'),
    non2xx: Number(non2xx?.[1] ?? 0),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export async function benchApi(): Promise<string> {
  const DATABASE_URL = await freshDatabase('api');
  const database = createDatabase(DATABASE_URL, 2);
  const account = await createAccount(database.db, { name: 'bench', plan: 'pro' });
  const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'] });
  await database.db.insert(folders).values(Array.from({ length: 20 }, (_, i) => ({ accountId: account.id, name: `Folder ${i}` })));
  const person = await createUser(database.db, { email: 'bench@example.com', password: 'a bench password of some length' });
  await addMembership(database.db, { accountId: account.id, userId: person.id, role: 'editor' });
  const session = await startSession(
    database.db,
    { userId: person.id, accountId: account.id, ip: null, userAgent: 'bench' },
    { idleMs: 86_400_000, maxAgeMs: 86_400_000 },
  );
  await database.close();

  const api = await startBenchApi(DATABASE_URL);
  const url = `${api.origin}/api/v1/folders`;
  const headers: Record<string, string> = { authorization: `Basic ${key}` };
  const cookieHeaders: Record<string, string> = { cookie: `qrlinks_session=${session.token}` };
  // fetch decodes what it is sent, so the baseline gets the JSON itself.
  const baseline = await startJsonBaseline(await (await fetch(url, { headers })).text());
  if (ACCEPT_ENCODING) headers['accept-encoding'] = cookieHeaders['accept-encoding'] = ACCEPT_ENCODING;
  const floor = await startPostgresBaseline(DATABASE_URL, account.id);
  const wrk = await hasWrk();
  const round = async (target: string, h: Record<string, string>, seconds: number): Promise<Round> => {
    if (wrk) return wrkRound(target, h, seconds);
    const r = await medianLoad(1, { url: target, headers: h, connections: CONNECTIONS, seconds });
    return { requestsPerSec: r.requestsPerSec, p50: r.p50, p99: r.p99, non2xx: r.non2xx + r.errors };
  };

  try {
    // Warm both up (JIT, pools) before measuring.
    await round(url, headers, 2);
    await round(url, cookieHeaders, 2);
    await round(baseline.url, {}, 2);
    await round(floor.url, {}, 2);
    const ours: Round[] = [];
    const signedIn: Round[] = [];
    const sessionToKey: number[] = [];
    const base: Round[] = [];
    const floors: Round[] = [];
    const ratios: number[] = [];
    const floorRatios: number[] = [];
    const oursToFloor: number[] = [];
    const loads: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      base.push(await round(baseline.url, {}, SECONDS));
      floors.push(await round(floor.url, {}, SECONDS));
      ours.push(await round(url, headers, SECONDS));
      signedIn.push(await round(url, cookieHeaders, SECONDS));
      sessionToKey.push(signedIn[i]!.requestsPerSec / ours[i]!.requestsPerSec);
      ratios.push(ours[i]!.requestsPerSec / base[i]!.requestsPerSec);
      floorRatios.push(floors[i]!.requestsPerSec / base[i]!.requestsPerSec);
      oursToFloor.push(ours[i]!.requestsPerSec / floors[i]!.requestsPerSec);
      loads.push(loadavg()[0]!);
    }
    const bad = [...ours, ...signedIn].reduce((n, r) => n + r.non2xx, 0);
    if (bad) throw new Error(`api answered ${bad} non-2xx`);
    const row = (name: string, rounds: Round[], ratio: string) => [
      name,
      Math.round(median(rounds.map((r) => r.requestsPerSec))),
      median(rounds.map((r) => r.p50)).toFixed(2),
      median(rounds.map((r) => r.p99)).toFixed(2),
      ratio,
    ];
    return printTable(
      `api: GET /api/v1/folders (20 folders${ACCEPT_ENCODING ? `, Accept-Encoding: ${ACCEPT_ENCODING}` : ''}), ${CONNECTIONS} connections, ${wrk ? 'wrk' : 'autocannon'}, median of ${RUNS} alternating rounds × ${SECONDS} s, ` +
        `load average ${median(loads).toFixed(2)} (cores: 2 shared)`,
      ['server', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline (median of per-round ratios)'],
      [
        row('bare Fastify, same JSON from memory (baseline)', base, '1.00'),
        row('bare Fastify + the same folders from Postgres (one prepared statement)', floors, median(floorRatios).toFixed(2)),
        row(
          'qrlinks api (auth + rate limit + Postgres)',
          ours,
          `${median(ratios).toFixed(2)} (${median(oursToFloor).toFixed(2)} of the Postgres baseline)`,
        ),
        row('qrlinks api, a person signed in (session cookie)', signedIn, `${median(sessionToKey).toFixed(2)} of the same api with a key`),
      ],
    );
  } finally {
    await stopProcess(api.child);
    await stopProcess(baseline.child);
    await stopProcess(floor.child);
  }
}
