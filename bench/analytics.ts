/**
 * The analytics GETs (target: every median < 100 ms) on one account with 5,000,000 scans over
 * 1000 links in the last 90 days (BENCH_ANALYTICS_SCANS scales it down for a quick run).
 *
 * Seeding goes through the real ingestion path, `ingestScanBatches` with batches made by
 * `encodeScanBatch`: the statement the scans worker runs, so whatever ingestion maintains besides
 * the rows (counters, pre-aggregated tables) is maintained here too. Seeding takes minutes, so
 * the database is kept across runs and reused while it was seeded with the same parameters, by
 * the same ingestion code and migrations, and recently enough that the rolling windows still
 * cover its scans (BENCH_ANALYTICS_MAX_SEED_AGE_HOURS); otherwise it is made anew.
 *
 * Each endpoint, account-wide and for two links (the hottest and a middling one), for several
 * windows, is asked over HTTP of a real api process (one request at a time), beside the naive
 * query over raw `scans` for the same answer (as the raw-scan implementation asks it), sent by
 * the benchmark straight to Postgres. Every answer is checked against the naive one first.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { createDatabase } from '#infra/database.js';
import { apiKeys } from '#domain/schema.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { analyticsWindow, type AnalyticsWindow, type Duration } from '#domain/analytics/window.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import { newScanId } from '#domain/scans/scan-id.js';
import type { ScanEvent } from '#domain/scans/types.js';
import { createUserAgentParser, type UserAgentFacts } from '#domain/scans/user-agent.js';
import { randomUnit } from '../test/support/seeded-random.js';
import { BOT_AGENTS, COUNTRIES, HUMAN_AGENTS } from './analytics-data.js';
import { benchDatabaseUrl, freshDatabase, median, printTable, ROOT, startBenchApi, stopProcess } from './support.js';

/**
 * What the seed is made of. With the source hash, this is the kept database's identity: a change
 * to any of it seeds anew.
 */
const SEED = {
  scans: Number(process.env.BENCH_ANALYTICS_SCANS ?? 5_000_000),
  links: 1000,
  days: 90,
  botShare: 0.05,
  unknownGeoShare: 0.02,
  /** Distinct people scanning, skewed: some come back often. */
  visitors: 1_000_000,
  /** Bump when the generator below changes what it seeds. */
  generator: 1,
};
const BOT_IDS = 2000;
const RUNS = Number(process.env.BENCH_ANALYTICS_RUNS ?? 11);
const MAX_SEED_AGE_HOURS = Number(process.env.BENCH_ANALYTICS_MAX_SEED_AGE_HOURS ?? 24);
/** Parallel ingestion calls, each of SCANS_PER_CALL scans in batches of BATCH (the worker's group commit). */
const CONNECTIONS = 4;
const SCANS_PER_CALL = 10_000;
const BATCH = 1000;
/** Popularity rank (from 0) of the middling link measured beside the hottest. */
const MID_RANK = 99;
const TARGET_MS = 100;
const DATABASE = 'analytics';
const HOUR_MS = 3_600_000;

// ---------------------------------------------------------------------------------------------
// The seed

/** A uniform number in [0, 1) that is a fixed function of `n`: a visitor's traits, the same at every scan. */
function hashUnit(n: number): number {
  let x = n >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return ((x ^ (x >>> 16)) >>> 0) / 4_294_967_296;
}

/** Picks among weighted values with a uniform number in [0, 1). */
class Weighted<T> {
  private readonly values: T[];
  private readonly upTo: number[] = [];

  constructor(entries: Array<[T, number]>) {
    this.values = entries.map(([value]) => value);
    const total = entries.reduce((sum, [, w]) => sum + w, 0);
    let sum = 0;
    for (const [, w] of entries) this.upTo.push((sum += w) / total);
  }

  pick(u: number): T {
    let lo = 0;
    let hi = this.upTo.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.upTo[mid]! > u) hi = mid;
      else lo = mid + 1;
    }
    return this.values[lo]!;
  }
}

type Place = Pick<ScanEvent, 'countryName' | 'region' | 'city'>;

/** Every city with weight country × 1/n (the n-th city of its country), and scans the geo database cannot place. */
function places(): Weighted<Place> {
  const entries: Array<[Place, number]> = [];
  for (const [countryName, weight, list] of COUNTRIES) {
    const cities = list.split('; ').map((entry) => entry.split('/') as [string, string]);
    const harmonic = cities.reduce((sum, _, i) => sum + 1 / (i + 1), 0);
    cities.forEach(([region, city], i) => entries.push([{ countryName, region, city }, (weight / harmonic) * (1 / (i + 1))]));
  }
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  entries.push([{ countryName: null, region: null, city: null }, (total * SEED.unknownGeoShare) / (1 - SEED.unknownGeoShare)]);
  return new Weighted(entries);
}

/** The agents as the redirect would describe them; the benchmark's idea of who is a bot must be isbot's. */
function agents(list: Array<[string, number]>, bots: boolean): Weighted<UserAgentFacts> {
  const parse = createUserAgentParser(list.length);
  return new Weighted(
    list.map(([agent, weight]) => {
      const facts = parse(agent);
      if (facts.isBot !== bots) throw new Error(`the parser says isBot=${facts.isBot} of ${agent}`);
      return [facts, weight];
    }),
  );
}

/** A visitor's key: 22 characters of base64url, 132 bits of a hash of who they are. */
const visitorKeyOf = (visitor: number) => createHash('sha256').update(`bench-visitor-${visitor}`).digest('base64url').slice(0, 22);

/**
 * Scans per hour of the 90 days: growing from 0.6 to 1.4 over the period, busier in the
 * European and American afternoon (by UTC hour) and at the weekend.
 */
const BY_UTC_HOUR = [
  0.35, 0.3, 0.3, 0.3, 0.35, 0.45, 0.6, 0.8, 1, 1.15, 1.25, 1.35, 1.45, 1.5, 1.5, 1.5, 1.55, 1.6, 1.65, 1.6, 1.4, 1.1, 0.8, 0.5,
];
const BY_UTC_WEEKDAY = [1.1, 0.85, 0.9, 0.9, 0.95, 1.15, 1.25]; // Sunday first

function hourlyCounts(start: number, scans: number): number[] {
  const hours = SEED.days * 24;
  const weights = Array.from({ length: hours }, (_, h) => {
    const at = new Date(start + h * HOUR_MS);
    return (0.6 + (0.8 * Math.floor(h / 24)) / (SEED.days - 1)) * BY_UTC_HOUR[at.getUTCHours()]! * BY_UTC_WEEKDAY[at.getUTCDay()]!;
  });
  const total = weights.reduce((a, b) => a + b, 0);
  const counts: number[] = [];
  let cumulative = 0;
  let given = 0;
  for (const w of weights) {
    cumulative += w;
    const upTo = Math.round((scans * cumulative) / total);
    counts.push(upTo - given);
    given = upTo;
  }
  return counts;
}

/**
 * The scans in time order (so their UUIDv7 ids are too, as the redirect makes them), in chunks
 * of SCANS_PER_CALL. `linksByRank`: the account's links, most popular first (weight 1/(rank+1)).
 */
function* seedScans(accountId: string, linksByRank: string[], start: number): Generator<ScanEvent[]> {
  const random = randomUnit(20261123);
  const link = new Weighted(linksByRank.map((id, rank): [string, number] => [id, 1 / (rank + 1)]));
  const humans = agents(HUMAN_AGENTS, false);
  const bots = agents(BOT_AGENTS, true);
  const where = places();
  let chunk: ScanEvent[] = [];
  for (const [hour, count] of hourlyCounts(start, SEED.scans).entries()) {
    for (let i = 0; i < count; i++) {
      const at = Math.floor(start + (hour + (i + random()) / count) * HOUR_MS);
      let visitor: number;
      let agent: UserAgentFacts;
      let place: Place;
      if (random() < SEED.botShare) {
        visitor = SEED.visitors + Math.floor(random() * BOT_IDS);
        agent = bots.pick(random());
        place = where.pick(random());
      } else {
        visitor = Math.floor(SEED.visitors * random() ** 2);
        agent = humans.pick(hashUnit(visitor * 3 + 1));
        place = where.pick(hashUnit(visitor * 3 + 2));
      }
      chunk.push({
        id: newScanId(at),
        linkId: link.pick(random()),
        accountId,
        at,
        ...agent,
        ...place,
        // Unique visitors: one key per simulated visitor, as the redirect would make it.
        visitorKey: visitorKeyOf(visitor),
      });
      if (chunk.length === SCANS_PER_CALL) {
        yield chunk;
        chunk = [];
      }
    }
  }
  if (chunk.length) yield chunk;
}

export interface Seed {
  accountId: string;
  seededAt: Date;
  seedSeconds: number;
  vacuumSeconds: number;
  hotSlug: string;
  midSlug: string;
}

const PARAMETERS = JSON.stringify(SEED);

/** What seeded rows depend on besides the parameters: the ingestion and rollup code, the migrations and the seed's data. */
async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const migrations = async (dir: string) =>
    (await readdir(join(ROOT, dir)))
      .filter((f) => /\.(sql|json)$/.test(f))
      .sort()
      .map((f) => `${dir}/${f}`);
  const files = [
    'domain/scans/ingest.ts',
    'domain/scans/batch.ts',
    'domain/scans/types.ts',
    'domain/analytics/rollups.ts',
    'bench/analytics-data.ts',
    ...(await migrations('db/migrations')),
    ...(await migrations('db/migrations/meta')),
  ];
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(await readFile(join(ROOT, file)))
      .update('\0');
  return hash.digest('hex');
}

/** The seed the kept database holds, if it is the one this run would make and recent enough. */
async function keptSeed(url: string, source: string): Promise<Seed | null> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch {
    return null; // no database yet
  }
  try {
    const { rows } = await client.query(
      `select account_id, seeded_at, seed_seconds, vacuum_seconds, hot_slug, mid_slug from bench_seed
       where parameters = $1 and source_hash = $2 and seeded_at > now() - make_interval(hours => $3)`,
      [PARAMETERS, source, MAX_SEED_AGE_HOURS],
    );
    const row = rows[0];
    return row
      ? {
          accountId: row.account_id,
          seededAt: row.seeded_at,
          seedSeconds: row.seed_seconds,
          vacuumSeconds: row.vacuum_seconds,
          hotSlug: row.hot_slug,
          midSlug: row.mid_slug,
        }
      : null;
  } catch {
    return null; // no marker: an unfinished or foreign database
  } finally {
    await client.end();
  }
}

async function seed(source: string): Promise<Seed> {
  const url = await freshDatabase(DATABASE);
  const database = createDatabase(url, CONNECTIONS + 1);
  const { pool } = database;
  try {
    const account = await createAccount(database.db, { name: 'bench-analytics', plan: 'business' });
    await pool.query(
      `insert into links (account_id, slug, name, type, meta_data, qr_options)
       select $1, 'a' || substr(md5('analytics-' || g), 1, 11),
         (array['Table','Menu','Flyer','Poster','Coupon','Event'])[1 + g % 6] || ' ' || g,
         'website', jsonb_build_object('url', 'https://example.com/' || g), '{}'
       from generate_series(1, ${SEED.links}) g`,
      [account.id],
    );
    const { rows: links } = await pool.query<{ id: string; slug: string }>(
      'select id, slug from links where account_id = $1 order by slug',
      [account.id],
    );
    // Popularity is not creation order: a seeded shuffle.
    const shuffle = randomUnit(7);
    for (let i = links.length - 1; i > 0; i--) {
      const j = Math.floor(shuffle() * (i + 1));
      [links[i], links[j]] = [links[j]!, links[i]!];
    }
    const seededAt = new Date();
    const start = seededAt.getTime() - SEED.days * 24 * HOUR_MS;
    const chunks = seedScans(
      account.id,
      links.map((l) => l.id),
      start,
    );
    let written = 0;
    let reported = 0;
    const began = performance.now();
    // Several calls at once, each taking the next chunk: the generator runs between their round trips.
    const writer = async () => {
      for (let next = chunks.next(); !next.done; next = chunks.next()) {
        const batches = [];
        for (let i = 0; i < next.value.length; i += BATCH) batches.push(encodeScanBatch(next.value.slice(i, i + BATCH)));
        const result = await ingestScanBatches(pool, batches);
        if (result.inserted !== next.value.length || result.malformed)
          throw new Error(`ingestion wrote ${result.inserted} of ${next.value.length} scans (${result.malformed} malformed)`);
        written += result.inserted;
        if (written - reported >= SEED.scans / 20 || written === SEED.scans) {
          reported = written;
          const seconds = (performance.now() - began) / 1000;
          process.stderr.write(
            `analytics seed: ${written.toLocaleString('en')} / ${SEED.scans.toLocaleString('en')} scans, ${seconds.toFixed(0)} s, ${Math.round(written / seconds).toLocaleString('en')} scans/s\n`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, writer));
    const seedSeconds = (performance.now() - began) / 1000;
    // Steady state, as autovacuum keeps it: visibility map set (index-only scans), statistics fresh.
    const vacuumStart = performance.now();
    await pool.query('vacuum analyze');
    const vacuumSeconds = (performance.now() - vacuumStart) / 1000;
    const result: Seed = {
      accountId: account.id,
      seededAt,
      seedSeconds,
      vacuumSeconds,
      hotSlug: links[0]!.slug,
      midSlug: links[MID_RANK]!.slug,
    };
    await pool.query(
      `create table bench_seed (parameters text, source_hash text, account_id uuid, seeded_at timestamptz, seed_seconds float8, vacuum_seconds float8, hot_slug text, mid_slug text)`,
    );
    await pool.query('insert into bench_seed values ($1, $2, $3, $4, $5, $6, $7, $8)', [
      PARAMETERS,
      source,
      account.id,
      seededAt,
      seedSeconds,
      vacuumSeconds,
      result.hotSlug,
      result.midSlug,
    ]);
    return result;
  } finally {
    await database.close();
  }
}

// ---------------------------------------------------------------------------------------------
// The measurement

type Endpoint = 'general' | 'activity' | 'ops' | 'country' | 'region' | 'browser' | 'qr-code' | 'time';
const RANKED_COLUMNS: Partial<Record<Endpoint, string>> = {
  ops: 'os_name',
  country: 'country_name',
  region: 'city',
  browser: 'browser_name',
};
const ACCOUNT_ENDPOINTS: Endpoint[] = ['general', 'activity', 'ops', 'country', 'region', 'browser', 'qr-code', 'time'];
const LINK_ENDPOINTS = ACCOUNT_ENDPOINTS.filter((e) => e !== 'qr-code');
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
/** The endpoints' default `limit`. */
const LIMIT = 20;

interface Scope {
  label: string;
  accountId: string;
  link?: { id: string; slug: string };
}

interface Case {
  endpoint: Endpoint;
  scope: Scope;
  duration: Duration;
  timezone: string;
}

/**
 * An answer in comparable form: every count it shows by key (a missing key is a zero), and for the
 * ranked endpoints the rows in order as `rank:name=scans@percentage`.
 */
interface Answer {
  counts: Map<string, number>;
  ranked?: string[];
}

type RankedRow = { name: string; scans: number; total: number };

/** Ranked rows as an answer (the first LIMIT in order); the percentage from the total, two decimals rounded half up. */
function rankedAnswer(rows: RankedRow[]): Answer {
  return {
    counts: new Map(rows.map((r) => [r.name, r.scans])),
    ranked: rows
      .slice(0, LIMIT)
      .map((r, i) => `${i + 1}:${r.name}=${r.scans}@${(Math.round((r.scans * 10_000) / r.total) / 100).toFixed(2)}`),
  };
}

/**
 * The naive answer: count(*) ... group by over the raw scans of the scope and window, humans only,
 * as the raw-scan implementation asks it. `limit`: the ranked endpoints' rows (the api's
 * default), or null for all of them (what the check needs while the window moves).
 */
async function naive(pool: pg.Pool, c: Case, window: AnalyticsWindow, limit: number | null = LIMIT): Promise<Answer> {
  const values: unknown[] = [c.scope.accountId, window.from, window.to];
  const param = (value: unknown) => `$${values.push(value)}`;
  let where = 's.account_id = $1 and s.created_at >= $2 and s.created_at < $3 and not s.is_bot';
  if (c.scope.link) where += ` and s.link_id = ${param(c.scope.link.id)}`;
  const rows = async <T extends pg.QueryResultRow>(text: string) => (await pool.query<T>(text, values)).rows;
  const limited = limit === null ? '' : ` limit ${limit}`;
  switch (c.endpoint) {
    case 'general': {
      const [scans] = await rows<{ n: number }>(`select count(*)::int as n from scans s where ${where}`);
      const links = c.scope.link
        ? 1
        : (await pool.query<{ n: number }>('select count(*)::int as n from links where account_id = $1', [c.scope.accountId])).rows[0]!.n;
      return {
        counts: new Map([
          ['links', links],
          ['scans', scans!.n],
        ]),
      };
    }
    case 'activity': {
      const days = await rows<{ day: string; n: number }>(
        `select to_char(s.created_at at time zone ${param(window.timezone)}, 'YYYY-MM-DD') as day, count(*)::int as n from scans s where ${where} group by 1`,
      );
      const total = days.reduce((sum, d) => sum + d.n, 0);
      return { counts: new Map([...days.map((d): [string, number] => [d.day, d.n]), ['years', total], ['months', total]]) };
    }
    case 'time': {
      const cells = await rows<{ dow: number; hour: number; n: number }>(
        `select extract(isodow from t.local)::int as dow, extract(hour from t.local)::int as hour, count(*)::int as n
         from (select s.created_at at time zone ${param(window.timezone)} as local from scans s where ${where}) t group by 1, 2`,
      );
      return { counts: new Map([...cells.map((r): [string, number] => [`${WEEKDAYS[r.dow - 1]}-${r.hour}`, r.n]), ['keys', 168]]) };
    }
    case 'qr-code':
      return rankedAnswer(
        await rows<RankedRow>(
          `select l.name, count(*)::int as scans, (sum(count(*)) over ())::float8 as total
           from scans s join links l on l.id = s.link_id
           where ${where} group by l.id, l.name, l.slug order by 2 desc, l.name collate "C", l.slug collate "C"${limited}`,
        ),
      );
    default:
      return rankedAnswer(
        await rows<RankedRow>(
          `select coalesce(nullif(s.${RANKED_COLUMNS[c.endpoint]}, ''), 'Unknown') collate "C" as name, count(*)::int as scans, (sum(count(*)) over ())::float8 as total
           from scans s where ${where} group by 1 order by 2 desc, 1${limited}`,
        ),
      );
  }
}

function apiUrl(origin: string, c: Case): string {
  const path = c.scope.link ? `links/${c.scope.link.slug}/analytics` : 'analytics';
  return `${origin}/api/v1/${path}/${c.endpoint}?duration=${c.duration}&timezone=${encodeURIComponent(c.timezone)}`;
}

/** The api's answer in the naive one's form. */
function apiAnswer(c: Case, body: string): Answer {
  const { data } = JSON.parse(body);
  const sum = (ys: number[]) => ys.reduce((a, b) => a + b, 0);
  switch (c.endpoint) {
    case 'general':
      return {
        counts: new Map([
          ['links', data.numberOfLinks],
          ['scans', data.numberOfScans],
        ]),
      };
    case 'activity':
      return {
        counts: new Map([
          ...(data.Day.x as string[]).map((day, i): [string, number] => [day, data.Day.y[i]]),
          ['years', sum(data.Year.y)],
          ['months', sum(data.Month.y)],
        ]),
      };
    case 'time':
      return { counts: new Map([...Object.entries(data as Record<string, number>), ['keys', Object.keys(data).length]]) };
    default: {
      const rows = data as Array<{ number: number; name: string; scans: number; percentage: string }>;
      return {
        counts: new Map(rows.map((r) => [r.name, r.scans])),
        ranked: rows.map((r) => `${r.number}:${r.name}=${r.scans}@${r.percentage}`),
      };
    }
  }
}

const sameCounts = (a: Answer, b: Answer) => a.counts.size === b.counts.size && [...a.counts].every(([key, n]) => b.counts.get(key) === n);

/**
 * How the api's answer differs from the naive ones at the request's start (`before`) and end
 * (`after`): the same when the window's start passed no scan meanwhile, else each count must lie
 * between them (scans only leave a window while it moves). Ranked rows are compared whole (order,
 * percentages) when exact; while the window moved, each row's count is bounded, and no name
 * surely above the last row may be missing.
 */
function differences(api: Answer, before: Answer, after: Answer): string[] {
  const problems: string[] = [];
  const exact = sameCounts(before, after);
  if (api.ranked && exact) {
    const expected = before.ranked!;
    for (const [i, row] of api.ranked.entries())
      if (row !== expected[i]) problems.push(`row ${i + 1}: api ${row}, naive ${expected[i] ?? 'none'}`);
    for (const row of expected.slice(api.ranked.length)) problems.push(`missing row: naive ${row}`);
    return problems;
  }
  const keys = api.ranked ? [...api.counts.keys()] : [...new Set([...api.counts.keys(), ...before.counts.keys(), ...after.counts.keys()])];
  for (const key of keys) {
    const [got, low, high] = [api.counts.get(key) ?? 0, after.counts.get(key) ?? 0, before.counts.get(key) ?? 0];
    if (got < low || got > high) problems.push(`${key}: api ${got}, naive ${low === high ? low : `${low}..${high}`}`);
  }
  if (api.ranked) {
    const last = api.ranked.length < LIMIT ? 0 : Math.min(...api.counts.values());
    for (const [name, n] of after.counts) if (!api.counts.has(name) && n > last) problems.push(`missing row: naive ${name}=${n}`);
  }
  return problems;
}

async function apiCall(url: string, headers: Record<string, string>): Promise<{ ms: number; body: string }> {
  const start = performance.now();
  const res = await fetch(url, { headers });
  const body = await res.text();
  const ms = performance.now() - start;
  if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body}`);
  return { ms, body };
}

/** The api's answer against the naive one (see `differences`); the second naive query only when the window's start passed a scan. */
async function check(pool: pg.Pool, c: Case, url: string, headers: Record<string, string>): Promise<string[]> {
  const startWindow = analyticsWindow(c, new Date());
  const { body } = await apiCall(url, headers);
  const endWindow = analyticsWindow(c, new Date());
  const before = await naive(pool, c, startWindow, null);
  let after = before;
  if (endWindow.from.getTime() !== startWindow.from.getTime()) {
    const values: unknown[] = [c.scope.accountId, startWindow.from, endWindow.from];
    const link = c.scope.link ? ` and s.link_id = $${values.push(c.scope.link.id)}` : '';
    const { rowCount } = await pool.query(
      `select 1 from scans s where s.account_id = $1 and s.created_at >= $2 and s.created_at < $3${link} limit 1`,
      values,
    );
    if (rowCount) after = await naive(pool, c, endWindow, null);
  }
  const comparable = (answer: Answer) =>
    wholeHourZone(c.timezone) || !(c.endpoint === 'activity' || c.endpoint === 'time') ? answer : totalOf(c, answer);
  return differences(comparable(apiAnswer(c, body)), comparable(before), comparable(after));
}

/** Whether the zone's offset is whole hours now (so day and hour buckets are exact from hour rollups). */
function wholeHourZone(timezone: string): boolean {
  const offset = new Intl.DateTimeFormat('en', { timeZone: timezone, timeZoneName: 'longOffset' })
    .formatToParts(new Date())
    .find((p) => p.type === 'timeZoneName')!.value;
  return !/:(?!00)\d\d$/.test(offset);
}

/**
 * activity and time in a zone like Asia/Kolkata place each hour rollup at the local time its UTC hour
 * starts (docs/decisions/0190-scans-per-local-hour.md): their buckets may differ from a per-scan
 * count by up to 45 minutes, their total may not. So only the total is compared there.
 */
function totalOf(c: Case, answer: Answer): Answer {
  const total =
    c.endpoint === 'activity'
      ? (answer.counts.get('years') ?? 0)
      : [...answer.counts].filter(([k]) => k !== 'keys').reduce((a, [, n]) => a + n, 0);
  return { counts: new Map([['total', total]]) };
}

const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * 0.95) - 1)]!;

async function measure(url: string, seed: Seed): Promise<string> {
  const database = createDatabase(url, 2);
  const { pool } = database;
  const { key, id: keyId } = await createApiKey(database.db, { accountId: seed.accountId, scopes: ['all'], name: 'bench-analytics' });
  const api = await startBenchApi(url);
  const headers = { authorization: `Basic ${key}` };
  try {
    const linkScope = async (slug: string, what: string): Promise<Scope> => {
      const { rows } = await pool.query<{ id: string; n: number }>(
        'select id, scan_count::int as n from links join link_counters on link_id = id where slug = $1 and links.account_id = $2',
        [slug, seed.accountId],
      );
      return {
        label: `link ${slug}, ${what} (${rows[0]!.n.toLocaleString('en')} scans)`,
        accountId: seed.accountId,
        link: { id: rows[0]!.id, slug },
      };
    };
    const account: Scope = { label: `account (${SEED.scans.toLocaleString('en')} scans, ${SEED.links} links)`, accountId: seed.accountId };
    const scopes: Array<[Scope, Endpoint[]]> = [
      [account, ACCOUNT_ENDPOINTS],
      [await linkScope(seed.hotSlug, 'hottest'), LINK_ENDPOINTS],
      [await linkScope(seed.midSlug, `popularity rank ${MID_RANK + 1}`), LINK_ENDPOINTS],
    ];
    const cases: Case[] = [];
    for (const [scope, endpoints] of scopes) {
      const windows: Array<[Duration, string]> = [
        ['48_hours', 'UTC'],
        ['30_days', 'UTC'],
        ['1_year', 'UTC'],
      ];
      // Local days and hours: a whole-hour offset with summer time, and a half-hour one.
      if (!scope.link) windows.push(['30_days', 'Europe/Berlin'], ['30_days', 'Asia/Kolkata']);
      for (const endpoint of endpoints) for (const [duration, timezone] of windows) cases.push({ endpoint, scope, duration, timezone });
    }
    const rows: Array<Array<string | number>> = [];
    const failures: string[] = [];
    for (const c of cases) {
      const url = apiUrl(api.origin, c);
      // The check is also the warm-up of both sides.
      const problems = await check(pool, c, url, headers);
      if (problems.length) failures.push(`${c.endpoint} ${c.scope.label} ${c.duration} ${c.timezone}: ${problems.slice(0, 5).join('; ')}`);
      const ours: number[] = [];
      const raw: number[] = [];
      // Interleaved, so a change in the machine's load touches both sides alike.
      for (let i = 0; i < RUNS; i++) {
        ours.push((await apiCall(url, headers)).ms);
        const start = performance.now();
        await naive(pool, c, analyticsWindow(c, new Date()));
        raw.push(performance.now() - start);
      }
      const row = [
        c.endpoint,
        c.scope.label,
        c.timezone === 'UTC' ? c.duration : `${c.duration} ${c.timezone}`,
        median(ours).toFixed(1),
        p95(ours).toFixed(1),
        median(raw).toFixed(1),
        (median(raw) / median(ours)).toFixed(2),
        median(ours) < TARGET_MS ? 'yes' : 'NO',
        problems.length,
      ];
      process.stderr.write(`analytics: ${row.join(' | ')}\n`);
      rows.push(row);
    }
    const table = printTable(
      `analytics: api over HTTP (a child process), one request at a time, median and p95 of ${RUNS} after a warm-up; naive = the raw-scan query sent straight to Postgres`,
      [
        'endpoint',
        'scope',
        'duration',
        'qrlinks median ms',
        'p95',
        'naive raw median ms',
        'ratio (naive ÷ qrlinks)',
        `< ${TARGET_MS} ms`,
        'mismatches',
      ],
      rows,
    );
    if (failures.length) throw new Error(`analytics answers differ from the naive query's:\n${failures.join('\n')}`);
    return table;
  } finally {
    await stopProcess(api.child);
    await database.db.delete(apiKeys).where(eq(apiKeys.id, keyId));
    await database.close();
  }
}

/** The scans table and every table that looks like it holds scans in another form (aggregates). */
async function tableSizes(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; bytes: number; rows: number }>(
      `select c.relname as name, pg_total_relation_size(c.oid)::float8 as bytes, greatest(c.reltuples, 0)::float8 as rows
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'm', 'p')
         and (c.relname = 'scans' or c.relname like 'scan\\_%' or c.relname like '%rollup%' or c.relname like '%aggregate%')
       order by 1`,
    );
    return printTable(
      'analytics: table sizes (with indexes and TOAST)',
      ['table', 'MB', 'rows (estimate)'],
      rows.map((r) => [r.name, (r.bytes / 1e6).toFixed(1), Math.round(r.rows).toLocaleString('en')]),
    );
  } finally {
    await client.end();
  }
}

/**
 * The seeded account's database: the kept one when it still fits (see the top of this file),
 * else seeded now. Other benchmarks that need an account with millions of scans use it too.
 */
export async function analyticsSeed(): Promise<{ url: string; seeded: Seed; kept: boolean }> {
  const url = benchDatabaseUrl(DATABASE);
  const source = await sourceHash();
  const kept = await keptSeed(url, source);
  return { url, seeded: kept ?? (await seed(source)), kept: kept !== null };
}

export async function benchAnalytics(): Promise<string> {
  const { url, seeded, kept } = await analyticsSeed();
  const ageHours = (Date.now() - seeded.seededAt.getTime()) / HOUR_MS;
  const seeding = printTable(
    `analytics: seed of ${SEED.scans.toLocaleString('en')} scans over ${SEED.links} links in ${SEED.days} days, ~${SEED.botShare * 100}% bots, through ingestScanBatches (${CONNECTIONS} calls at a time, ${SCANS_PER_CALL.toLocaleString('en')} scans each in batches of ${BATCH})`,
    ['seeded', 'ingestion s', 'scans/s', 'vacuum analyze s'],
    [
      [
        kept ? `reused, seeded ${seeded.seededAt.toISOString()} (${ageHours.toFixed(1)} h ago)` : `now, ${seeded.seededAt.toISOString()}`,
        seeded.seedSeconds.toFixed(0),
        Math.round(SEED.scans / seeded.seedSeconds).toLocaleString('en'),
        seeded.vacuumSeconds.toFixed(0),
      ],
    ],
  );
  const sizes = await tableSizes(url);
  return `${seeding}\n\n${sizes}\n\n${await measure(url, seeded)}`;
}
