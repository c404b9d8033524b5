/**
 * Scan ingestion against the real test database: one statement per batch, idempotent by scan
 * id, counters moved only by rows actually inserted, scans of deleted or foreign links dropped.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '#infra/database.js';
import type { DatabaseHandle } from '#domain/database.js';
import { createAccount } from '#domain/accounts/accounts.js';
import { ACCOUNT_ROLLUP_LOCK, FIRST_ON_ACCOUNT, FIRST_ON_LINK, UPSERT_ACCOUNT_WIDE_ROWS } from '#domain/analytics/rollups.js';
import { createLogger } from '#platform/logger.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches, linkPartition, SCAN_PARTITION_LOCK, ScanIngester, statementColumns } from '#domain/scans/ingest.js';
import type { ScanBatchPayload, ScanEvent } from '#domain/scans/types.js';
import { until } from '../../support/until.js';

let database: DatabaseHandle;
let accountId: string;

beforeAll(async () => {
  database = createDatabase(process.env.DATABASE_URL!, 8);
  accountId = (await createAccount(database.db, { name: 'scan-ingest', plan: 'pro' })).id;
});
afterAll(() => database.close());

/** Fresh links of the test account, in creation order. */
async function makeLinks(count: number, owner = accountId): Promise<string[]> {
  const { rows } = await database.pool.query<{ id: string }>(
    `insert into links (account_id, slug, name, type, meta_data, qr_options)
     select $1, 'i' || substr(md5(random()::text), 1, 12), 'Link ' || g, 'website', '{}', '{}' from generate_series(1, $2::int) g returning id`,
    [owner, count],
  );
  return rows.map((r) => r.id);
}

let clock = Date.parse('2026-11-20T10:00:00Z');
function scan(linkId: string, overrides: Partial<ScanEvent> = {}): ScanEvent {
  return {
    id: randomUUID(),
    linkId,
    accountId,
    at: (clock += 1000),
    browserName: 'Mobile Safari',
    deviceType: 'mobile',
    deviceVendor: 'Apple',
    osName: 'iOS',
    countryName: 'Germany',
    region: 'Bavaria',
    city: 'Munich',
    isBot: false,
    ...overrides,
  };
}

/** The account's scans marked first of their visitor's day on the account and on their link. */
async function visitorFirsts(owner: string) {
  const { rows } = await database.pool.query<{ firsts: number; link_firsts: number }>(
    `select count(*) filter (where visitor_firsts & ${FIRST_ON_ACCOUNT} <> 0)::int as firsts,
            count(*) filter (where visitor_firsts & ${FIRST_ON_LINK} <> 0)::int as link_firsts
     from scans where account_id = $1`,
    [owner],
  );
  return rows[0];
}

/** The account's all-scans day rows. */
async function accountDays(owner: string) {
  const { rows } = await database.pool.query<{ scans: number; visitors: number }>(
    `select scans, visitors from scan_rollups where scope_id = $1 and dimension = 0 and grain = 'day'`,
    [owner],
  );
  return rows;
}

/** Flat scans as one batch, the way a redirect process sends them. */
const ingest = (scans: ScanEvent[]) => ingestScanBatches(database.pool, [encodeScanBatch(scans)]);

async function counters(ids: string[]) {
  const { rows } = await database.pool.query<{ id: string; scan_count: number; human_scan_count: number; last_scanned_at: Date | null }>(
    'select link_id as id, scan_count, human_scan_count, last_scanned_at from link_counters where link_id = any($1::uuid[])',
    [ids],
  );
  return Object.fromEntries(
    rows.map((r) => [r.id, { total: r.scan_count, humans: r.human_scan_count, last: r.last_scanned_at?.getTime() ?? null }]),
  );
}

async function storedScans(linkIds: string[]): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>('select count(*)::int as n from scans where link_id = any($1::uuid[])', [
    linkIds,
  ]);
  return rows[0]!.n;
}

/** A placement id as a batch carries it (scans have no foreign key to placements). */
const PLACEMENT = '7b0a1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';

describe('ingestScanBatches', () => {
  it('writes every field of each scan and moves its link counters; bots count in scan_count only', async () => {
    const [a, b] = await makeLinks(2);
    const batch = [
      scan(a!, {
        browserName: 'Chrome',
        deviceType: 'desktop',
        deviceVendor: null,
        osName: 'Windows',
        countryName: null,
        region: null,
        city: null,
        origin: { source: 'qr', placementId: PLACEMENT, referrerHost: 'news.example', utmCampaign: 'spring' },
      }),
      scan(a!),
      scan(a!, { isBot: true, browserName: null, deviceType: null, deviceVendor: null, osName: null }),
      scan(b!),
    ];
    expect(await ingest(batch)).toEqual({ inserted: 4, links: 2, malformed: 0 });

    const { rows } = await database.pool.query('select * from scans where id = $1', [batch[0]!.id]);
    expect(rows[0]).toEqual({
      id: batch[0]!.id,
      link_id: a,
      account_id: accountId,
      created_at: new Date(batch[0]!.at),
      browser_name: 'Chrome',
      device_type: 'desktop',
      device_vendor: null,
      os_name: 'Windows',
      country_name: null,
      region: null,
      city: null,
      is_bot: false,
      visitor_firsts: 0,
      source: 'qr',
      placement_id: PLACEMENT,
      referrer_host: 'news.example',
      utm_campaign: 'spring',
    });
    // A scan of no recorded origin (as an older redirect's batch carries none) is of unknown source.
    const { rows: plain } = await database.pool.query('select source, placement_id, referrer_host, utm_campaign from scans where id = $1', [
      batch[1]!.id,
    ]);
    expect(plain[0]).toEqual({ source: null, placement_id: null, referrer_host: null, utm_campaign: null });
    expect(await counters([a!, b!])).toEqual({
      [a!]: { total: 3, humans: 2, last: batch[2]!.at },
      [b!]: { total: 1, humans: 1, last: batch[3]!.at },
    });
  });

  it('a batch run again inserts nothing and leaves the counters alone; an overlapping one adds only its new scans', async () => {
    const [link] = await makeLinks(1);
    const batch = Array.from({ length: 50 }, (_, i) => scan(link!, { isBot: i % 5 === 0 }));
    await ingest(batch);
    const before = await counters([link!]);
    expect(before[link!]).toMatchObject({ total: 50, humans: 40 });

    expect(await ingest(batch)).toEqual({ inserted: 0, links: 0, malformed: 0 });
    expect(await counters([link!])).toEqual(before);

    const later = [scan(link!), scan(link!, { isBot: true })];
    expect(await ingest([...batch.slice(10, 20), ...later])).toMatchObject({ inserted: 2 });
    expect(await counters([link!])).toEqual({ [link!]: { total: 52, humans: 41, last: later[1]!.at } });
    expect(await storedScans([link!])).toBe(52);
  });

  it('the same scan twice in one batch is written once', async () => {
    const [link] = await makeLinks(1);
    const once = scan(link!);
    expect(await ingest([once, once, scan(link!)])).toMatchObject({ inserted: 2 });
    expect((await counters([link!]))[link!]!.total).toBe(2);
  });

  it("drops scans of a deleted link and of another account's link, and writes the rest", async () => {
    const [kept, deleted] = await makeLinks(2);
    const otherAccount = (await createAccount(database.db, { name: 'scan-ingest-other', plan: 'pro' })).id;
    const [foreign] = await makeLinks(1, otherAccount);
    await database.pool.query('delete from links where id = $1', [deleted]);

    const result = await ingest([scan(kept!), scan(deleted!), scan(deleted!), scan(foreign!)]);
    expect(result).toEqual({ inserted: 1, links: 1, malformed: 0 });
    expect(await storedScans([deleted!, foreign!])).toBe(0);
    expect((await counters([foreign!]))[foreign!]).toEqual({ total: 0, humans: 0, last: null });
  });

  it('refuses a malformed scan alone', async () => {
    const [link] = await makeLinks(1);
    const result = await ingest([scan(link!), scan(link!, { id: 'not-a-uuid' }), scan(link!, { at: Number.NaN })]);
    expect(result).toEqual({ inserted: 1, links: 1, malformed: 2 });
  });

  it('refuses what does not fit the batch format, scan by scan, and writes the rest', async () => {
    const [link] = await makeLinks(1);
    const good = encodeScanBatch([scan(link!), scan(link!)]);
    const visitor = good.visitors[0]!;
    const damaged: ScanBatchPayload = {
      links: [
        [link!, accountId],
        ['not-a-uuid', accountId],
      ],
      visitors: [visitor, [...visitor.slice(0, 7), 'yes'] as never, ['too', 'short'] as never],
      scans: [
        ...good.scans.slice(0, 4), // fine
        randomUUID(),
        Date.now(),
        1,
        0, // its link is not a UUID
        randomUUID(),
        Date.now(),
        0,
        1, // its visitor's isBot is not a boolean
        randomUUID(),
        Date.now(),
        0,
        2, // its visitor is not a visitor
        randomUUID(),
        Date.now(),
        5,
        0, // no such link
        randomUUID(),
        Date.now(),
        0,
        9, // no such visitor
        randomUUID(),
        '2026',
        0,
        0, // a time that is not a number
        randomUUID(), // cut off
      ],
      visitorKeys: [],
    };
    expect(await ingestScanBatches(database.pool, [damaged, good])).toEqual({ inserted: 2, links: 1, malformed: 7 });
    expect(await ingestScanBatches(database.pool, [{} as never, null as never])).toEqual({ inserted: 0, links: 0, malformed: 0 });
    expect(await storedScans([link!])).toBe(2);
  });

  it('ingests a damaged batch that lost its visitor keys: its scans count, without keys', async () => {
    const [link] = await makeLinks(1);
    const { visitorKeys: _keys, ...old } = encodeScanBatch([scan(link!), scan(link!, { isBot: true })]);
    expect(await ingestScanBatches(database.pool, [old as ScanBatchPayload])).toEqual({ inserted: 2, links: 1, malformed: 0 });
    expect((await counters([link!]))[link!]).toMatchObject({ total: 2, humans: 1 });
  });

  it("hands each scan's visitor key to the statement beside its id; a key that is no key is none, and the scan stays", () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const keyed = [
      scan(a, { visitorKey: 'ywIpxT-u9-kDX7uXqK_46w' }),
      scan(b, { visitorKey: null }),
      scan(a, { visitorKey: 'k'.repeat(64) }),
    ];
    const current = encodeScanBatch(keyed);
    const { visitorKeys: _keys, ...keyless } = encodeScanBatch([scan(b), scan(a)]);
    const old = keyless as ScanBatchPayload;
    const columns = statementColumns([current, old]);
    expect(columns.ids).toEqual([...keyed.map((s) => s.id), old.scans[0], old.scans[4]]);
    expect(columns.visitorKeys).toEqual(['ywIpxT-u9-kDX7uXqK_46w', null, 'k'.repeat(64), null, null]);
    expect(columns.malformed).toBe(0);

    const odd = encodeScanBatch([scan(a, { visitorKey: 'ok' }), scan(a), scan(a), scan(a)]);
    odd.visitorKeys = ['ok', 'k'.repeat(65), 42 as never, 'nul\u0000'];
    expect(statementColumns([odd])).toMatchObject({
      ids: odd.scans.filter((_, i) => i % 4 === 0),
      visitorKeys: ['ok', null, null, null],
      malformed: 0,
    });
  });

  it('batches written by one statement keep each scan with its own link and visitor', async () => {
    const [a, b, c] = await makeLinks(3);
    const first = [scan(a!, { city: 'Munich' }), scan(b!, { city: 'Lyon', isBot: true })];
    const second = [scan(c!, { city: 'Osaka' }), scan(b!, { city: 'Quito' }), scan(a!, { city: 'Lyon', isBot: true })];
    expect(await ingestScanBatches(database.pool, [encodeScanBatch(first), encodeScanBatch(second)])).toEqual({
      inserted: 5,
      links: 3,
      malformed: 0,
    });
    const { rows } = await database.pool.query<{ id: string; link_id: string; city: string; is_bot: boolean }>(
      'select id, link_id, city, is_bot from scans where link_id = any($1::uuid[])',
      [[a, b, c]],
    );
    const stored = Object.fromEntries(rows.map((r) => [r.id, [r.link_id, r.city, r.is_bot]]));
    expect(stored).toEqual(Object.fromEntries([...first, ...second].map((s) => [s.id, [s.linkId, s.city, s.isBot]])));
  });

  it('keeps last_scanned_at at the latest scan when an older batch arrives late', async () => {
    const [link] = await makeLinks(1);
    const recent = scan(link!, { at: Date.parse('2026-11-21T12:00:00Z') });
    await ingest([recent]);
    await ingest([scan(link!, { at: Date.parse('2026-11-21T08:00:00Z') })]);
    expect((await counters([link!]))[link!]).toEqual({ total: 2, humans: 2, last: recent.at });
  });

  it('concurrent batches over the same links never deadlock and count every scan once', async () => {
    const ids = await makeLinks(40);
    const batches = Array.from({ length: 12 }, (_, b) =>
      // Each batch names the links in a different order.
      Array.from({ length: 200 }, (_, i) => scan(ids[(i * (b + 7)) % ids.length]!)),
    );
    await Promise.all(batches.map((batch) => ingest(batch)));
    const all = await counters(ids);
    expect(Object.values(all).reduce((sum, c) => sum + c.total, 0)).toBe(12 * 200);
    expect(await storedScans(ids)).toBe(12 * 200);
  });

  it("a visitor is first of the day once when two workers' batches wait on the account at the same time", async () => {
    const owner = (await createAccount(database.db, { name: 'scan-ingest-race', plan: 'pro' })).id;
    const [a, b] = await makeLinks(2, owner);
    // Another writer holds the account's rollup lock while both batches arrive, so both wait for it.
    const holder = await database.pool.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1, hashtext($2))', [ACCOUNT_ROLLUP_LOCK, owner]);
      const visitor = { accountId: owner, visitorKey: 'same-visitor-both-batches' };
      const both = Promise.all([ingest([scan(a!, visitor)]), ingest([scan(b!, visitor)])]);
      await until(async () => {
        const { rows } = await database.pool.query<{ n: number }>(
          "select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = $1 and not granted",
          [ACCOUNT_ROLLUP_LOCK],
        );
        return rows[0]!.n === 2;
      });
      await holder.query('commit');
      await both;
    } finally {
      holder.release();
    }
    expect(await visitorFirsts(owner)).toEqual({ firsts: 1, link_firsts: 2 });
  });
});

/**
 * The pool's connections, each held before its upsert of the account's shared rows until
 * `release()`: a writer stopped after its statement of scans, its locks held, as a worker's would be
 * while Postgres runs a statement of tens of thousands of scans.
 */
function heldBeforeSharedRows(pool: pg.Pool) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding = false;
  return {
    release,
    /** Whether a writer is being held. */
    get holding() {
      return holding;
    },
    source: {
      connect: async () => {
        const client = await pool.connect();
        const { query, release: give } = client;
        // The client goes back to the pool as it came.
        client.release = (err?: Error | boolean) => {
          Object.assign(client, { query, release: give });
          give.call(client, err);
        };
        Object.assign(client, {
          query: async (text: unknown, values?: unknown) => {
            if (text === UPSERT_ACCOUNT_WIDE_ROWS) {
              holding = true;
              await released;
            }
            return (query as (text: unknown, values?: unknown) => Promise<unknown>).call(client, text, values);
          },
        });
        return client;
      },
    } as Pick<pg.Pool, 'connect'>,
  };
}

describe("writers of one account's different links", () => {
  it("do not wait for each other's statements of scans", async () => {
    const owner = (await createAccount(database.db, { name: 'scan-ingest-side-by-side', plan: 'pro' })).id;
    const [a, b] = await makeLinks(2, owner);
    const held = heldBeforeSharedRows(database.pool);
    const first = ingestScanBatches(held.source, [encodeScanBatch([scan(a!, { accountId: owner, visitorKey: 'visitor-a' })])]);
    try {
      await until(() => held.holding);
      // The first writer has written its scans and holds its locks; a scan of the account's other
      // link, from another visitor, lands meanwhile.
      let second = false;
      const other = ingest([scan(b!, { accountId: owner, visitorKey: 'visitor-b' })]).then(() => (second = true));
      await until(() => second, 5_000);
      await other;
      expect(await storedScans([b!])).toBe(1);
      expect(await storedScans([a!])).toBe(0);
    } finally {
      held.release();
      await first;
    }
    expect(await storedScans([a!, b!])).toBe(2);
    expect(await accountDays(owner)).toEqual([{ scans: 2, visitors: 2 }]);
  });

  it('count a visitor new on the account once when both add it at the same moment', async () => {
    const owner = (await createAccount(database.db, { name: 'scan-ingest-same-visitor', plan: 'pro' })).id;
    const [a, b] = await makeLinks(2, owner);
    const visitor = { accountId: owner, visitorKey: 'same-visitor-two-writers' };
    const held = heldBeforeSharedRows(database.pool);
    const first = ingestScanBatches(held.source, [encodeScanBatch([scan(a!, visitor)])]);
    let second: Promise<unknown> = Promise.resolve();
    try {
      await until(() => held.holding);
      // The first writer has claimed the visitor and written its scan; the second finds the visitor
      // claimed and does not wait for the first's commit.
      second = ingest([scan(b!, visitor)]);
      await second;
      expect(await storedScans([b!])).toBe(1);
    } finally {
      held.release();
      await first;
      await second;
    }
    expect(await visitorFirsts(owner)).toEqual({ firsts: 1, link_firsts: 2 });
    expect(await accountDays(owner)).toEqual([{ scans: 2, visitors: 1 }]);
  });
});

describe('ScanIngester (group commit in the worker)', () => {
  const logger = createLogger({ LOG_LEVEL: 'silent' }, 'test');

  it('writes batches handed in together, each caller learning when its own are written', async () => {
    const ids = await makeLinks(10);
    const ingester = new ScanIngester(database.pool, logger);
    const batches = Array.from({ length: 8 }, () => Array.from({ length: 100 }, (_, i) => scan(ids[i % ids.length]!)));
    await Promise.all(batches.map((batch) => ingester.ingest(encodeScanBatch(batch))));
    expect(await storedScans(ids)).toBe(800);
    expect(Object.values(await counters(ids)).every((c) => c.total === 80)).toBe(true);
  });

  it('lingers for more batches only while more can come: with as many waiting as the worker holds, it writes at once', async () => {
    const [link] = await makeLinks(1);
    const ingester = new ScanIngester(database.pool, logger, { ms: 60_000, maxBatches: 2 });
    // Two batches fill the worker: the linger of a minute is not waited.
    await Promise.all([ingester.ingest(encodeScanBatch([scan(link!)])), ingester.ingest(encodeScanBatch([scan(link!)]))]);
    expect(await storedScans([link!])).toBe(2);
  }, 10_000);

  it('a batch Postgres refuses fails alone; the batches written with it still land', async () => {
    const [link] = await makeLinks(1);
    const ingester = new ScanIngester(database.pool, logger);
    // A NUL character cannot be stored in a Postgres text column: the statement is refused.
    const poisoned = [scan(link!, { city: 'bad\u0000city' })];
    const good = [[scan(link!)], [scan(link!)]];
    const outcomes = await Promise.allSettled([
      ingester.ingest(encodeScanBatch(good[0]!)),
      ingester.ingest(encodeScanBatch(poisoned)),
      ingester.ingest(encodeScanBatch(good[1]!)),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await storedScans([link!])).toBe(2);
  });

  it('writes the partitions no other worker is writing first, and one being written once it is free', async () => {
    const links = await makeLinks(40);
    const [held] = links.filter((l) => linkPartition(l, 2) === 0);
    const [free] = links.filter((l) => linkPartition(l, 2) === 1);
    const ingester = new ScanIngester(database.pool, logger, { ms: 0, maxBatches: 1, partitions: 2 });
    // Another worker process is writing partition 0.
    const other = await database.pool.connect();
    let written: Promise<void> = Promise.resolve();
    try {
      await other.query('begin');
      await other.query('select pg_advisory_xact_lock($1, 0)', [SCAN_PARTITION_LOCK]);
      written = ingester.ingest(encodeScanBatch([scan(held!), scan(free!), scan(held!)]));
      await until(async () => (await storedScans([free!])) === 1);
      expect(await storedScans([held!])).toBe(0);
    } finally {
      await other.query('commit');
      other.release();
    }
    await written;
    expect(await storedScans([held!])).toBe(2);
    expect(await counters([held!, free!])).toMatchObject({ [held!]: { total: 2 }, [free!]: { total: 1 } });
  });
});
