/**
 * Geo look-ups: the compact table (platform/geo/geo-table.ts) against what it replaced, the maxmind
 * reader over both DB-IP files read whole (the baseline, same run). Each round of memory and speed
 * runs in a fresh process (bench/baselines/geo-load.ts), rounds of the two alternating; then the
 * table's build time (in this process, into a temporary file) and a comparison of 100,000
 * addresses, random and at range boundaries, against the reader.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { geoDatabase, openGeoTable } from '#domain/scans/geo.js';
import { decodeGeoTable } from '#platform/geo/geo-table.js';
import { buildGeoTable, defaultGeoTablePath } from '#platform/geo/geo-table-build.js';
import { mmdbLookup, sampleAddresses } from '../test/support/geo-addresses.js';
import { median, printTable, ROOT } from './support.js';

const run = promisify(execFile);
const ROUNDS = Number(process.env.BENCH_RUNS ?? 5);
const BUILDS = Number(process.env.BENCH_GEO_BUILDS ?? 3);
const SAMPLE = Number(process.env.BENCH_GEO_SAMPLE ?? 100_000);

interface Round {
  loadMs: number;
  loaded: { rss: number; external: number; heap: number };
  afterLookups: { rss: number; external: number; heap: number };
  nsPerLookup: number;
}

async function round(geo: 'mmdb' | 'table'): Promise<Round> {
  const { stdout } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/baselines/geo-load.ts'], {
    cwd: ROOT,
    env: { ...process.env, GEO: geo },
    maxBuffer: 1 << 20,
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Round;
}

export async function benchGeo(): Promise<string> {
  const load = loadavg()[0]!.toFixed(1);
  // The table must exist before the rounds time its loading.
  const table = openGeoTable();
  const bytes = readFileSync(defaultGeoTablePath());
  const rounds: Record<'mmdb' | 'table', Round[]> = { mmdb: [], table: [] };
  for (let i = 0; i < ROUNDS; i++) for (const geo of ['mmdb', 'table'] as const) rounds[geo].push(await round(geo));
  const m = (geo: 'mmdb' | 'table', pick: (r: Round) => number) => median(rounds[geo].map(pick));
  const rows: Array<[string, (r: Round) => number, number]> = [
    ['load time (ms)', (r) => r.loadMs, 0],
    ['RSS added by loading (MB)', (r) => r.loaded.rss, 1],
    ['external memory added by loading (MB)', (r) => r.loaded.external, 1],
    ['RSS added after 600,000 look-ups (MB)', (r) => r.afterLookups.rss, 1],
    ['ns per look-up (80% IPv4, 20% IPv6, 10,000 addresses)', (r) => r.nsPerLookup, 0],
  ];
  let out = printTable(
    `geo: maxmind reader over the .mmdb files (baseline) vs the compact table, fresh process per round, median of ${ROUNDS} (load average ${load})`,
    ['measure', 'mmdb (baseline)', 'table', 'table / mmdb'],
    rows.map(([name, pick, digits]) => [
      name,
      m('mmdb', pick).toFixed(digits),
      m('table', pick).toFixed(digits),
      (m('table', pick) / m('mmdb', pick)).toFixed(2),
    ]),
  );

  const dir = mkdtempSync(join(tmpdir(), 'qrlinks-geo-'));
  const builds = [];
  try {
    for (let i = 0; i < BUILDS; i++) builds.push(buildGeoTable(join(dir, 'geo.bin')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const { counts } = builds[0]!.header;
  out +=
    '\n\n' +
    printTable(
      `geo table: build (median of ${BUILDS}) and size`,
      ['measure', 'value'],
      [
        ['build time (s)', (median(builds.map((b) => b.milliseconds)) / 1000).toFixed(1)],
        ['file size (MB)', (builds[0]!.bytes / 2 ** 20).toFixed(1)],
        [
          '.mmdb files (MB, the baseline)',
          ((builds[0]!.header.source.sizes.ipv4 + builds[0]!.header.source.sizes.ipv6) / 2 ** 20).toFixed(1),
        ],
        ['IPv4 ranges: tree leaves -> merged', `${counts.ipv4Leaves} -> ${counts.ipv4}`],
        ['IPv6 ranges: tree leaves -> merged', `${counts.ipv6Leaves} -> ${counts.ipv6}`],
        ['IPv6 ranges starting inside a /64', counts.ipv6Inside64],
        ['distinct places (country, region, city)', counts.places - 1],
      ],
    );

  const geo = geoDatabase(table);
  const expected = mmdbLookup();
  const addresses = sampleAddresses(SAMPLE, 20261127, decodeGeoTable(bytes).sections);
  let same = 0;
  let known = 0;
  for (const ip of addresses) {
    const want = expected(ip);
    const got = geo.lookup(ip);
    if (want) known++;
    if (JSON.stringify(want) === JSON.stringify(got && { countryCode: got.countryCode, region: got.region, city: got.city })) same++;
  }
  out +=
    '\n\n' +
    printTable(
      `geo: ${SAMPLE} addresses, table vs maxmind reader`,
      ['addresses', 'known to the database', 'same answer', 'different'],
      [[SAMPLE, known, same, SAMPLE - same]],
    );
  return out;
}
