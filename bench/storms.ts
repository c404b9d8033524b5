/**
 * Issue 41's fairness target: "During a preview storm, a bulk-insert body or a 5,000-item read by
 * account A, account B's scans and `/me` keep p99 ≤ 3× their quiet value; no role's memory grows
 * past its cap."
 *
 * The api, worker and redirect run compiled, with their production flags (heap caps among them).
 * Account A has a cafe of 5000 items with long descriptions and ingredients, made through the api
 * with the largest bulk insert the route takes (about 14 MB); account B has one website link.
 * B's link is scanned on the redirect by two sequential clients, and B's GET /api/v1/me asked by two
 * more, for BENCH_SECONDS: first with nothing else running (the quiet value, same round), then
 * during each of A's storms, one after the other:
 * - preview: 32 clients loop GET of A's menu link with `?preview=<id>` (one new preview per round);
 *   503s (the account's previews being made already) are answers;
 * - bulk-insert bodies: 4 clients loop POST of the 14 MB body, each waiting for its answer as a
 *   client without `Prefer` does; 429s (the account's bodies in the thread, or jobs queued) are
 *   answers;
 * - 5,000-item reads: 8 clients loop GET of the whole item list (streamed).
 * A's requests still open when a storm's time is up are let finish, and so are A's jobs, and the
 * processes get two seconds of rest, before the next phase begins.
 *
 * Reported per phase: B's p50 and p99 (time to first byte) and each p99 as a ratio to its quiet
 * value, A's answers by status, the api's and redirect's largest resident memory, whether both
 * still answer /health after it, the machine's 1-minute load average at its end, the p99 delay of
 * this process's own event loop (it runs A's clients and B's: a large figure there is part of B's
 * times), and the CPU seconds each process used (Postgres's are left out: it serves other work on
 * the machine too, and its backends come and go). Medians over BENCH_RUNS rounds (default 1);
 * memory is the largest of the rounds.
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { bigMenu } from '../test/support/big-menu.js';
import {
  getUntil,
  heapCapMb,
  median,
  peakRssWhile,
  percentile,
  printTable,
  processCpuSeconds,
  startBenchStack,
  timedGet,
  type BenchStack,
} from './support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const TARGET_RATIO = 3;
const PREVIEW_CLIENTS = 32;
const BODY_CLIENTS = 4;
const READ_CLIENTS = 8;
/** How long A's bulk-insert jobs may take to finish after their storm before the bench gives up. */
const JOBS_DRAIN_MS = 120_000;

type Statuses = Record<string, number>;
type Storm = (stopped: () => boolean) => Promise<Statuses>;

interface PhaseFigures {
  scans: number;
  scanP50: number;
  scanP99: number;
  me: number;
  meP50: number;
  meP99: number;
  /** B's answers other than a scan's 302, and other than /me's 200, by status. */
  scanOther: Statuses;
  meOther: Statuses;
  aStatuses: Statuses;
  apiMb: number;
  redirectMb: number;
  bothUp: boolean;
  load: number;
  loopP99: number;
  /** CPU seconds used during the phase by the api, the redirect, the worker and this process. */
  cpu: Record<CpuUser, number>;
}

const CPU_USERS = ['api', 'redirect', 'worker', 'bench'] as const;
type CpuUser = (typeof CPU_USERS)[number];

const counted = (statuses: Statuses, status: string | number) => void (statuses[status] = (statuses[status] ?? 0) + 1);
const summed = (all: Statuses[]): Statuses => {
  const sum: Statuses = {};
  for (const statuses of all) for (const [status, n] of Object.entries(statuses)) sum[status] = (sum[status] ?? 0) + n;
  return sum;
};
/** ", of which 2 × 503" for answers other than the expected one, when there are any. */
const others = (statuses: Statuses) => (Object.keys(statuses).length ? `, of which ${statusText(statuses)}` : '');
const statusText = (statuses: Statuses) =>
  Object.entries(statuses)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ') || '—';

async function isUp(origin: string): Promise<boolean> {
  try {
    return (await fetch(`${origin}/health`)).ok;
  } catch {
    return false;
  }
}

export async function benchStorms(): Promise<string> {
  const stack = await startBenchStack('storms', { compiled: true });
  try {
    const { api, redirect } = stack;
    const a = await stack.accountWithKey('bench-storms-a');
    const b = await stack.accountWithKey('bench-storms-b');
    const send = async (auth: Record<string, string>, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${api}/api/v1${path}`, {
        method,
        headers: { ...auth, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any answer's fields, read loosely as a bench reads them
      const answer = (await res.json()) as Record<string, any>;
      if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
      return answer;
    };

    const cafe = (await send(a.auth, 'POST', '/cafes', { name: 'Storm cafe' })).data as { id: string };
    const menuBody = Buffer.from(JSON.stringify({ items: bigMenu() }));
    const inserted = await fetch(`${api}/api/v1/cafes/${cafe.id}/items/bulk-insert`, {
      method: 'POST',
      headers: { ...a.auth, 'content-type': 'application/json' },
      body: menuBody,
    });
    if (inserted.status !== 200) throw new Error(`bulk insert answered ${inserted.status}: ${await inserted.text()}`);
    const website = await send(b.auth, 'POST', '/links', { name: 'website', type: 'website', data: { url: 'https://example.com/' } });
    const scanUrl = `${redirect}/${website.id}`;
    const meUrl = `${api}/api/v1/me`;

    /** The preview page's size as sent (compressed), read after its storm. */
    let previewBytes = 0;
    const storms: Array<{ name: () => string; storm: () => Promise<Storm> }> = [
      {
        name: () =>
          `preview: ${PREVIEW_CLIENTS} clients loop GET of A's menu with ?preview=<id> (${(previewBytes / 1024).toFixed(0)} KiB as sent)`,
        storm: async () => {
          const { url } = await send(a.auth, 'POST', `/cafes/${cafe.id}/theme/preview`, { themeImage: 'dark', primaryColor: '#aa3300' });
          const { pathname, search } = new URL(url as string);
          return async (stopped) => {
            const { statuses } = await getUntil(`${redirect}${pathname}${search}`, stopped, { clients: PREVIEW_CLIENTS });
            previewBytes = (await timedGet(`${redirect}${pathname}${search}`)).bytes;
            return statuses;
          };
        },
      },
      {
        name: () => `bulk-insert bodies: ${BODY_CLIENTS} clients loop POST of ${(menuBody.length / 1e6).toFixed(1)} MB (5000 items)`,
        storm: async () => (stopped) => postBodies(stack, a.auth, `/cafes/${cafe.id}/items/bulk-insert`, menuBody, stopped),
      },
      {
        name: () => `5,000-item reads: ${READ_CLIENTS} clients loop GET /cafes/:id/items`,
        storm: async () => async (stopped) =>
          (await getUntil(`${api}/api/v1/cafes/${cafe.id}/items`, stopped, { clients: READ_CLIENTS, headers: a.auth })).statuses,
      },
    ];

    /** B's scans and /me for SECONDS, beside `storm` when there is one. */
    async function phase(storm?: Storm): Promise<PhaseFigures> {
      const end = Date.now() + SECONDS * 1000;
      const stopped = () => Date.now() > end;
      const cpuBefore = await cpuSeconds(stack);
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const work = Promise.all([
        getUntil(scanUrl, stopped),
        getUntil(meUrl, stopped, { headers: b.auth }),
        storm ? storm(stopped) : Promise.resolve({}),
      ]);
      const {
        result: {
          result: [scans, me, aStatuses],
          peakMb: redirectMb,
        },
        peakMb: apiMb,
      } = await peakRssWhile(stack.apiPid, peakRssWhile(stack.redirectPid, work, 50), 50);
      loop.disable();
      const cpuAfter = await cpuSeconds(stack);
      const { 302: _scanned, ...scanOther } = scans.statuses;
      const { 200: _answered, ...meOther } = me.statuses;
      return {
        scans: scans.times.length,
        scanP50: percentile(scans.times, 0.5),
        scanP99: percentile(scans.times, 0.99),
        me: me.times.length,
        meP50: percentile(me.times, 0.5),
        meP99: percentile(me.times, 0.99),
        scanOther,
        meOther,
        aStatuses,
        apiMb,
        redirectMb,
        bothUp: (await isUp(api)) && (await isUp(redirect)),
        load: loadavg()[0]!,
        loopP99: loop.percentile(99) / 1e6,
        cpu: Object.fromEntries(CPU_USERS.map((user) => [user, cpuAfter[user] - cpuBefore[user]])) as PhaseFigures['cpu'],
      };
    }

    // Warm B's link into the redirect's cache and B's key into the api's.
    for (let i = 0; i < 20; i++) await Promise.all([timedGet(scanUrl), timedGet(meUrl, b.auth)]);

    const rounds: PhaseFigures[][] = [];
    const rest = () => new Promise((r) => setTimeout(r, 2000));
    for (let round = 0; round < RUNS; round++) {
      await rest();
      const figures = [await phase()];
      for (const { storm } of storms) {
        figures.push(await phase(await storm()));
        await untilJobsDone(stack, a.id);
        await rest();
      }
      rounds.push(figures);
    }

    const phases = rounds[0]!.map((_, i) => {
      const of = (figure: keyof PhaseFigures) => median(rounds.map((r) => r[i]![figure] as number));
      return {
        scans: of('scans'),
        scanP50: of('scanP50'),
        scanP99: of('scanP99'),
        me: of('me'),
        meP50: of('meP50'),
        meP99: of('meP99'),
        scanOther: summed(rounds.map((r) => r[i]!.scanOther)),
        meOther: summed(rounds.map((r) => r[i]!.meOther)),
        aStatuses: summed(rounds.map((r) => r[i]!.aStatuses)),
        apiMb: Math.max(...rounds.map((r) => r[i]!.apiMb)),
        redirectMb: Math.max(...rounds.map((r) => r[i]!.redirectMb)),
        bothUp: rounds.every((r) => r[i]!.bothUp),
        load: of('load'),
        loopP99: of('loopP99'),
        cpu: Object.fromEntries(CPU_USERS.map((user) => [user, median(rounds.map((r) => r[i]!.cpu[user]))])) as PhaseFigures['cpu'],
      };
    });
    const quiet = phases[0]!;
    const ratio = (value: number, of: number) => {
      const r = value / of;
      return `${r.toFixed(1)}×${r > TARGET_RATIO ? ' (missed)' : ''}`;
    };
    const rows = phases.map((p, i) => [
      i === 0 ? 'nothing else (quiet)' : storms[i - 1]!.name(),
      p.scans + others(p.scanOther),
      `${p.scanP50.toFixed(2)} / ${p.scanP99.toFixed(2)}`,
      i === 0 ? '—' : ratio(p.scanP99, quiet.scanP99),
      p.me + others(p.meOther),
      `${p.meP50.toFixed(2)} / ${p.meP99.toFixed(2)}`,
      i === 0 ? '—' : ratio(p.meP99, quiet.meP99),
      i === 0 ? '—' : statusText(p.aStatuses),
      `${p.apiMb.toFixed(0)} / ${p.redirectMb.toFixed(0)}`,
      p.bothUp ? 'yes' : '**no**',
      p.load.toFixed(1),
      p.loopP99.toFixed(0),
      CPU_USERS.map((user) => p.cpu[user].toFixed(1)).join(' / '),
    ]);
    return printTable(
      `storms: B's scans (2 clients) and /me (2 clients) for ${SECONDS} s, quiet and during each of A's storms; ` +
        `median of ${RUNS} round(s); heap caps: api ${heapCapMb('api')} MB, redirect ${heapCapMb('redirect')} MB (old generation)`,
      [
        'while',
        'B scans',
        'scan p50 / p99 ms',
        `scan p99 ÷ quiet (≤ ${TARGET_RATIO}×)`,
        'B /me',
        '/me p50 / p99 ms',
        `/me p99 ÷ quiet (≤ ${TARGET_RATIO}×)`,
        "A's answers",
        'peak RSS MB api / redirect',
        'both up after',
        'load (1 min)',
        'bench loop p99 ms',
        `CPU s ${CPU_USERS.join(' / ')}`,
      ],
      rows,
    );
  } finally {
    await stack.stop();
  }
}

/** BODY_CLIENTS clients each POSTing `body` to `path` and waiting for the answer, again and again, until `stopped()`. */
async function postBodies(
  stack: BenchStack,
  auth: Record<string, string>,
  path: string,
  body: Buffer<ArrayBuffer>,
  stopped: () => boolean,
) {
  const statuses: Statuses = {};
  await Promise.all(
    Array.from({ length: BODY_CLIENTS }, async () => {
      while (!stopped()) {
        const res = await fetch(`${stack.api}/api/v1${path}`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body,
        });
        const text = await res.text();
        // The first answer of each kind other than the result, for the reader of the table.
        if (res.status >= 300 && !statuses[res.status])
          process.stderr.write(`storms: A's body answered ${res.status}: ${text.slice(0, 300)}\n`);
        counted(statuses, res.status);
      }
    }),
  );
  return statuses;
}

/** CPU seconds each of the stack's processes and this process have used so far. */
async function cpuSeconds(stack: BenchStack): Promise<Record<CpuUser, number>> {
  const own = process.cpuUsage();
  return {
    api: await processCpuSeconds(stack.apiPid),
    redirect: await processCpuSeconds(stack.redirectPid),
    worker: await processCpuSeconds(stack.workerPid),
    bench: (own.user + own.system) / 1e6,
  };
}

/** Waits until the account has no job queued or running (its bulk inserts), so the next storm starts without them. */
async function untilJobsDone(stack: BenchStack, accountId: string): Promise<void> {
  const end = Date.now() + JOBS_DRAIN_MS;
  for (;;) {
    const { rows } = await stack.database.pool.query<{ n: number }>(
      `select count(*)::int n from jobs where account_id = $1 and state in ('queued', 'active')`,
      [accountId],
    );
    if (rows[0]!.n === 0) return;
    if (Date.now() > end) throw new Error(`account ${accountId} still had ${rows[0]!.n} jobs ${JOBS_DRAIN_MS} ms after its storm`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
