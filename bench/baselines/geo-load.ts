/**
 * One round of the geo benchmark in a process of its own (bench/geo.ts), so what loading adds to
 * memory is this round's alone. GEO=mmdb: the look-up before the table, the maxmind reader over
 * both DB-IP files read whole, with its decoded-record cache (the baseline); GEO=table: loadGeo().
 * Prints one JSON line: load time, what loading added (after a GC), what 600,000 look-ups then
 * added, and ns per look-up over a scan-like mix (median of 3 passes).
 */
import { loadGeo } from '#domain/scans/geo.js';
import { mmdbLookup, scanAddresses } from '../../test/support/geo-addresses.js';

const gc = globalThis.gc;
if (!gc) throw new Error('run with --expose-gc');
const MB = 2 ** 20;
const megabytes = (before: NodeJS.MemoryUsage, after: NodeJS.MemoryUsage) => ({
  rss: (after.rss - before.rss) / MB,
  external: (after.external - before.external) / MB,
  heap: (after.heapUsed - before.heapUsed) / MB,
});

const addresses = scanAddresses(10_000, 20261127);
gc();
const before = process.memoryUsage();
const started = performance.now();
const lookup = process.env.GEO === 'mmdb' ? mmdbLookup({ cacheEntries: 20_000 }) : await loadGeo().then((geo) => geo.lookup);
const loadMs = performance.now() - started;
gc();
const loaded = process.memoryUsage();

const LOOKUPS = 200_000;
const passes: number[] = [];
let known = 0;
for (let pass = 0; pass < 3; pass++) {
  const t = performance.now();
  for (let i = 0; i < LOOKUPS; i++) if (lookup(addresses[i % addresses.length]!)) known++;
  passes.push(((performance.now() - t) * 1e6) / LOOKUPS);
}
gc();
const used = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({
    loadMs,
    loaded: megabytes(before, loaded),
    afterLookups: megabytes(before, used),
    nsPerLookup: passes.sort((a, b) => a - b)[1],
    knownShare: known / (3 * LOOKUPS),
  })}\n`,
);
process.exit(0);
