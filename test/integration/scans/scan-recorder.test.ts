/**
 * The redirect side of scan recording against the real Redis and BullMQ: scans reach the
 * `scans` queue within the flush window, survive Redis being unreachable (played by a TCP proxy
 * that resets every connection), stay within their bound, and outlive a shutdown during an
 * outage through the spool file.
 */
import { UNKNOWN_ORIGIN } from '#domain/scans/batch.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '#platform/config/index.js';
import { createLogger } from '#platform/logger.js';
import { ScanRecorder, walFileOwner, type ScanRecorderConfig } from '#infra/scans/recorder.js';
import { ScanBatchAcks } from '#domain/scans/batch-acks.js';
import { createDatabase } from '#infra/database.js';
import type { DatabaseHandle } from '#domain/database.js';
import { decodeScanBatch, ScanBatchBuilder, scanBatchSize } from '#domain/scans/batch.js';
import { newScanId } from '#domain/scans/scan-id.js';
import type { RecordedScan, ScanBatchPayload, ScanEvent } from '#domain/scans/types.js';
import { startTcpProxyFor, type TcpProxy } from '../../support/tcp-proxy.js';
import { recordScan } from '../../support/record-scan.js';
import { pollUntil, until } from '../../support/until.js';
import { captureLogs } from '../../support/logs.js';

const REDIS_URL = process.env.REDIS_URL!;
const logger = createLogger({ LOG_LEVEL: 'silent' }, 'test');

let proxy: TcpProxy;
let connection: Redis;
let database: DatabaseHandle;
/** What a worker does once a batch's scans are committed. */
let acks: ScanBatchAcks;
const recorders: ScanRecorder[] = [];
const queues: Queue[] = [];
const spoolDirs: string[] = [];

beforeAll(async () => {
  proxy = await startTcpProxyFor(REDIS_URL, 6379);
  connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  database = createDatabase(process.env.DATABASE_URL!, 2);
  acks = new ScanBatchAcks(database.pool);
});
afterEach(async () => {
  proxy.restore();
  await Promise.all(recorders.splice(0).map((r) => r.close()));
  await Promise.all(queues.splice(0).map(async (q) => (await q.obliterate({ force: true }), await q.close())));
});
afterAll(async () => {
  await proxy.close();
  await connection.quit();
  await database.close();
  await Promise.all(spoolDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A recorder on its own queue prefix (no worker of another test takes its jobs) and spool folder. */
async function setup(overrides: Partial<ScanRecorderConfig> = {}, viaProxy = false) {
  const { config, queue } = await setupWithoutRecorder(overrides, viaProxy);
  return { config, queue, recorder: await startRecorder(config) };
}

/** The settings of a recorder, and its queue, none started yet. */
async function setupWithoutRecorder(overrides: Partial<ScanRecorderConfig> = {}, viaProxy = false) {
  const config: ScanRecorderConfig = {
    REDIS_URL: viaProxy ? proxy.url(REDIS_URL) : REDIS_URL,
    REDIS_NAMESPACE: `qrlinks-test-recorder-${randomUUID().slice(0, 8)}`,
    SCAN_FLUSH_MS: 10,
    SCAN_BATCH_SIZE: 1000,
    SCAN_BUFFER_MAX: 200_000,
    SCAN_SPOOL_DIR: await mkdtemp(join(tmpdir(), 'qrlinks-spool-')),
    SCAN_WRITE_AHEAD: true,
    SCAN_SPOOL_MAX_MB: 1024,
    ...overrides,
  };
  spoolDirs.push(config.SCAN_SPOOL_DIR);
  const queue = new Queue<ScanBatchPayload>('scans', { connection, prefix: config.REDIS_NAMESPACE });
  queues.push(queue);
  return { config, queue };
}

/** A started recorder whose connection is up, so an outage played after this is one it lives through. */
async function startRecorder(config: ScanRecorderConfig): Promise<ScanRecorder> {
  const recorder = new ScanRecorder(config, logger, database.pool);
  recorders.push(recorder);
  await recorder.start();
  await until(() => recorder.stats().connected);
  return recorder;
}

const VISITOR = Object.freeze({
  browserName: 'Chrome',
  deviceType: 'mobile',
  deviceVendor: 'Google',
  osName: 'Android',
  countryName: 'Japan',
  region: 'Tokyo',
  city: 'Tokyo',
  isBot: false,
});

function scan(): RecordedScan {
  return {
    id: newScanId(),
    linkId: randomUUID(),
    accountId: randomUUID(),
    at: Date.now(),
    visitor: VISITOR,
    visitorKey: randomBytes(16).toString('base64url'),
    origin: UNKNOWN_ORIGIN,
  };
}

async function queuedScans(queue: Queue<ScanBatchPayload>): Promise<ScanEvent[]> {
  const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed']);
  return jobs.flatMap((job) => decodeScanBatch(job.data));
}

const ids = (scans: Array<{ id: string }>) => scans.map((s) => s.id).sort();

/** Acknowledges every queued batch, as a worker does once it has written them. */
async function acknowledgeQueued(queue: Queue<ScanBatchPayload>): Promise<string[]> {
  const jobIds = (await queue.getJobs(['waiting', 'prioritized', 'delayed'])).map((j) => j.id!);
  await Promise.all(jobIds.map((id) => acks.acknowledge(id)));
  return jobIds;
}

describe('scan recording configuration', () => {
  it('defaults to a 10 ms window, batches of 1000, 200,000 buffered, a spool beside the files', () => {
    expect(loadConfig({})).toMatchObject({
      SCAN_FLUSH_MS: 10,
      SCAN_BATCH_SIZE: 1000,
      SCAN_BUFFER_MAX: 200_000,
      SCAN_SPOOL_DIR: './data/scan-spool',
      SCAN_WRITE_AHEAD: true,
      SCAN_WORKER_CONCURRENCY: 64,
      SCAN_INGEST_LINGER_MS: 200,
      SCAN_WORKER_LOCK_MS: 30_000,
    });
  });

  it('refuses a flush window over 10 ms: it is what a kill -9 of a redirect process can lose', () => {
    expect(() => loadConfig({ SCAN_FLUSH_MS: '11' })).toThrow(ConfigError);
    expect(() => loadConfig({ SCAN_FLUSH_MS: '0' })).toThrow(/SCAN_FLUSH_MS must be a whole number from 1 to 10/);
  });
});

describe('ScanRecorder write-ahead', () => {
  const walFiles = async (dir: string) => (await readdir(dir)).filter((n) => n.startsWith('wal-'));

  it('lets each answer go only once its scan is written ahead (one write per turn), and keeps the file until Postgres has the batch', async () => {
    const { config, queue, recorder } = await setup();
    const recorded = [scan(), scan()];
    // What the write-ahead file holds when each answer is let go, read at that moment: the batch
    // may be queued, and its file deleted, any time after.
    const filesAtRelease: Array<{ name: string; lines: string[] } | null> = [];
    const walFile = () => {
      const [name] = readdirSync(config.SCAN_SPOOL_DIR).filter((n) => n.startsWith('wal-'));
      return name ? { name, lines: readFileSync(join(config.SCAN_SPOOL_DIR, name), 'utf8').trim().split('\n') } : null;
    };
    const answers = recorded.map((s) => recordScan(recorder, s).then(() => filesAtRelease.push(walFile())));
    expect(walFile()).toBeNull();
    await Promise.all(answers);
    expect(filesAtRelease.map((f) => f?.lines.length)).toEqual([2, 2]);
    const { name, lines } = filesAtRelease[0]!;
    expect(name).toMatch(new RegExp(`^wal-${hostname().replace(/[^a-z0-9.-]/gi, '_')}-${process.pid}-[0-9a-f]{8}-[0-9a-f-]{36}\\.log$`));
    expect(lines.map((l) => (JSON.parse(l) as RecordedScan).id)).toEqual(recorded.map((s) => s.id));
    await until(async () => (await queuedScans(queue)).length === 2);
    // In Redis, but Redis may yet lose it: kept until a worker has written it.
    await new Promise((r) => setTimeout(r, 1500));
    expect(await walFiles(config.SCAN_SPOOL_DIR)).toEqual([name]);
    await acknowledgeQueued(queue);
    await until(async () => (await walFiles(config.SCAN_SPOOL_DIR)).length === 0, 5000);
  });

  it("writes a turn's lines to each batch's own file, byte for byte: a turn across two batches, places beyond ASCII, more lines than the kept buffer holds", async () => {
    const { config, recorder } = await setup({ SCAN_BATCH_SIZE: 700 });
    const visitor = Object.freeze({
      ...VISITOR,
      countryName: 'Brasil',
      region: 'São Paulo',
      city: 'São Paulo – Zürich 東京 🚲 '.repeat(20),
    });
    const recorded = Array.from({ length: 1000 }, () => ({ ...scan(), visitor }));
    let filesAtRelease: string[][] | null = null;
    const walLines = () =>
      readdirSync(config.SCAN_SPOOL_DIR)
        .filter((n) => n.startsWith('wal-'))
        .map((n) => readFileSync(join(config.SCAN_SPOOL_DIR, n), 'utf8').split('\n'));
    // All in one turn: the first answer let go finds every line written.
    await Promise.all(recorded.map((s) => recordScan(recorder, s).then(() => (filesAtRelease ??= walLines()))));
    const files = filesAtRelease!.sort((a, b) => b.length - a.length);
    expect(files.map((lines) => lines.pop())).toEqual(['', '']);
    expect(files.map((lines) => lines.length)).toEqual([700, 300]);
    const written = files.flat().map((l) => JSON.parse(l) as RecordedScan);
    // Each line is the scan, its origin as the batch's tuple.
    const asLine = (s: RecordedScan) => ({
      ...s,
      origin: [s.origin.source, s.origin.placementId, s.origin.referrerHost, s.origin.utmCampaign],
    });
    expect(written.sort((a, b) => a.id.localeCompare(b.id))).toEqual([...recorded].sort((a, b) => a.id.localeCompare(b.id)).map(asLine));
  });

  it('writes nothing ahead with SCAN_WRITE_AHEAD=false', async () => {
    const { config, queue, recorder } = await setup({ SCAN_WRITE_AHEAD: false });
    void recordScan(recorder, scan());
    expect(await walFiles(config.SCAN_SPOOL_DIR)).toEqual([]);
    await until(async () => (await queuedScans(queue)).length === 1);
  });

  it('sends the write-ahead files of a process that is gone, once, and leaves a live one’s alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'qrlinks-spool-'));
    spoolDirs.push(dir);
    const host = hostname().replace(/[^a-z0-9.-]/gi, '_');
    const dead = [scan(), scan(), scan()];
    // One line as this version writes it, its origin a tuple; two as a version before origins did, none.
    const origin = { source: 'qr', placementId: null, referrerHost: 'news.example', utmCampaign: 'spring' };
    const oldLine = ({ origin: _none, ...s }: RecordedScan) => JSON.stringify(s);
    const lines = [
      JSON.stringify({ ...dead[0]!, origin: [origin.source, origin.placementId, origin.referrerHost, origin.utmCampaign] }),
      ...dead.slice(1).map(oldLine),
    ];
    // A pid that cannot run (above Linux's pid_max), its last line cut short by the kill.
    const text = lines.join('\n') + '\n{"id":"0189';
    // A batch id whose groups are all digits, which a loose reading of the name takes for a pid.
    await writeFile(join(dir, `wal-${host}-99999999-deadbeef-12345678-1234-4123-8123-123456789012.log`), text);
    // A live process's (this one's pid, another instance: an earlier process of the same pid is gone too).
    const live = scan();
    const liveFile = `wal-${host}-1-cafecafe-${randomUUID()}.log`;
    await writeFile(join(dir, liveFile), `${JSON.stringify(live)}\n`);
    const { queue } = await setup({ SCAN_SPOOL_DIR: dir });
    await until(async () => (await queuedScans(queue)).length >= 3);
    const queued = await queuedScans(queue);
    expect(ids(queued)).toEqual(ids(dead));
    expect(queued.find((s) => s.id === dead[0]!.id)!.origin).toEqual(origin);
    for (const s of dead.slice(1)) expect(queued.find((q) => q.id === s.id)!.origin).toEqual(UNKNOWN_ORIGIN);
    // Under the dead batch's own id, so a batch it had queued already is not queued twice.
    expect(await acknowledgeQueued(queue)).toEqual(['12345678-1234-4123-8123-123456789012']);
    // Pid 1 runs (init): its file stays; the dead one's, taken over, is deleted once Postgres has its scans.
    await until(async () => (await readdir(dir)).length === 1, 5000);
    expect(await readdir(dir)).toEqual([liveFile]);
  });
});

describe('ScanRecorder keeps each batch on disk until Postgres has its scans', () => {
  const walFiles = async (dir: string) => (await readdir(dir)).filter((n) => n.startsWith('wal-'));
  const wipe = async (queue: Queue) => {
    const keys = await connection.keys(`${queue.opts.prefix}:*`);
    if (keys.length) await connection.del(...keys);
  };

  it('a batch Redis lost before Postgres had it is sent again from its file, under its own id', async () => {
    const { config, queue, recorder } = await setup({ SCAN_BATCH_SIZE: 20 });
    const scans = Array.from({ length: 50 }, scan);
    await Promise.all(scans.map((s) => recordScan(recorder, s)));
    await until(async () => (await queuedScans(queue)).length === 50);
    const jobIds = (await queue.getJobs(['waiting'])).map((j) => j.id).sort();
    await wipe(queue);
    expect(await queue.count()).toBe(0);
    await until(async () => (await queuedScans(queue)).length === 50, 5000);
    expect(ids(await queuedScans(queue))).toEqual(ids(scans));
    expect((await queue.getJobs(['waiting'])).map((j) => j.id).sort()).toEqual(jobIds);
    // Counted once as queued; the second send is counted as resent.
    expect(recorder.stats()).toMatchObject({ received: 50, flushed: 50, resent: 50 });
    await acknowledgeQueued(queue);
    await until(async () => (await walFiles(config.SCAN_SPOOL_DIR)).length === 0, 5000);
  });

  it('a batch Postgres has is not sent again after Redis loses it', async () => {
    const { config, queue, recorder } = await setup();
    await recordScan(recorder, scan());
    await until(async () => (await queue.count()) === 1);
    // As a worker does: acknowledged, then the job completes and is removed.
    await acknowledgeQueued(queue);
    await wipe(queue);
    await until(async () => (await walFiles(config.SCAN_SPOOL_DIR)).length === 0, 5000);
    expect(await queue.count()).toBe(0);
  });

  it('a check slower than its interval is not run twice at once: a batch Postgres has is never judged lost', async () => {
    const { config, queue, recorder } = await setup();
    const first = scan();
    await recordScan(recorder, first);
    await until(async () => (await queue.count()) === 1);
    const [written] = await acknowledgeQueued(queue);
    // Postgres slow to answer: the check's taking of the acknowledgement waits on this row lock
    // (held, and watched, on connections of their own: the recorder's pool is the test's).
    const slow = new pg.Client({ connectionString: process.env.DATABASE_URL });
    const watcher = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await slow.connect();
    await watcher.connect();
    try {
      await slow.query('begin');
      await slow.query('select 1 from scan_batch_acks where batch_id = $1 for update', [written]);
      // The job completes and leaves Redis, as it does once a worker has written it.
      await wipe(queue);
      const waitingChecks = async () =>
        (
          await watcher.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'delete from scan_batch_acks%'`,
          )
        ).rows[0]!.n;
      await until(async () => (await waitingChecks()) === 1, 5000);
      // Another batch sent while that check waits: it used to start a second check beside the first.
      await recordScan(recorder, scan());
      await until(async () => (await queue.count()) === 1);
      await new Promise((r) => setTimeout(r, 2500));
      expect(await waitingChecks()).toBe(1);
    } finally {
      await slow.query('commit');
      await slow.end();
      await watcher.end();
    }
    await until(async () => (await walFiles(config.SCAN_SPOOL_DIR)).length === 1, 5000);
    expect(ids(await queuedScans(queue))).not.toContain(first.id);
    expect(recorder.stats()).toMatchObject({ received: 2, flushed: 2, resent: 0 });
  });

  it('close() leaves the batches Postgres does not have yet; the next start takes them over without queueing them twice', async () => {
    const { config, queue, recorder } = await setup({ SCAN_BATCH_SIZE: 10 });
    const scans = Array.from({ length: 30 }, scan);
    await Promise.all(scans.map((s) => recordScan(recorder, s)));
    await until(async () => (await queue.count()) === 3);
    await recorder.close();
    expect(await walFiles(config.SCAN_SPOOL_DIR)).toHaveLength(3);
    const next = await startRecorder(config);
    // Sent from the files another process left: counted as resent, not as scans this one received.
    await until(() => next.stats().resent === 30);
    expect(next.stats()).toMatchObject({ received: 0, flushed: 0 });
    expect(await queue.count()).toBe(3);
    expect(ids(await queuedScans(queue))).toEqual(ids(scans));
    await acknowledgeQueued(queue);
    await until(async () => (await walFiles(config.SCAN_SPOOL_DIR)).length === 0, 5000);
  });

  it('past SCAN_SPOOL_MAX_MB deletes the oldest kept files, and says so', async () => {
    const logs = captureLogs();
    const { config, queue } = await setup({ SCAN_BATCH_SIZE: 1, SCAN_SPOOL_MAX_MB: 1 });
    // A recorder that logs: the warning is the operator's only sign.
    const recorder = new ScanRecorder(config, logs.logger, database.pool);
    recorders.push(recorder);
    await recorder.start();
    await until(() => recorder.stats().connected);
    // One scan a batch: each file counts as a 4 KiB block, so 1 MB keeps 256 of them.
    for (let i = 0; i < 300; i++) {
      await recordScan(recorder, scan());
      await new Promise((r) => setTimeout(r, 1));
    }
    await until(async () => (await queue.count()) === 300, 20_000);
    // The last sends' files are let go once those sends are done.
    expect(
      await pollUntil(
        () => walFiles(config.SCAN_SPOOL_DIR),
        (f) => f.length <= 256,
      ),
    ).toHaveLength(256);
    expect(logs.lines()).toContainEqual(expect.objectContaining({ msg: expect.stringContaining('SCAN_SPOOL_MAX_MB'), maxMb: 1 }));
  });
});

describe('ScanRecorder and the spool folders it used before', () => {
  /** A recorder whose scans are in Redis but not in Postgres, stopped: its write-ahead files stay in its folder. */
  async function stoppedWithFilesLeft() {
    const { config, queue, recorder } = await setup({ SCAN_BATCH_SIZE: 10 });
    const scans = Array.from({ length: 25 }, scan);
    await Promise.all(scans.map((s) => recordScan(recorder, s)));
    await until(async () => (await queue.count()) === 3);
    await recorder.close();
    const left = await readdir(config.SCAN_SPOOL_DIR);
    expect(left).toHaveLength(3);
    const newDir = await mkdtemp(join(tmpdir(), 'qrlinks-spool-'));
    spoolDirs.push(newDir);
    return { config, queue, scans, left, newDir };
  }

  it('a redirect back with another SCAN_SPOOL_DIR takes over the files left in the one before, and names them', async () => {
    const { config, queue, scans, left, newDir } = await stoppedWithFilesLeft();
    const logs = captureLogs();
    const next = new ScanRecorder({ ...config, SCAN_SPOOL_DIR: newDir }, logs.logger, database.pool);
    recorders.push(next);
    await next.start();
    expect(await readdir(config.SCAN_SPOOL_DIR)).toEqual([]);
    expect(logs.lines()).toContainEqual(
      expect.objectContaining({
        level: 40,
        folder: config.SCAN_SPOOL_DIR,
        moved: 3,
        files: expect.arrayContaining(left),
        msg: expect.stringContaining('SCAN_SPOOL_DIR changed'),
      }),
    );
    await until(() => next.stats().resent === 25);
    // Under their own ids: not queued twice.
    expect(await queue.count()).toBe(3);
    expect(ids(await queuedScans(queue))).toEqual(ids(scans));
    await acknowledgeQueued(queue);
    await until(async () => (await readdir(newDir)).length === 0, 5000);
  });

  it("leaves another namespace's folder alone", async () => {
    const { config, left, newDir } = await stoppedWithFilesLeft();
    const other = await startRecorder({ ...config, REDIS_NAMESPACE: `${config.REDIS_NAMESPACE}-other`, SCAN_SPOOL_DIR: newDir });
    expect(other.stats().buffered).toBe(0);
    expect((await readdir(config.SCAN_SPOOL_DIR)).sort()).toEqual([...left].sort());
  });
});

describe('ScanRecorder write-ahead, several recorders in one process', () => {
  it('a recorder starting beside a running one (the same pid) leaves its files alone; a stopped one’s it sends', async () => {
    const { config, queue, recorder: first } = await setup({}, true);
    proxy.cut();
    await recordScan(first, scan());
    const walFiles = async () => (await readdir(config.SCAN_SPOOL_DIR)).filter((n) => n.startsWith('wal-'));
    const [firstFile] = await walFiles();
    expect(firstFile).toBeDefined();
    // An earlier recorder of this process, stopped without a chance to spool (its instance no longer runs).
    const host = hostname().replace(/[^a-z0-9.-]/gi, '_');
    const stopped = scan();
    await writeFile(join(config.SCAN_SPOOL_DIR, `wal-${host}-${process.pid}-0badf00d-${randomUUID()}.log`), `${JSON.stringify(stopped)}\n`);
    const second = await startRecorder({ ...config, REDIS_URL });
    // The first recorder's file is left alone; the stopped one's is taken over (renamed to the second's).
    expect(await walFiles()).toHaveLength(2);
    expect(await walFiles()).toContain(firstFile);
    await until(async () => (await queuedScans(queue)).length === 1);
    expect(ids(await queuedScans(queue))).toEqual([stopped.id]);
    expect(second.stats().buffered).toBe(0);
    proxy.restore();
  });
});

describe('walFileOwner', () => {
  it('reads the owner from the right, whatever digits and dashes the host name and batch id hold', () => {
    expect(walFileOwner('wal-ip-10-0-0-1-4242-0a1b2c3d-12345678-1234-4123-8123-123456789012.log')).toEqual({
      host: 'ip-10-0-0-1',
      pid: 4242,
      instance: '0a1b2c3d',
      batch: '12345678-1234-4123-8123-123456789012',
    });
    expect(walFileOwner('wal-box-12-cafecafe-0a1b2c3d.log')).toBeNull();
    expect(walFileOwner('scans-1-2-3.json')).toBeNull();
  });
});

describe('ScanRecorder', () => {
  it('sends recorded scans as one job within the flush window', async () => {
    const { queue, recorder } = await setup();
    const scans = Array.from({ length: 25 }, scan);
    const recordedAt = Date.now();
    for (const s of scans) void recordScan(recorder, s);
    expect(recorder.stats()).toMatchObject({ buffered: 25, flushed: 0 });

    await until(async () => (await queue.count()) > 0);
    const jobs = await queue.getJobs(['waiting']);
    expect(jobs).toHaveLength(1);
    expect(decodeScanBatch(jobs[0]!.data)).toEqual(scans.map(({ visitor, ...rest }): ScanEvent => ({ ...rest, ...visitor })));
    // BullMQ stamps the job when the recorder adds it: one 10 ms window after the scans (the
    // margin is for a busy machine's timers, not for a second window).
    expect(jobs[0]!.timestamp - recordedAt).toBeLessThan(100);
    expect(jobs[0]!.opts).toMatchObject({ attempts: 120_000, removeOnComplete: true, removeOnFail: false });
    expect(recorder.stats()).toEqual({ received: 25, buffered: 0, dropped: 0, flushed: 25, resent: 0, spooled: 0, connected: true });
  });

  it('sends a full batch at once and the remainder within the window', async () => {
    const { queue, recorder } = await setup({ SCAN_BATCH_SIZE: 100, SCAN_FLUSH_MS: 10 });
    const scans = Array.from({ length: 250 }, scan);
    for (const s of scans) void recordScan(recorder, s);
    await until(async () => (await queue.count()) === 3);
    const sizes = (await queue.getJobs(['waiting'])).map((j) => scanBatchSize(j.data)).sort((a, b) => b - a);
    expect(sizes).toEqual([100, 100, 50]);
    expect(ids(await queuedScans(queue))).toEqual(ids(scans));
  });

  it('keeps scans while Redis is unreachable and sends them all once it is back', async () => {
    const { queue, recorder } = await setup({}, true);
    proxy.cut();
    const scans = Array.from({ length: 300 }, scan);
    // Recording never waits for Redis: each answer may go once its scan is written ahead, this turn.
    const written = Promise.all(scans.map((s) => recordScan(recorder, s)));
    expect(await Promise.race([written.then(() => 'written'), new Promise((r) => setTimeout(() => r('waiting'), 50))])).toBe('written');
    await new Promise((r) => setTimeout(r, 300));
    expect(recorder.stats()).toMatchObject({ buffered: 300, flushed: 0, dropped: 0, connected: false });
    expect(await queue.count()).toBe(0);

    proxy.restore();
    await until(() => recorder.stats().flushed === 300);
    expect(ids(await queuedScans(queue))).toEqual(ids(scans));
    expect(recorder.stats()).toMatchObject({ buffered: 0, dropped: 0 });
  });

  it('past SCAN_BUFFER_MAX drops (and counts) the newest scans, keeping the oldest', async () => {
    const { queue, recorder } = await setup({ SCAN_BUFFER_MAX: 50 }, true);
    proxy.cut();
    const scans = Array.from({ length: 80 }, scan);
    for (const s of scans) void recordScan(recorder, s);
    expect(recorder.stats()).toMatchObject({ buffered: 50, dropped: 30 });

    proxy.restore();
    await until(() => recorder.stats().flushed === 50);
    expect(ids(await queuedScans(queue))).toEqual(ids(scans.slice(0, 50)));
    expect(recorder.stats()).toEqual({ received: 80, buffered: 0, dropped: 30, flushed: 50, resent: 0, spooled: 0, connected: true });
  });

  it('close() during an outage writes a spool file; the next recorder queues it and deletes the file', async () => {
    const { config, queue, recorder } = await setup({ SCAN_BATCH_SIZE: 40 }, true);
    proxy.cut();
    const scans = Array.from({ length: 100 }, scan);
    for (const s of scans) void recordScan(recorder, s);
    await recorder.close();
    expect(recorder.stats()).toMatchObject({ buffered: 0, flushed: 0, spooled: 100 });

    const files = await readdir(config.SCAN_SPOOL_DIR);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^scans-.*\.json$/);
    const spooled = JSON.parse(await readFile(join(config.SCAN_SPOOL_DIR, files[0]!), 'utf8')) as {
      batches: Array<{ id: string; payload: ScanBatchPayload }>;
    };
    expect(spooled.batches.map((b) => scanBatchSize(b.payload))).toEqual([40, 40, 20]);
    expect(await queue.count()).toBe(0);

    // The next process (Redis reachable again) sends them under the same job ids, and removes the
    // file once Postgres has them all.
    const next = await startRecorder({ ...config, REDIS_URL });
    await until(async () => (await queuedScans(queue)).length === 100);
    expect(ids(await queuedScans(queue))).toEqual(ids(scans));
    expect((await queue.getJobs(['waiting'])).map((j) => j.id).sort()).toEqual(spooled.batches.map((b) => b.id).sort());
    expect(next.stats()).toMatchObject({ buffered: 0, flushed: 0, resent: 100 });
    // Kept until Postgres has its batches, under the name of the process that took it over.
    const base = files[0]!.replace(/\.json$/, '');
    expect(await readdir(config.SCAN_SPOOL_DIR)).toEqual([
      expect.stringMatching(new RegExp(`^${base}~.+-${process.pid}-[0-9a-f]{8}\\.json$`)),
    ]);
    await acknowledgeQueued(queue);
    await until(async () => (await readdir(config.SCAN_SPOOL_DIR)).length === 0, 5000);
  });

  it('a spool file left by a process that queued it before dying is not queued twice', async () => {
    const { config, queue, recorder } = await setup({}, true);
    proxy.cut();
    for (let i = 0; i < 10; i++) void recordScan(recorder, scan());
    await recorder.close();
    const [file] = await readdir(config.SCAN_SPOOL_DIR);
    const content = await readFile(join(config.SCAN_SPOOL_DIR, file!), 'utf8');

    await startRecorder({ ...config, REDIS_URL });
    await until(async () => (await queue.count()) === 1);
    // As if that process had been killed after queueing but before deleting its file.
    await writeFile(join(config.SCAN_SPOOL_DIR, file!.replace('scans-', 'scans-again-')), content);
    await startRecorder({ ...config, REDIS_URL });
    await new Promise((r) => setTimeout(r, 300));
    expect(await queue.count()).toBe(1);
    expect(await queuedScans(queue)).toHaveLength(10);
  });
});

describe('ScanRecorder write-ahead, two redirects sharing a spool folder (compose replicas)', () => {
  it('starting at once, they take over a stopped process’s files between them: no crash, each batch sent once, each file deleted once', async () => {
    const { config, queue } = await setupWithoutRecorder();
    const host = hostname().replace(/[^a-z0-9.-]/gi, '_');
    const left: RecordedScan[] = [];
    // A stopped process's write-ahead files (a pid that cannot run), and a spool file it wrote at shutdown.
    for (let i = 0; i < 20; i++) {
      const scans = [scan(), scan()];
      left.push(...scans);
      await writeFile(
        join(config.SCAN_SPOOL_DIR, `wal-${host}-99999999-deadbeef-${randomUUID()}.log`),
        scans.map((s) => `${JSON.stringify(s)}\n`).join(''),
      );
    }
    const batches = Array.from({ length: 5 }, () => {
      const builder = new ScanBatchBuilder();
      for (let i = 0; i < 3; i++) {
        const s = scan();
        left.push(s);
        builder.add(s);
      }
      return { id: randomUUID(), payload: builder.toPayload() };
    });
    await writeFile(join(config.SCAN_SPOOL_DIR, `scans-${Date.now()}-99999999-${randomUUID()}.json`), JSON.stringify({ batches }));

    const logs = captureLogs();
    const both = [new ScanRecorder(config, logs.logger, database.pool), new ScanRecorder(config, logs.logger, database.pool)];
    recorders.push(...both);
    await Promise.all(both.map((r) => r.start()));
    await until(async () => (await queuedScans(queue)).length >= left.length);
    expect(ids(await queuedScans(queue))).toEqual(ids(left));
    expect(await queue.count()).toBe(25);

    // As a worker does: each batch acknowledged, then its job completes and is removed.
    await acknowledgeQueued(queue);
    await queue.drain();
    await until(async () => (await readdir(config.SCAN_SPOOL_DIR)).length === 0, 5000);
    // Two rounds of the kept check: neither sends a batch again, nor misses a file it thought it held.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await queue.count()).toBe(0);
    expect(both.reduce((n, r) => n + r.stats().resent, 0)).toBe(left.length);
    // Between them, every file taken over once: nothing failed, nothing is missing.
    expect(logs.lines().filter((l) => l.level >= 50)).toEqual([]);
    const takenOver = logs.lines().filter((l) => l.msg.includes('write-ahead files of a stopped process taken over'));
    expect(takenOver.reduce((n, l) => n + (l.files as number), 0)).toBe(20);
  });
});
