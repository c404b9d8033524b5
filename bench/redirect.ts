/**
 * The scan path under load: a website link resolved by (a) the redirect process, with every scan
 * recorded and ingested by a worker, (b) a bare Fastify 302 from memory (baseline), and (c) the
 * redirect again while `POST /bulk-generate` makes 1200-link batches, one after another, with their
 * QR ZIPs; (m) a realistic mix of links, clients and user agents on (a)'s process, and (as) (a)'s
 * link sent the way (m) is; (ad) (a)'s slug on a brand domain, scanned by its Host header. The
 * redirect runs compiled (dist/, as `npm start` runs it).
 * wrk (Debian package `wrk`) is the load generator when installed — it costs far less CPU
 * than a Node.js one on a 2-core machine; autocannon otherwise.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { count, countDistinct } from 'drizzle-orm';
import { createDatabase } from '#infra/database.js';
import type { Database } from '#domain/database.js';
import { domains, links, scans } from '#domain/schema.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { createRedis } from '#platform/redis/client.js';
import { createQueues, closeQueues } from '#infra/jobs/queues.js';
import {
  buildDist,
  freePort,
  freshDatabase,
  fromAutocannon,
  load,
  median,
  medianOfRuns,
  peakRssWhile,
  commandCpuSeconds,
  processCpuSeconds,
  printTable,
  procStatusMb,
  sendOverConnections,
  startProcess,
  startCompiledServer,
  startServer,
  stopProcess,
  type LoadResult,
} from './support.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = 'qrlinks-bench';
const CONNECTIONS = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Rounds; each starts its own processes, so more of them than the other benches' runs. */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BATCH_LINKS = 1200;
const DESTINATION = 'https://example.com/landing';
/** A brand domain's name, sent as the Host header of (ad)'s scans. */
const BRAND_HOST = 'go.bench-brand.example';
const USER_AGENT =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

interface Measured extends LoadResult {
  /** Requests the load generator completed. */
  completed: number;
}

/**
 * CPU time per completed request, µs: the redirect process's, Postgres's (every postgres process,
 * the worker's writes), the worker process's and Redis's (the queue between them).
 */
interface CpuPerRequest {
  redirect: number;
  postgres: number;
  worker: number;
  redis: number;
}

const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined;

/** The realistic mix: links of several types, clients of many countries, browsers, bots and link previewers. */
const MIX_LINKS = 10_000;
/** Requests in the list wrk cycles through (each thread from its own place). */
const MIX_REQUESTS = 50_000;
const MIX_ADDRESSES = 5_000;
/**
 * Public ranges held by access networks of one country each (RIR allocations), so the geo lookup
 * answers with many countries: the address block and how many of its low bits vary.
 */
const MIX_RANGES: Array<[country: string, base: string, bits: number]> = [
  ['US', '73.0.0.0', 22], // Comcast
  ['US', '8.8.8.0', 8],
  ['GB', '81.2.69.0', 8],
  ['GB', '86.128.0.0', 18], // BT
  ['DE', '91.0.0.0', 20], // Deutsche Telekom
  ['FR', '90.0.0.0', 20], // Orange
  ['NL', '84.104.0.0', 16], // Ziggo
  ['ES', '83.32.0.0', 18], // Telefónica
  ['IT', '79.0.0.0', 18], // Telecom Italia
  ['PL', '83.0.0.0', 18], // Orange Polska
  ['SE', '81.224.0.0', 16], // Telia
  ['RU', '95.24.0.0', 18], // Beeline
  ['TR', '78.160.0.0', 18], // Türk Telekom
  ['JP', '126.0.0.0', 22], // SoftBank
  ['KR', '121.128.0.0', 18], // KT
  ['CN', '36.96.0.0', 20], // China Telecom
  ['IN', '117.192.0.0', 20], // BSNL
  ['ID', '36.64.0.0', 18], // Telkom Indonesia
  ['AU', '1.120.0.0', 16], // Telstra
  ['BR', '177.0.0.0', 20],
  ['MX', '187.128.0.0', 18], // Telmex
  ['AR', '181.0.0.0', 16],
  ['ZA', '41.0.0.0', 16],
  ['NG', '105.112.0.0', 16], // Airtel Nigeria
  ['EG', '41.32.0.0', 16], // TE Data
  ['CA', '24.48.0.0', 16], // Vidéotron
];
/** 50 user agents: phones and desktops as they scan, and the bots and link previewers that fetch shared links. */
const MIX_USER_AGENTS = [
  USER_AGENT,
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 337.0.3.23.54 (iPhone14,5; iOS 17_5; en_US)',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/21F79 [FBAN/FBIOS;FBAV/468.0.0.47.106;FBBV/611239867]',
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.6422.165 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.71 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 12; M2101K6G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.179 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; 2201117TY) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.6312.118 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 11; Redmi Note 9 Pro) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; CPH2581) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; moto g(84) 5G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 14; SM-G991B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/468.1.0.56.78;]',
  'Mozilla/5.0 (Linux; Android 13; SM-A146B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.71 Mobile Safari/537.36 Instagram 337.0.0.35.102 Android',
  'Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0',
  'Mozilla/5.0 (Linux; U; Android 12; en-US; V2111 Build/SP1A.210812.003) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 UCBrowser/13.4.0.1306 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 10; HUAWEI P30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.5735.196 Mobile Safari/537.36 HuaweiBrowser/14.0.2.311',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/111.0.0.0',
  'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 6.1; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Linux; Android 12; SM-T870) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Line/14.9.0',
  'Mozilla/5.0 (Linux; Android 13; V2202) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 MicroMessenger/8.0.49',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003130) NetType/WIFI Language/zh_CN',
  'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  'Twitterbot/1.0',
  'WhatsApp/2.23.20.0 A',
  'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
  'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  'TelegramBot (like TwitterBot)',
  'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  'curl/8.5.0',
  'python-requests/2.32.3',
  'Wget/1.21.4',
];

interface MixLinks {
  /** One line per request: path, client address, user agent, Accept-Encoding (bench/redirect-mix.lua). */
  file: string;
  byType: Record<string, number>;
  slugs: string[];
}

/** What each client sends as Accept-Encoding: browsers and crawlers take brotli; the command-line tools do not ask. */
function acceptEncodingOf(userAgent: string): string {
  if (/^(curl|Wget)\//.test(userAgent)) return '';
  if (userAgent.startsWith('python-requests/')) return 'gzip, deflate';
  return 'gzip, deflate, br';
}

/**
 * The mix's links in the database (85% website, 10% vcard contact pages, 5% landing pages) and the
 * requests wrk sends: links drawn uniformly (every one of them scanned, none kept warm by
 * popularity), addresses from MIX_RANGES, user agents from MIX_USER_AGENTS. Seeded: the same mix every run.
 */
async function makeMix(db: Database, accountId: string, dir: string): Promise<MixLinks> {
  let seed = 20_261_127;
  const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const byType: Record<string, number> = {};
  const rows = Array.from({ length: MIX_LINKS }, (_, i) => {
    const slug = `mix${i.toString(36)}`;
    const roll = i % 20;
    const [type, metaData]: [string, Record<string, unknown>] =
      roll === 0
        ? ['landing', { landingHTML: `<h1>Table ${i}</h1><p>Today's specials, our opening hours and how to find us.</p>` }]
        : roll <= 2
          ? [
              'vcard',
              { firstName: `Name${i}`, lastName: 'Example', email: `person${i}@example.com`, phone: '+1 555 0100', company: 'Example Ltd' },
            ]
          : ['website', { url: `${DESTINATION}?link=${i}` }];
    byType[type] = (byType[type] ?? 0) + 1;
    return { accountId, slug, name: `mix ${i}`, type, metaData, qrOptions: {} };
  });
  for (let i = 0; i < rows.length; i += 1000) await db.insert(links).values(rows.slice(i, i + 1000) as (typeof links.$inferInsert)[]);
  const addresses = Array.from({ length: MIX_ADDRESSES }, () => {
    const [, base, bits] = pick(MIX_RANGES);
    const start = base.split('.').reduce((n, part) => n * 256 + Number(part), 0);
    const n = start + Math.floor(random() * 2 ** bits);
    return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
  });
  const lines = Array.from({ length: MIX_REQUESTS }, () => {
    const userAgent = pick(MIX_USER_AGENTS);
    // Most requests are printed codes (with the source marker); a fifth are the link itself.
    const path = `/${pick(rows).slug}${random() < 0.8 ? '?q' : ''}`;
    return `${path}\t${pick(addresses)}\t${userAgent}\t${acceptEncodingOf(userAgent)}`;
  });
  const file = join(dir, 'redirect-mix.tsv');
  await writeFile(file, `${lines.join('\n')}\n`);
  return { file, byType, slugs: rows.map((row) => row.slug) };
}

/**
 * Every link of the mix scanned once, 16 at a time, as a redirect that has run for a while has
 * seen them: the mix then measures scans of links the process holds, not its first look-ups
 * (each a Postgres query), which a time-based warm-up covered only in part on a slow day.
 */
async function scanEachOnce(origin: string, slugs: readonly string[]): Promise<void> {
  const headers = { 'user-agent': USER_AGENT, 'x-forwarded-for': '73.0.0.1', 'accept-encoding': 'gzip, deflate, br' };
  await sendOverConnections(slugs, 16, (slug) => fetch(`${origin}${slug}`, { redirect: 'manual', headers }), [200, 302]);
}

/**
 * One load run: wrk -t2 -c64 with latency percentiles, or autocannon. With `mixFile`, the
 * requests of the realistic mix (each line a path, an X-Forwarded-For and a user agent) against
 * `url`'s origin; otherwise `url` with USER_AGENT.
 */
async function loadOnce(url: string, mixFile?: string, host?: string): Promise<Measured> {
  if (!HAS_WRK) {
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...(host ? { host } : {}) };
    const r = mixFile
      ? await loadMixWithAutocannon(url, mixFile)
      : await load({ url, connections: CONNECTIONS, seconds: SECONDS, headers });
    return { ...r, completed: Math.round(r.requestsPerSec * SECONDS), non2xx: 0 };
  }
  const out = await new Promise<string>((resolve, reject) => {
    const args = mixFile ? ['-s', MIX_SCRIPT, url] : ['-H', `User-Agent: ${USER_AGENT}`, ...(host ? ['-H', `Host: ${host}`] : []), url];
    const child = spawn('wrk', ['-t2', `-c${CONNECTIONS}`, `-d${SECONDS}s`, '--latency', ...args], {
      env: { ...process.env, MIX_FILE: mixFile ?? '' },
    });
    let text = '';
    child.stdout.on('data', (d) => (text += d));
    child.on('error', reject);
    child.on('exit', () => resolve(text));
  });
  const ms = (label: string) => {
    const m = out.match(new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s)`, 'm'));
    if (!m) throw new Error(`wrk output without ${label}:\n${out}`);
    return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
  };
  const completed = Number(out.match(/(\d+) requests in/)![1]);
  const errors = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const non2xx = Number(out.match(/Non-2xx or 3xx responses: (\d+)/)?.[1] ?? 0);
  return {
    requestsPerSec: Number(out.match(/Requests\/sec:\s+([\d.]+)/)![1]),
    p50: ms('50%'),
    p99: ms('99%'),
    non2xx,
    errors: errors ? errors.slice(1).reduce((s, n) => s + Number(n), 0) : 0,
    completed,
  };
}

const MIX_SCRIPT = fileURLToPath(new URL('./redirect-mix.lua', import.meta.url));

/** The mix without wrk: autocannon, each request set up from the next line of the file. */
async function loadMixWithAutocannon(url: string, mixFile: string): Promise<LoadResult> {
  const lines = (await readFile(mixFile, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => line.split('\t') as [string, string, string, string]);
  let at = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        setupRequest: (request) => {
          const [path, address, agent, encoding] = lines[at++ % lines.length]!;
          const headers = { ...request.headers, 'x-forwarded-for': address, 'user-agent': agent };
          return { ...request, path, headers: encoding ? { ...headers, 'accept-encoding': encoding } : headers };
        },
      },
    ],
  });
  return fromAutocannon(result);
}

/**
 * The database is made anew every run, but Redis keeps what earlier runs cached under the same
 * namespace: the mix's slugs are the same each run, and a cached copy would give scans the link
 * ids of a dropped database, which the worker rightly does not write (scans of deleted links).
 */
async function forgetEarlierRuns(): Promise<void> {
  const redis = createRedis(REDIS_URL);
  try {
    for await (const found of redis.scanStream({ match: `${PREFIX}:*`, count: 1000 }))
      if ((found as string[]).length) await redis.unlink(...(found as string[]));
  } finally {
    redis.disconnect();
  }
}

export async function benchRedirect(): Promise<string> {
  await buildDist();
  const DATABASE_URL = await freshDatabase('redirect');
  await forgetEarlierRuns();
  const database = createDatabase(DATABASE_URL, 2);
  const account = await createAccount(database.db, { name: 'bench-redirect', plan: 'pro' });
  const slug = `bench${Date.now().toString(36)}`;
  const [link] = await database.db
    .insert(links)
    .values({ accountId: account.id, slug, name: 'bench', type: 'website', metaData: { url: DESTINATION }, qrOptions: {} })
    .returning({ id: links.id });
  if (!link) throw new Error('bench link not made');
  // The same slug on another account's brand domain, one that serves (its checks are not this
  // bench's): (ad) scans it by Host, beside (a) on the default domain.
  const brandAccount = await createAccount(database.db, { name: 'bench-redirect-brand', plan: 'pro' });
  const [brand] = await database.db
    .insert(domains)
    .values({ accountId: brandAccount.id, hostname: BRAND_HOST, state: 'verified', token: 'bench' })
    .returning({ id: domains.id });
  await database.db.insert(links).values({
    accountId: brandAccount.id,
    domainId: brand!.id,
    slug,
    name: 'bench',
    type: 'website',
    metaData: { url: DESTINATION },
    qrOptions: {},
  });
  const scansRecorded = async () => (await database.db.select({ n: count() }).from(scans))[0]!.n;
  const mixDir = await mkdtemp(join(tmpdir(), 'qrlinks-bench-mix-'));
  const mix = await makeMix(database.db, account.id, mixDir);
  // The single link as the mix sends its requests (wrk's script, a client address in
  // X-Forwarded-For): what the mix is compared with, so the script's own cost is on both sides.
  const singleFile = join(mixDir, 'single.tsv');
  await writeFile(singleFile, `/${slug}?q\t73.0.0.1\t${USER_AGENT}\tgzip, deflate, br\n`);

  const env = { DATABASE_URL, REDIS_URL, REDIS_NAMESPACE: PREFIX, MIGRATE_ON_START: 'false', LOG_LEVEL: 'warn' };
  const worker = startProcess('workers/server.ts', env);
  /**
   * A new redirect and a new baseline process for every round. How fast one Node.js process runs
   * this load can depend on the process, not only on the machine: one start of the same server did
   * 25 µs of CPU per request and the next 38 (mostly V8's lost tick-object map, now prevented by
   * platform/http/tick-object-shape.ts). A round per start lets the median cover what is left of that.
   */
  async function startServers() {
    const redirectPort = await freePort();
    const basePort = await freePort();
    const unloggedPort = await freePort();
    const meteredPort = await freePort();
    // One at a time: on a loaded 2-core machine four Node.js processes starting together (two of
    // them reading the geo database) can each take longer than startServer waits.
    const redirect = await startCompiledServer(
      'redirect',
      // Behind a proxy, as in production: the mix's clients arrive in X-Forwarded-For.
      { ...env, REDIRECT_PORT: String(redirectPort), TRUSTED_PROXIES: '127.0.0.1' },
      `http://127.0.0.1:${redirectPort}/health`,
    );
    const unlogged = await startCompiledServer(
      'redirect',
      { ...env, REDIRECT_PORT: String(unloggedPort), SCAN_WRITE_AHEAD: 'false', TRUSTED_PROXIES: '127.0.0.1' },
      `http://127.0.0.1:${unloggedPort}/health`,
    );
    const baseline = await startServer(
      'bench/baselines/bare-fastify-redirect.ts',
      { PORT: String(basePort), BASELINE_SLUG: slug, BASELINE_URL: DESTINATION },
      `http://127.0.0.1:${basePort}/health`,
    );
    const metered = await startServer(
      'bench/baselines/bare-fastify-redirect.ts',
      { PORT: String(meteredPort), BASELINE_SLUG: slug, BASELINE_URL: DESTINATION, BASELINE_METRICS: '1' },
      `http://127.0.0.1:${meteredPort}/health`,
    );
    return {
      redirect,
      unlogged,
      baseline,
      metered,
      // A printed code's request: the short URL with its source marker (domain/links/source-marker.ts).
      meteredUrl: `http://127.0.0.1:${meteredPort}/${slug}?q`,
      ourUrl: `http://127.0.0.1:${redirectPort}/${slug}?q`,
      ourOrigin: `http://127.0.0.1:${redirectPort}/`,
      unloggedUrl: `http://127.0.0.1:${unloggedPort}/${slug}?q`,
      baseUrl: `http://127.0.0.1:${basePort}/${slug}?q`,
    };
  }
  let servers: Awaited<ReturnType<typeof startServers>> | null = null;
  const stopServers = async () => {
    if (servers)
      await Promise.all([
        stopProcess(servers.redirect),
        stopProcess(servers.unlogged),
        stopProcess(servers.baseline),
        stopProcess(servers.metered),
      ]);
    servers = null;
  };
  const redis = createRedis(REDIS_URL);
  const queues = createQueues(redis, PREFIX);
  let rendering = false;
  let batchNumber = 0;
  let batchesRendered = 0;

  // The api, for (c): bulk generation is asked for as a user asks for it.
  const apiPort = await freePort();
  const api = `http://127.0.0.1:${apiPort}`;
  const apiProcess = await startServer('api/server.ts', { ...env, PORT: String(apiPort), RATE_LIMIT_MAX: '100000000' }, `${api}/health`);
  const { key } = await createApiKey(database.db, { accountId: account.id, scopes: ['all'], expiresAt: null }, 100);
  const apiHeaders = { authorization: `Basic ${key}`, 'content-type': 'application/json' };

  /**
   * Keeps one 1200-link `POST /bulk-generate` in the service at all times while `rendering` is on:
   * its links inserted, then its codes rendered (PNG and SVG, new links, so never from a cache) into
   * its ZIP.
   */
  async function bulkContinuously() {
    while (rendering) {
      const b = batchNumber++;
      const data = Array.from({ length: BATCH_LINKS }, (_, i) => ({ name: `batch ${b} table ${i}`, url: `${DESTINATION}?b=${b}&i=${i}` }));
      const res = await fetch(`${api}/api/v1/bulk-generate`, {
        method: 'POST',
        headers: { ...apiHeaders, prefer: 'respond-async' },
        body: JSON.stringify({ type: 'website', data }),
      });
      if (res.status !== 202) throw new Error(`bulk-generate answered ${res.status}: ${await res.text()}`);
      const { jobId } = (await res.json()) as { jobId: string };
      for (;;) {
        const job = (await (await fetch(`${api}/api/v1/jobs/${jobId}`, { headers: apiHeaders })).json()) as {
          state: string;
          error?: string;
          result?: { qrZipUrl?: string };
        };
        if (job.state === 'failed') throw new Error(`bulk job failed: ${job.error}`);
        if (job.result?.qrZipUrl) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      batchesRendered++;
    }
  }

  /** Waits until the worker has written every queued scan; returns how long that took. */
  async function drained(): Promise<number> {
    const start = Date.now();
    for (;;) {
      const counts = await queues.scans.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
      if (Object.values(counts).every((n) => n === 0)) return Date.now() - start;
      if (Date.now() - start > 120_000) throw new Error(`scans queue not drained after 2 minutes: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  try {
    let recorded = 0;
    const base: Measured[] = [];
    const ours: Measured[] = [];
    const branded: Measured[] = [];
    const unlogged: Measured[] = [];
    const metered: Measured[] = [];
    const busy: Measured[] = [];
    const mixed: Measured[] = [];
    const scripted: Measured[] = [];
    const cpuSingle: CpuPerRequest[] = [];
    const cpuMix: CpuPerRequest[] = [];
    const drainMs: number[] = [];
    const rssIdle: number[] = [];
    const rssSingle: number[] = [];
    const rssMix: number[] = [];
    const remade: number[] = [];
    // Rounds of (b), (a), (c) back to back: this machine's speed drifts by tens of percent over a
    // minute, so each ratio compares runs made seconds apart, and the table gives their medians.
    for (let round = 0; round < RUNS; round++) {
      servers = await startServers();
      const { ourUrl, ourOrigin, unloggedUrl, baseUrl, meteredUrl } = servers;
      const redirectPid = servers.redirect.pid!;
      const check = await fetch(ourUrl, { redirect: 'manual', headers: { 'user-agent': USER_AGENT } });
      if (check.status !== 302 || check.headers.get('location') !== DESTINATION) throw new Error(`redirect answered ${check.status}`);
      rssIdle.push(await procStatusMb(redirectPid));
      // Warm up (JIT, caches, pools), then start every measured run from the same state: no scans
      // waiting for the worker (it runs at a lower priority and catches up when the load stops).
      await loadOnce(baseUrl);
      await loadOnce(meteredUrl);
      await loadOnce(ourUrl);
      await loadOnce(ourUrl, undefined, BRAND_HOST);
      await scanEachOnce(ourOrigin, mix.slugs);
      await loadOnce(ourOrigin, mix.file);
      await loadOnce(unloggedUrl);
      await drained();
      const recordedBefore = await scansRecorded();
      base.push(await loadOnce(baseUrl));
      // The baseline again with the redirect's request metrics: their cost per request, paired.
      metered.push(await loadOnce(meteredUrl));
      ours.push(await peakRssInto(redirectPid, rssSingle, loadOnce(ourUrl)));
      drainMs.push(await drained());
      branded.push(await loadOnce(ourUrl, undefined, BRAND_HOST));
      await drained();
      // The single link and then the realistic mix on the same process, both through the script.
      // Their CPU per request counts until the worker has written every scan of the run.
      const pids = { redirect: redirectPid, worker: worker.pid! };
      scripted.push(await withCpu(pids, cpuSingle, loadOnce(ourOrigin, singleFile), drained));
      const madeBefore = await pagesMade(ourOrigin);
      mixed.push(await withCpu(pids, cpuMix, peakRssInto(redirectPid, rssMix, loadOnce(ourOrigin, mix.file)), drained));
      // Every page link was scanned before the round: a page made now is one the cache let go of.
      const pageScans = (mixed.at(-1)!.completed * (MIX_LINKS - (mix.byType.website ?? 0))) / MIX_LINKS;
      remade.push(((await pagesMade(ourOrigin)) - madeBefore) / pageScans);
      // The same without the per-scan write-ahead (SCAN_WRITE_AHEAD=false): what that costs, paired.
      unlogged.push(await loadOnce(unloggedUrl));
      await drained();
      rendering = true;
      const renderer = bulkContinuously();
      await new Promise((r) => setTimeout(r, 1000));
      busy.push(await loadOnce(ourUrl));
      rendering = false;
      await renderer;
      await drained();
      // Stopped with SIGTERM: the redirect sends what it still holds, so scans recorded = requests answered holds across rounds.
      await stopServers();
      await drained();
      recorded += (await scansRecorded()) - recordedBefore;
    }
    const total = (runs: Measured[]) => runs.reduce((s, r) => s + r.completed, 0);
    const sent = total(ours) + total(branded) + total(scripted) + total(mixed) + total(unlogged) + total(busy);
    const countries = (await database.db.select({ n: countDistinct(scans.countryName) }).from(scans))[0]!.n;
    for (const r of [...ours, ...branded, ...scripted, ...mixed, ...unlogged, ...base, ...metered, ...busy])
      if (r.non2xx || r.errors) throw new Error(`load saw ${r.non2xx} bad answers and ${r.errors} socket errors`);
    const rateRatio = median(ours.map((r, i) => r.requestsPerSec / base[i]!.requestsPerSec));
    const p99Ratio = median(busy.map((r, i) => r.p99 / ours[i]!.p99));
    const unloggedRatio = median(unlogged.map((r, i) => r.requestsPerSec / base[i]!.requestsPerSec));
    const walCost = median(ours.map((r, i) => r.requestsPerSec / unlogged[i]!.requestsPerSec));
    // Per request, metrics add 1/(bm) - 1/(b) seconds; as a share of (a)'s time per request, a × that.
    const metricsMicros = metered.map((r, i) => 1e6 / r.requestsPerSec - 1e6 / base[i]!.requestsPerSec);
    const metricsShare = median(ours.map((r, i) => r.requestsPerSec * (metricsMicros[i]! / 1e6)));
    const cpuNames: Record<keyof CpuPerRequest, string> = { redirect: 'redirect', postgres: 'Postgres', worker: 'worker', redis: 'Redis' };
    const cpu = (runs: CpuPerRequest[]) =>
      Object.entries(cpuNames)
        .map(([of, name]) => `${name} ${median(runs.map((r) => r[of as keyof CpuPerRequest])).toFixed(1)}`)
        .join(', ');
    const row = (name: string, runs: Measured[], ratio: string) => {
      const m = medianOfRuns(runs);
      return [name, Math.round(m.requestsPerSec), m.p50.toFixed(2), m.p99.toFixed(2), ratio];
    };
    return printTable(
      `redirect: GET /<slug> (website link), ${HAS_WRK ? 'wrk -t2' : 'autocannon'} -c${CONNECTIONS}, ${RUNS} rounds, each with new server processes, of (b), (a), (c) × ${SECONDS} s; medians`,
      ['server', 'req/s', 'p50 ms', 'p99 ms', "vs baseline (median of the rounds' ratios)"],
      [
        row('(b) bare Fastify 302 from a Map (baseline)', base, '1.00'),
        row(
          `(bm) (b) with the redirect's request metrics (latency sampled on the slug route): ${median(metricsMicros).toFixed(2)} µs a request, ${(metricsShare * 100).toFixed(1)}% of (a)'s time a request (medians)`,
          metered,
          `${median(metered.map((r, i) => r.requestsPerSec / base[i]!.requestsPerSec)).toFixed(2)} (rounds: ${metered.map((r, i) => (r.requestsPerSec / base[i]!.requestsPerSec).toFixed(2)).join(', ')})`,
        ),
        row(
          '(a) qrlinks redirect, scans recorded',
          ours,
          `${rateRatio.toFixed(2)} (rounds: ${ours.map((r, i) => (r.requestsPerSec / base[i]!.requestsPerSec).toFixed(2)).join(', ')})`,
        ),
        row(
          `(ad) (a)'s slug on a brand domain (Host: ${BRAND_HOST}), on the same process`,
          branded,
          `${median(branded.map((r, i) => r.requestsPerSec / base[i]!.requestsPerSec)).toFixed(2)}; vs (a) ${median(branded.map((r, i) => r.requestsPerSec / ours[i]!.requestsPerSec)).toFixed(2)} (rounds: ${branded.map((r, i) => (r.requestsPerSec / ours[i]!.requestsPerSec).toFixed(2)).join(', ')})`,
        ),
        row(
          `(m) realistic mix on (a)'s process: ${MIX_LINKS} links (${Object.entries(mix.byType)
            .map(([type, n]) => `${n} ${type}`)
            .join(
              ', ',
            )}), clients of ${countries} countries in X-Forwarded-For, ${MIX_USER_AGENTS.length} user agents (browsers, bots, link previewers)`,
          mixed,
          `${median(mixed.map((r, i) => r.requestsPerSec / base[i]!.requestsPerSec)).toFixed(2)}; vs (a) ${median(mixed.map((r, i) => r.requestsPerSec / ours[i]!.requestsPerSec)).toFixed(2)} (rounds: ${mixed.map((r, i) => (r.requestsPerSec / ours[i]!.requestsPerSec).toFixed(2)).join(', ')}); p99 ${median(mixed.map((r, i) => r.p99 / base[i]!.p99)).toFixed(2)}× (b)`,
        ),
        row(
          `(as) the single link of (a) sent as (m) sends (wrk's script, a public address in X-Forwarded-For): CPU µs a request: ${cpu(cpuSingle)}`,
          scripted,
          `${median(scripted.map((r, i) => r.requestsPerSec / base[i]!.requestsPerSec)).toFixed(2)}; (m) vs (as) ${median(mixed.map((r, i) => r.requestsPerSec / scripted[i]!.requestsPerSec)).toFixed(2)} (rounds: ${mixed.map((r, i) => (r.requestsPerSec / scripted[i]!.requestsPerSec).toFixed(2)).join(', ')}); (m): CPU µs a request: ${cpu(cpuMix)}`,
        ),
        row(
          `(a0) (a) without the per-scan write-ahead (SCAN_WRITE_AHEAD=false; (a)/(a0) median ${walCost.toFixed(2)})`,
          unlogged,
          `${unloggedRatio.toFixed(2)} (rounds: ${unlogged.map((r, i) => (r.requestsPerSec / base[i]!.requestsPerSec).toFixed(2)).join(', ')})`,
        ),
        row(
          `(c) (a) while POST /bulk-generate makes 1200-link batches and their QR ZIPs (${batchesRendered} done)`,
          busy,
          `p99 ${p99Ratio.toFixed(2)}× (a) (rounds: ${busy.map((r, i) => (r.p99 / ours[i]!.p99).toFixed(2)).join(', ')})`,
        ),
        [
          'scans in Postgres / requests completed by the load generator',
          `${recorded} / ${sent}`,
          '',
          '',
          `+${recorded - sent} answered after the generator's cut-off`,
        ],
        ["(a): all of a run's scans in Postgres, after its load stopped", `${(median(drainMs) / 1000).toFixed(1)} s`, '', '', ''],
        [
          '(m): pages made again during the mix, per scan of a page link (each was scanned before; median)',
          `${(median(remade) * 100).toFixed(1)}%`,
          '',
          '',
          `rounds: ${remade.map((r) => `${(r * 100).toFixed(1)}%`).join(', ')}`,
        ],
        [
          "(a)'s process, VmRSS MB (medians): idle after start / peak under (a) / peak under (m)",
          `${median(rssIdle).toFixed(0)} / ${median(rssSingle).toFixed(0)} / ${median(rssMix).toFixed(0)}`,
          '',
          '',
          '',
        ],
      ],
    );
  } finally {
    rendering = false;
    await closeQueues(queues);
    redis.disconnect();
    await stopServers();
    await stopProcess(apiProcess);
    await stopProcess(worker);
    await database.close();
    await rm(mixDir, { recursive: true, force: true });
  }
}

/** Pages the redirect at `origin` has made since it started (qrlinks_pages_rendered_total, every kind). */
async function pagesMade(origin: string): Promise<number> {
  const text = await (await fetch(`${origin}metrics`)).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('qrlinks_pages_rendered_total{'))
    .reduce((sum, line) => sum + Number(line.split(' ').pop()), 0);
}

/**
 * `run` (a load) and then `settled` (the worker catching up), with the CPU both cost each process
 * of CpuPerRequest per completed request pushed to `into`.
 */
async function withCpu(
  pids: { redirect: number; worker: number },
  into: CpuPerRequest[],
  run: Promise<Measured>,
  settled: () => Promise<unknown>,
): Promise<Measured> {
  const sample = async (): Promise<CpuPerRequest> => ({
    redirect: await processCpuSeconds(pids.redirect),
    postgres: await commandCpuSeconds('postgres'),
    worker: await processCpuSeconds(pids.worker),
    redis: await commandCpuSeconds('redis-server'),
  });
  const before = await sample();
  const result = await run;
  await settled();
  const after = await sample();
  const per = (of: keyof CpuPerRequest) => ((after[of] - before[of]) * 1e6) / result.completed;
  into.push({ redirect: per('redirect'), postgres: per('postgres'), worker: per('worker'), redis: per('redis') });
  return result;
}

/** `run`, with the process's largest resident set while it ran (read every 250 ms) pushed to `into`. */
async function peakRssInto<T>(pid: number, into: number[], run: Promise<T>): Promise<T> {
  const { result, peakMb } = await peakRssWhile(pid, run, 250);
  into.push(peakMb);
  return result;
}
