/**
 * Memory of the `npm start` tree, idle after a fresh start: each process's resident memory (VmRSS,
 * split into anonymous memory and mapped files, from /proc/<pid>/status; and PSS, shared pages
 * divided among their sharers, from /proc/<pid>/smaps_rollup), with the JavaScript heap
 * and external memory of each role (process.memoryUsage, through a preloaded probe that answers
 * SIGUSR2: bench/start-memory-probe.mjs). Variants, each started BENCH_START_ROUNDS (or BENCH_RUNS)
 * times (default 3, medians) on a database and ports of its own:
 * - compiled: `npm start` (dist/ bundles under plain node; compiled beforehand, so no build runs);
 * - tsx: `node --import tsx main.ts`, the same code under the TypeScript loader;
 * - before: `npm start` in BENCH_START_BEFORE_DIR, a checkout of an earlier commit (with its
 *   node_modules), when set: whatever that commit's `npm start` runs (build its dist/ there first,
 *   `node scripts/build.mjs`, or the first round's start includes the build).
 * Each waits for "qrlinks running", then BENCH_START_SETTLE_MS (default 15000) of idle. Linux only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabaseUrl, buildDist, freePort, median, printTable, ROOT, stopProcess } from './support.js';

const ROUNDS = Number(process.env.BENCH_START_ROUNDS ?? process.env.BENCH_RUNS ?? 3);
const SETTLE_MS = Number(process.env.BENCH_START_SETTLE_MS ?? 15_000);
const BEFORE_DIR = process.env.BENCH_START_BEFORE_DIR;
const PROBE = join(ROOT, 'bench/start-memory-probe.mjs');
const ROLES = ['npm', 'supervisor', 'api', 'redirect', 'worker', 'other'] as const;
type Role = (typeof ROLES)[number];

interface Variant {
  name: string;
  cwd: string;
  command: string[];
}

interface Proc {
  pid: number;
  role: Role;
  rss: number;
  pss: number;
  anon: number;
  file: number;
  heapUsed?: number;
  external?: number;
}

const mb = (kb: number) => kb / 1024;

async function status(pid: number): Promise<{ ppid: number; rss: number; anon: number; file: number } | null> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  if (!text) return null;
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { ppid: field('PPid'), rss: mb(field('VmRSS')), anon: mb(field('RssAnon')), file: mb(field('RssFile')) };
}

/** Proportional set size: each shared page (Node's own code, mapped by every process) counted once over its sharers. */
async function pss(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => '');
  return mb(Number(/^Pss:\s+(\d+)/m.exec(text)?.[1] ?? NaN));
}

function roleOf(args: string): Role {
  if (/(^|\/)npm(-cli\.js)?( |$)/.test(args) || args.includes('npm-cli.js')) return 'npm';
  if (/main\.(ts|js)( |$)/.test(args)) return 'supervisor';
  if (/api\/server\.(ts|js)/.test(args)) return 'api';
  if (/redirect\/server\.(ts|js)/.test(args)) return 'redirect';
  if (/workers\/server\.(ts|js)/.test(args)) return 'worker';
  return 'other';
}

/** Every process under `root` (itself included). */
async function tree(root: number): Promise<Array<{ pid: number; args: string }>> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    const pid = Number(name);
    if (!Number.isInteger(pid)) continue;
    const s = await status(pid);
    if (s) parents.set(pid, s.ppid);
  }
  const found = [root];
  for (let i = 0; i < found.length; i++) for (const [pid, ppid] of parents) if (ppid === found[i]) found.push(pid);
  return Promise.all(
    found.map(async (pid) => ({ pid, args: (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').join(' ') })),
  );
}

async function measure(variant: Variant, round: number): Promise<Proc[]> {
  const [port, redirectPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const probeDir = await mkdtemp(join(tmpdir(), 'qrlinks-start-memory-'));
  const child: ChildProcess = spawn(variant.command[0]!, variant.command.slice(1), {
    cwd: variant.cwd,
    env: {
      ...process.env,
      NODE_OPTIONS: `--import=${PROBE}`,
      BENCH_PROBE_DIR: probeDir,
      LOG_LEVEL: 'warn',
      PORT: String(port),
      REDIRECT_PORT: String(redirectPort),
      WORKER_METRICS_PORT: String(metricsPort),
      SHORT_URL_BASE: `http://127.0.0.1:${redirectPort}`,
      DATABASE_URL: benchDatabaseUrl(`start_memory_${variant.name.replace(/\W/g, '_')}`),
      REDIS_NAMESPACE: `bench-start-memory-${round}`,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        if (out.includes('qrlinks running')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`${variant.name}: exited (${code}) before running:\n${out}`)));
    });
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const procs: Proc[] = [];
    for (const { pid, args } of await tree(child.pid!)) {
      const s = await status(pid);
      if (s) procs.push({ pid, role: roleOf(args), rss: s.rss, pss: await pss(pid), anon: s.anon, file: s.file });
    }
    for (const p of procs) if (p.role !== 'other') process.kill(p.pid, 'SIGUSR2');
    await new Promise((r) => setTimeout(r, 1000));
    for (const p of procs) {
      const file = join(probeDir, `${p.pid}.json`);
      if (!existsSync(file)) continue;
      const { usage } = JSON.parse(await readFile(file, 'utf8')) as { usage: NodeJS.MemoryUsage };
      p.heapUsed = usage.heapUsed / 2 ** 20;
      p.external = usage.external / 2 ** 20; // array buffers included
    }
    return procs;
  } finally {
    await stopProcess(child);
    await rm(probeDir, { recursive: true, force: true });
  }
}

export async function benchStartMemory(): Promise<string> {
  await buildDist();
  const variants: Variant[] = [
    ...(BEFORE_DIR ? [{ name: 'before (npm start)', cwd: BEFORE_DIR, command: ['npm', 'start'] }] : []),
    { name: 'tsx', cwd: ROOT, command: [process.execPath, '--import', 'tsx', 'main.ts'] },
    { name: 'compiled (npm start)', cwd: ROOT, command: ['npm', 'start'] },
  ];
  const results = new Map<string, Proc[][]>(variants.map((v) => [v.name, []]));
  // Rounds interleave the variants, so a change in the machine's load falls on all of them.
  for (let round = 0; round < ROUNDS; round++) for (const v of variants) results.get(v.name)!.push(await measure(v, round));

  const fmt = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(0));
  // How far one start lies from another, which a median hides.
  const range = (values: number[]) => `${fmt(Math.min(...values))}–${fmt(Math.max(...values))}`;
  const rows: Array<Array<string | number>> = [];
  const totals = new Map<string, number>();
  for (const v of variants) {
    const rounds = results.get(v.name)!;
    const roundTotals = rounds.map((procs) => procs.reduce((sum, p) => sum + p.rss, 0));
    const total = median(roundTotals);
    const totalPss = median(rounds.map((procs) => procs.reduce((sum, p) => sum + p.pss, 0)));
    totals.set(v.name, total);
    for (const role of ROLES) {
      const each = (pick: (p: Proc) => number | undefined) =>
        rounds.map((procs) => procs.filter((p) => p.role === role).reduce((sum, p) => sum + (pick(p) ?? NaN), 0));
      const of = (pick: (p: Proc) => number | undefined) => median(each(pick));
      const count = median(rounds.map((procs) => procs.filter((p) => p.role === role).length));
      if (count === 0) continue;
      rows.push([
        v.name,
        `${role}${count > 1 ? ` (${count})` : ''}`,
        fmt(of((p) => p.rss)),
        range(each((p) => p.rss)),
        fmt(of((p) => p.pss)),
        fmt(of((p) => p.anon)),
        fmt(of((p) => p.file)),
        fmt(of((p) => p.heapUsed)),
        fmt(of((p) => p.external)),
      ]);
    }
    rows.push([v.name, 'whole tree', fmt(total), range(roundTotals), fmt(totalPss), '', '', '', '']);
  }
  const baseline = totals.get(variants[0]!.name)!;
  const ratios = variants.map((v) => `${v.name}: ${(totals.get(v.name)! / baseline).toFixed(2)}×`).join(', ');
  return printTable(
    `npm start tree idle ${SETTLE_MS / 1000} s after "qrlinks running", MB, median of ${ROUNDS} (whole tree against ${variants[0]!.name}: ${ratios})`,
    ['variant', 'process', 'RSS', 'RSS, lowest–highest round', 'PSS', 'anon', 'files', 'heap used', 'external'],
    rows,
  );
}
