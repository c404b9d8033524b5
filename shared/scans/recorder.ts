/**
 * The redirect side of scan recording. `record()` only appends to an in-memory buffer; the
 * buffer goes to the `scans` queue as one job per batch of SCAN_BATCH_SIZE, at the latest
 * SCAN_FLUSH_MS after its first scan, so a kill -9 of the process loses at most the scans of
 * one flush window (and of a send in flight).
 *
 * Redis being away never slows a response: the recorder has its own fail-fast connection (no
 * offline queue, short command timeout), so a send fails at once and its scans stay buffered,
 * to be sent again with backoff and as soon as the connection is back. The buffer is bounded
 * by SCAN_BUFFER_MAX; past it new scans are dropped and counted (the buffer keeps an unbroken
 * run from the start of the outage, and refusing costs nothing on the hot path). Each batch
 * has a fixed job id (its own UUID), so sending it again after an ambiguous failure does not
 * enqueue it twice; the worker is idempotent by scan id besides.
 *
 * `close()` sends what it can; if Redis is unreachable it writes the rest to a spool file in
 * SCAN_SPOOL_DIR (atomically: a temporary file, fsync, rename), which `start()` of the next
 * process loads and sends, deleting the file once all of its batches are queued.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import { createFailFastRedis, type Redis } from '../redis.js';
import { SCAN_JOB_OPTIONS } from './scan-jobs.js';
import { ScanBatchBuilder, scanBatchSize } from './batch.js';
import type { RecordedScan, ScanBatchPayload } from './types.js';

export type ScanRecorderConfig = Pick<
  Config,
  'REDIS_URL' | 'QUEUE_PREFIX' | 'SCAN_FLUSH_MS' | 'SCAN_BATCH_SIZE' | 'SCAN_BUFFER_MAX' | 'SCAN_SPOOL_DIR'
>;

export interface ScanRecorderStats {
  /** Scans handed to record() since the process started. */
  received: number;
  /** Scans held in memory, not yet in Redis. */
  buffered: number;
  /** Scans refused because the buffer was full (or recorded after close). */
  dropped: number;
  /** Scans handed to Redis. */
  flushed: number;
  /** Scans written to spool files at close. */
  spooled: number;
  /** Whether the recorder's Redis connection is up (scans are sent within the window). */
  connected: boolean;
}

interface Batch {
  /** The job id: fixed for the batch's life, across retries and spool files. */
  id: string;
  /** The job's data. */
  payload: ScanBatchPayload;
  /**
   * Adds scans to `payload` while the batch is open. Dropped once the batch may be in Redis (a
   * send was tried, or it comes from a spool file): no scan joins it after that, since a second
   * send of its job id is ignored by BullMQ.
   */
  builder?: ScanBatchBuilder;
  count: number;
  /** Epoch ms of its first scan. */
  since: number;
  /** The spool file it was loaded from, deleted once all of that file's batches are queued. */
  spoolFile?: string;
}

interface SpoolFile {
  batches: Array<Pick<Batch, 'id' | 'payload'>>;
}

/** A queue write carries at most this many batches (a backlog goes out in several). */
const BATCHES_PER_SEND = 10;
/** Retries while Redis is away: the flush window doubled per failure, up to this. */
const MAX_RETRY_DELAY_MS = 1000;
const DROP_LOG_INTERVAL_MS = 1000;

export class ScanRecorder {
  private readonly redis: Redis;
  private readonly queue: Queue<ScanBatchPayload>;
  /** Oldest first; scans are appended to the last one. Batches being sent are not in here. */
  private batches: Batch[] = [];
  private counts = { received: 0, buffered: 0, dropped: 0, flushed: 0, spooled: 0 };
  private timer: NodeJS.Timeout | null = null;
  private timerDue = 0;
  private sending: Promise<void> | null = null;
  private failures = 0;
  /** close() has begun: no more timers; scans are still taken until it ends. */
  private closing = false;
  private closed = false;
  /** Spool files loaded at start → their batches not yet queued. */
  private readonly spoolFiles = new Map<string, number>();
  private lastDropLog = 0;

  constructor(
    private readonly config: ScanRecorderConfig,
    private readonly logger: Logger,
  ) {
    this.redis = createFailFastRedis(config.REDIS_URL, 500, logger);
    // No version check: BullMQ reads the server version once, after the first connect, and if that
    // one command fails (Redis gone again) the queue stays broken for good.
    this.queue = new Queue<ScanBatchPayload>('scans', { connection: this.redis, prefix: config.QUEUE_PREFIX, skipVersionCheck: true });
    // Connection trouble is seen (and logged) where a send fails; BullMQ's own error events would otherwise be unhandled.
    this.queue.on('error', () => {});
    this.redis.on('ready', () => {
      if (this.counts.buffered > 0) this.schedule(0);
    });
  }

  /** Loads the spool files a previous process left and sends them (in the background). */
  async start(): Promise<void> {
    const dir = this.config.SCAN_SPOOL_DIR;
    await mkdir(dir, { recursive: true });
    const loaded: Batch[] = [];
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json')).sort()) {
      const file = join(dir, name);
      let spool: SpoolFile;
      try {
        spool = JSON.parse(await readFile(file, 'utf8')) as SpoolFile;
      } catch (err) {
        this.logger.error({ file, err }, 'scan spool file unreadable; left in place');
        continue;
      }
      for (const { id, payload } of spool.batches) {
        const count = scanBatchSize(payload);
        loaded.push({ id, payload, count, since: Date.now(), spoolFile: file });
        this.counts.buffered += count;
      }
      this.spoolFiles.set(file, spool.batches.length);
      this.logger.info({ file, batches: spool.batches.length }, 'scan spool file loaded');
    }
    this.batches.unshift(...loaded);
    if (this.counts.buffered > 0) this.schedule(0);
  }

  /** Synchronous and O(1): the scan joins the buffer and is sent within SCAN_FLUSH_MS. */
  record(scan: RecordedScan): void {
    this.counts.received++;
    if (this.closed || this.counts.buffered >= this.config.SCAN_BUFFER_MAX) return this.drop();
    let batch = this.batches[this.batches.length - 1];
    if (!batch?.builder || batch.count >= this.config.SCAN_BATCH_SIZE) {
      const builder = new ScanBatchBuilder();
      batch = { id: randomUUID(), payload: builder.toPayload(), builder, count: 0, since: Date.now() };
      this.batches.push(batch);
    }
    batch.builder!.add(scan);
    batch.count++;
    this.counts.buffered++;
    this.schedule(batch.count >= this.config.SCAN_BATCH_SIZE ? 0 : this.config.SCAN_FLUSH_MS);
  }

  stats(): ScanRecorderStats {
    return { ...this.counts, connected: this.redis.status === 'ready' };
  }

  /** Sends everything it can, spools the rest, and lets go of Redis. Call it once the server takes no more requests. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.sending;
    while (this.batches.length > 0 && (await this.sendSome())) {
      // sent; go on with the next batches
    }
    this.closed = true;
    if (this.batches.length > 0) await this.spool();
    await this.queue.close().catch(() => {});
    this.redis.disconnect();
  }

  private drop(): void {
    this.counts.dropped++;
    const now = Date.now();
    if (now - this.lastDropLog >= DROP_LOG_INTERVAL_MS) {
      this.lastDropLog = now;
      this.logger.error({ ...this.counts, bufferMax: this.config.SCAN_BUFFER_MAX }, 'scan buffer full: scans dropped');
    }
  }

  /** Arms the send timer to fire within `delayMs` (an earlier deadline wins). */
  private schedule(delayMs: number): void {
    if (this.sending || this.closing) return;
    const due = Date.now() + delayMs;
    if (this.timer && this.timerDue <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.sending = this.sendSome().then((sent) => {
        this.sending = null;
        this.afterSend(sent);
      });
    }, delayMs);
  }

  private afterSend(sent: boolean): void {
    const oldest = this.batches[0];
    if (!oldest) return;
    if (!sent) return this.schedule(Math.min(MAX_RETRY_DELAY_MS, this.config.SCAN_FLUSH_MS * 2 ** this.failures));
    const full = this.batches.length > 1 || oldest.count >= this.config.SCAN_BATCH_SIZE;
    this.schedule(full ? 0 : Math.max(0, oldest.since + this.config.SCAN_FLUSH_MS - Date.now()));
  }

  /** One queue write of the oldest batches; false (and the batches back in the buffer) when Redis did not take them. */
  private async sendSome(): Promise<boolean> {
    const batches = this.batches.splice(0, BATCHES_PER_SEND);
    if (batches.length === 0) return true;
    try {
      // Without a connection there is nothing to wait for; the 'ready' event sends again.
      if (this.redis.status !== 'ready') throw new Error(`Redis connection is ${this.redis.status}`);
      for (const batch of batches) batch.builder = undefined;
      await this.queue.addBulk(batches.map((b) => ({ name: 'scans', data: b.payload, opts: { ...SCAN_JOB_OPTIONS, jobId: b.id } })));
    } catch (err) {
      this.batches.unshift(...batches);
      if (this.failures++ === 0) this.logger.warn({ err: (err as Error).message, ...this.counts }, 'scan queue unreachable; buffering scans');
      return false;
    }
    const count = batches.reduce((n, b) => n + b.count, 0);
    this.counts.buffered -= count;
    this.counts.flushed += count;
    if (this.failures > 0) this.logger.info({ ...this.counts }, 'scan queue reachable again');
    this.failures = 0;
    await this.forgetSpooled(batches);
    return true;
  }

  private async forgetSpooled(batches: Batch[]): Promise<void> {
    for (const { spoolFile } of batches) {
      if (!spoolFile) continue;
      const left = this.spoolFiles.get(spoolFile)! - 1;
      this.spoolFiles.set(spoolFile, left);
      if (left > 0) continue;
      this.spoolFiles.delete(spoolFile);
      await unlink(spoolFile).catch((err: unknown) => this.logger.error({ file: spoolFile, err }, 'scan spool file not deleted'));
    }
  }

  /** Everything still buffered into one new spool file; spool files it came from are then covered by it. */
  private async spool(): Promise<void> {
    const dir = this.config.SCAN_SPOOL_DIR;
    await mkdir(dir, { recursive: true });
    const spool: SpoolFile = { batches: this.batches.map(({ id, payload }) => ({ id, payload })) };
    const name = `scans-${Date.now()}-${process.pid}-${randomUUID()}`;
    const temporary = join(dir, `${name}.tmp`);
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(JSON.stringify(spool));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, join(dir, `${name}.json`));
    const count = this.counts.buffered;
    this.counts.spooled += count;
    this.counts.buffered = 0;
    this.batches = [];
    for (const file of this.spoolFiles.keys()) await unlink(file).catch(() => {});
    this.spoolFiles.clear();
    this.logger.warn({ file: join(dir, `${name}.json`), scans: count }, 'Redis unreachable at shutdown: scans spooled to disk');
  }
}
