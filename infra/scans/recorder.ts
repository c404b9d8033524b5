/**
 * The redirect side of scan recording. `recordThen()` only appends to an in-memory buffer; the
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
 *
 * A kill -9 gives no chance to spool, so every scan is also written ahead, before its answer
 * leaves: `recordThen()` queues the scan's line and takes a function that lets the answer go;
 * once per event-loop turn (setImmediate, after every request that turn read) the lines go to
 * their batches' write-ahead files in SCAN_SPOOL_DIR in one `write()` per file, and only then
 * are that turn's answers let go: one system call per turn instead of one per scan (a group commit).
 * Corking the response's socket instead would not hold it: Node's `res.end()` uncorks fully.
 * Each batch has its file
 * (`wal-<host>-<pid>-<instance>-<batch>.log`, written synchronously to the kernel's page cache,
 * which a killed process cannot lose).
 *
 * A batch's file outlives its send: Redis can lose a queued batch (a wipe, a failover to a replica
 * behind, a crash past its last fsync), so the file is kept until Postgres has the batch's scans
 * (docs/decisions/0385). Once a second the recorder asks Redis which of its kept batches' jobs are
 * gone, then Postgres which batches a worker has acknowledged (scan_batch_acks, batch-acks.ts,
 * taking the acknowledgements as it reads them): an acknowledged batch's file is deleted; a batch
 * neither queued nor acknowledged was lost by Redis and is sent again from its file, under its
 * own job id. Redis first: a worker acknowledges a batch before its job completes and is removed,
 * so a job found gone and then not acknowledged was never written. Kept files are bounded by
 * SCAN_SPOOL_MAX_MB; past it the oldest are deleted (their scans then have Redis alone) and that
 * is logged.
 *
 * `start()` takes over the write-ahead files of processes that are gone (renamed to this
 * process's name, so two starting at once never both take one): on this host, those of pids that
 * no longer run (or of an earlier process with our pid); of another host sharing the directory
 * (containers on one volume), those untouched for WAL_ABANDONED_MS (a live process touches its
 * kept files well within that). Spool files are taken over the same way (renamed to
 * `scans-<base>~<host>-<pid>-<instance>.json`), so replicas sharing the folder (compose) never both
 * send one; a file a peer took first (a rename, read or unlink finding it gone) is skipped. Each is sent under its own batch id unless Postgres has it
 * already: a batch still queued is not queued twice (BullMQ ignores a job id it holds), and one
 * sent twice lands once (the worker ingests by scan id).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { constants } from 'node:fs';
import { copyFile, mkdir, open, readdir, readFile, rename, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import type pg from 'pg';
import type { Config } from '#platform/config/index.js';
import type { Logger } from '#platform/logger.js';
import { createFailFastRedis, type Redis } from '#platform/redis/client.js';
import { SCAN_JOB_OPTIONS } from './scan-jobs.js';
import { ScanBatchBuilder, scanBatchSize, UNKNOWN_ORIGIN } from '#domain/scans/batch.js';
import { takeScanBatchAcks } from '#domain/scans/batch-acks.js';
import type { RecordedScan, ScanBatchPayload, ScanOrigin } from '#domain/scans/types.js';
import { SCAN_SOURCES } from '#domain/links/attribution.js';

export type ScanRecorderConfig = Pick<
  Config,
  | 'REDIS_URL'
  | 'REDIS_NAMESPACE'
  | 'SCAN_FLUSH_MS'
  | 'SCAN_BATCH_SIZE'
  | 'SCAN_BUFFER_MAX'
  | 'SCAN_SPOOL_DIR'
  | 'SCAN_SPOOL_MAX_MB'
  | 'SCAN_WRITE_AHEAD'
>;

export interface ScanRecorderStats {
  /** Scans handed to recordThen() since the process started. */
  received: number;
  /** Scans held in memory, not yet in Redis. */
  buffered: number;
  /** Scans refused because the buffer was full (or recorded after close). */
  dropped: number;
  /** Scans this process received and handed to Redis (each once: a batch sent from a file, again or left by another process, counts under `resent`). */
  flushed: number;
  /** Scans of batches sent again from their files, found neither in Redis nor in Postgres. */
  resent: number;
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
  /** The spool file it was loaded from, deleted once all of that file's batches are in Postgres. */
  spoolFile?: string;
  /** Its write-ahead file (one line per scan), deleted once the batch is in Postgres or spooled. */
  wal?: { path: string; fd: number | null; bytes: number };
  /**
   * Sent from a file: found lost after its send (its scans were counted as flushed then), or left
   * by another process (which counted them as it answered them). Counted under `resent`, so each
   * process's `flushed` counts only scans it received.
   */
  resent?: true;
}

/** A batch in Redis whose scans Postgres may not have yet: kept on disk until it does. */
interface Kept {
  id: string;
  /** Its write-ahead file; or, for a batch loaded from a spool file, that file. */
  wal?: string;
  spoolFile?: string;
  /** What it takes of SCAN_SPOOL_MAX_MB. */
  bytes: number;
  /** When its file was last touched, so another host does not take it for abandoned. */
  touchedAt: number;
}

interface SpoolFile {
  batches: Array<Pick<Batch, 'id' | 'payload'>>;
}

/** A queue write carries at most this many batches (a backlog goes out in several). */
const BATCHES_PER_SEND = 10;
/** Retries while Redis is away: the flush window doubled per failure, up to this. */
const MAX_RETRY_DELAY_MS = 1000;
const DROP_LOG_INTERVAL_MS = 1000;
/** This machine (or container) in write-ahead file names, so processes of other hosts sharing the directory are told apart. */
const HOST =
  hostname()
    .replace(/[^a-z0-9.-]/gi, '_')
    .slice(0, 64) || 'host';
/**
 * A write-ahead file of another host is taken over only when unchanged this long: a live process
 * deletes each within a flush window, or keeps it through a Redis outage while it retries.
 */
const WAL_ABANDONED_MS = 10 * 60_000;
/** How often kept batches are checked against Redis and Postgres. */
const KEPT_CHECK_MS = 1000;
/** Kept batches checked per round, the longest unchecked first: acknowledgements come about in the order batches were sent. */
const KEPT_CHECK_MAX = 5000;
/** A file takes at least a block of the disk, however few its lines. */
const MIN_FILE_BYTES = 4096;
const KEPT_LOG_INTERVAL_MS = 60_000;
/** The write-ahead buffer kept between turns: a turn of a few hundred scans' lines. */
const TURN_BYTES_KEPT = 256 * 1024;
const NEWLINE = 0x0a;
/** Recorders running in this process (one per redirect app; tests run several): their files are not a dead process's. */
const LIVE_INSTANCES = new Set<string>();

export class ScanRecorder {
  private readonly redis: Redis;
  private readonly queue: Queue<ScanBatchPayload>;
  /** Oldest first; scans are appended to the last one. Batches being sent are not in here. */
  private batches: Batch[] = [];
  private counts = { received: 0, buffered: 0, dropped: 0, flushed: 0, resent: 0, spooled: 0 };
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
  /** Tells this process's write-ahead files from those of an earlier process that had the same pid. */
  private readonly instance = randomUUID().slice(0, 8);
  private lastWalErrorLog = 0;
  /**
   * This turn's write-ahead lines, as the UTF-8 bytes of the files, in one buffer reused every
   * turn; `turnRuns` says up to where each run of them belongs to which batch's file. Bytes, not
   * the lines' strings: strings held until the end of the turn were promoted to the old generation
   * by the hundred kilobytes (~1 KB a scan), and the old generation's collections then set the
   * redirect's p99 (docs/benchmarks.md, "Redirect: where a scan's time goes").
   */
  private turnBytes = Buffer.allocUnsafeSlow(TURN_BYTES_KEPT);
  private turnLength = 0;
  private readonly turnRuns: Array<{ batch: Batch; end: number }> = [];
  /** Called once this turn's lines are written: each lets its scan's answer go. */
  private waiters: Array<() => void> = [];
  /** A write of the queued lines is set for the end of this turn. */
  private writeQueued = false;
  /**
   * Each interned visitor (describeVisitor) as JSON, made once: a write-ahead line is then a few
   * short strings joined, not a whole object serialised per scan.
   */
  private readonly visitorJson = new WeakMap<object, string>();
  /** Sent batches whose scans Postgres may not have yet, by id; the longest unchecked first. */
  private readonly kept = new Map<string, Kept>();
  private keptBytes = 0;
  private keptTimer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private lastKeptLog = { ack: 0, bound: 0 };

  /** `db`: where the worker acknowledges batches written (batch-acks.ts). */
  constructor(
    private readonly config: ScanRecorderConfig,
    private readonly logger: Logger,
    private readonly db: Pick<pg.Pool, 'query'>,
  ) {
    LIVE_INSTANCES.add(this.instance);
    this.redis = createFailFastRedis(config.REDIS_URL, 500, logger);
    // No version check: BullMQ reads the server version once, after the first connect, and if that
    // one command fails (Redis gone again) the queue stays broken for good.
    this.queue = new Queue<ScanBatchPayload>('scans', { connection: this.redis, prefix: config.REDIS_NAMESPACE, skipVersionCheck: true });
    // Connection trouble is seen (and logged) where a send fails; BullMQ's own error events would otherwise be unhandled.
    this.queue.on('error', () => {});
    this.redis.on('ready', () => {
      if (this.counts.buffered > 0) this.schedule(0);
    });
  }

  /** Takes over the write-ahead and spool files previous processes left, and sends them (in the background). */
  async start(): Promise<void> {
    const dir = this.config.SCAN_SPOOL_DIR;
    await mkdir(dir, { recursive: true });
    await this.takeOverStrandedFolders(resolve(dir));
    const loaded: Batch[] = await this.recoverWriteAhead(dir);
    for (const name of (await readdir(dir)).filter((n) => SPOOL_FILE.test(n)).sort()) {
      const claimed = await this.claimSpoolFile(dir, name);
      if (!claimed) continue;
      const { file, text } = claimed;
      let spool: SpoolFile;
      try {
        spool = JSON.parse(text) as SpoolFile;
      } catch (err) {
        this.logger.error({ file, err }, 'scan spool file unreadable; left in place');
        continue;
      }
      for (const { id, payload } of spool.batches)
        loaded.push({ id, payload, count: scanBatchSize(payload), since: Date.now(), spoolFile: file, resent: true });
      this.spoolFiles.set(file, spool.batches.length);
      this.logger.info({ file, batches: spool.batches.length }, 'scan spool file loaded');
    }
    // Those Postgres has already (a process stopped, or killed, while a backlog was written) need not go again.
    const written = await takeScanBatchAcks(
      this.db,
      loaded.map((b) => b.id),
    ).catch((err: unknown) => {
      this.logger.warn({ err }, 'Postgres unreachable: every recovered scan batch is sent again (dropped by scan id where written)');
      return new Set<string>();
    });
    const unwritten = loaded.filter((b) => !written.has(b.id));
    for (const batch of loaded) if (written.has(batch.id)) await this.forgetFiles(batch);
    for (const batch of unwritten) this.counts.buffered += batch.count;
    this.batches.unshift(...unwritten);
    if (this.counts.buffered > 0) this.schedule(0);
  }

  /**
   * O(1): the scan joins the buffer and is sent within SCAN_FLUSH_MS. With write-ahead on, true,
   * and the answer to the scan must wait for `written`: it is called once the scan's line is
   * written, at the end of this event-loop turn. False when there is nothing to wait for
   * (write-ahead off, or the scan dropped), and the caller goes on at once. A function per scan,
   * not a promise and its reaction: this is the redirect's hot path.
   */
  recordThen(scan: RecordedScan, written: () => void): boolean {
    const batch = this.add(scan);
    if (!batch || !this.config.SCAN_WRITE_AHEAD) return false;
    this.queueWriteAhead(batch, scan);
    this.waiters.push(written);
    return true;
  }

  /** The scan into the buffer; its batch, or undefined when it was dropped. */
  private add(scan: RecordedScan): Batch | undefined {
    this.counts.received++;
    if (this.closed || this.counts.buffered >= this.config.SCAN_BUFFER_MAX) {
      this.drop();
      return undefined;
    }
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
    return batch;
  }

  stats(): ScanRecorderStats {
    return { ...this.counts, connected: this.redis.status === 'ready' };
  }

  /**
   * Sends everything it can, spools the rest, and lets go of Redis. Call it once the server takes
   * no more requests. Batches in Redis that Postgres does not have yet stay on disk: the next start
   * takes them over.
   */
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
    if (this.keptTimer) clearTimeout(this.keptTimer);
    this.keptTimer = null;
    await this.checking;
    if (this.kept.size > 0) {
      // What was written meanwhile is not left for the next start to look up.
      this.checking = this.checkKept(this.kept.size);
      await this.checking;
    }
    if (this.kept.size > 0)
      this.logger.info({ batches: this.kept.size }, 'scan batches kept on disk until Postgres has them; the next start takes them over');
    LIVE_INSTANCES.delete(this.instance);
    // Every batch is in Redis or spooled by now: a close that fails loses nothing, but is said.
    await this.queue.close().catch((err: unknown) => this.logger.warn({ err }, 'scan queue did not close cleanly'));
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
      this.writePendingLines();
      for (const batch of batches) {
        batch.builder = undefined;
        sealWriteAhead(batch);
      }
      await this.queue.addBulk(batches.map((b) => ({ name: 'scans', data: b.payload, opts: { ...SCAN_JOB_OPTIONS, jobId: b.id } })));
    } catch (err) {
      this.batches.unshift(...batches);
      if (this.failures++ === 0)
        this.logger.warn({ err: (err as Error).message, ...this.counts }, 'scan queue unreachable; buffering scans');
      return false;
    }
    const count = batches.reduce((n, b) => n + b.count, 0);
    const resent = batches.reduce((n, b) => n + (b.resent ? b.count : 0), 0);
    this.counts.buffered -= count;
    this.counts.flushed += count - resent;
    this.counts.resent += resent;
    if (this.failures > 0) this.logger.info({ ...this.counts }, 'scan queue reachable again');
    this.failures = 0;
    await this.keep(batches);
    return true;
  }

  /** Sent batches kept on disk until Postgres has them (a batch without a file, write-ahead off, is not). */
  private async keep(batches: Batch[]): Promise<void> {
    const now = Date.now();
    for (const { id, wal, spoolFile } of batches) {
      if (wal) this.addKept({ id, wal: wal.path, bytes: Math.max(MIN_FILE_BYTES, wal.bytes), touchedAt: now });
      else if (spoolFile) this.addKept({ id, spoolFile, bytes: MIN_FILE_BYTES, touchedAt: now });
    }
    await this.keepWithinBound();
    // One check at a time: a check takes the acknowledgements it reads, so a second one beside a
    // slow first would find a batch's taken, and its job gone, and send the batch again. The
    // check arms the next one when it ends.
    if (this.kept.size > 0 && !this.keptTimer && !this.checking && !this.closed) {
      this.keptTimer = setTimeout(() => {
        this.keptTimer = null;
        this.checking = this.checkKept(KEPT_CHECK_MAX)
          .catch((err: unknown) => this.logger.error({ err }, 'kept scan batches not checked'))
          .then(() => {
            this.checking = null;
            // Armed again by the next send when nothing is kept.
            if (this.kept.size > 0 && !this.closed) void this.keep([]);
          });
      }, KEPT_CHECK_MS);
      this.keptTimer.unref();
    }
  }

  private addKept(kept: Kept): void {
    this.kept.set(kept.id, kept);
    this.keptBytes += kept.bytes;
  }

  private takeKept(id: string): Kept | undefined {
    const kept = this.kept.get(id);
    if (!kept) return undefined;
    this.kept.delete(id);
    this.keptBytes -= kept.bytes;
    return kept;
  }

  /**
   * Past SCAN_SPOOL_MAX_MB the first kept batches in line are let go (the oldest sent, but for those
   * checked and found still queued, which go to the back): their files deleted, their scans left to
   * Redis alone.
   */
  private async keepWithinBound(): Promise<void> {
    const max = this.config.SCAN_SPOOL_MAX_MB * 1024 * 1024;
    let dropped = 0;
    for (const id of this.kept.keys()) {
      if (this.keptBytes <= max) break;
      await this.forgetFiles(this.takeKept(id)!);
      dropped++;
    }
    if (dropped === 0) return;
    const now = Date.now();
    if (now - this.lastKeptLog.bound < KEPT_LOG_INTERVAL_MS) return;
    this.lastKeptLog.bound = now;
    this.logger.error(
      { dropped, kept: this.kept.size, maxMb: this.config.SCAN_SPOOL_MAX_MB },
      'scan write-ahead over SCAN_SPOOL_MAX_MB: the oldest batches in Redis are no longer kept on disk, and a loss of Redis now would lose them',
    );
  }

  /**
   * One round over up to `max` kept batches: those Postgres has are let go, those neither in Redis
   * nor in Postgres are sent again. Either store being away leaves them kept, for the next round.
   */
  private async checkKept(max: number): Promise<void> {
    const ids: string[] = [];
    for (const id of this.kept.keys()) {
      if (ids.length === max) break;
      ids.push(id);
    }
    // Asked before Postgres: see the header.
    const gone = this.redis.status === 'ready' ? await this.notQueued(ids).catch(() => null) : null;
    let written: Set<string>;
    try {
      written = await takeScanBatchAcks(this.db, ids);
    } catch (err) {
      const now = Date.now();
      if (now - this.lastKeptLog.ack >= KEPT_LOG_INTERVAL_MS) {
        this.lastKeptLog.ack = now;
        this.logger.warn(
          { err: (err as Error).message, kept: this.kept.size },
          'Postgres unreachable: scan batches stay on disk until it is back',
        );
      }
      return;
    }
    const lost: Batch[] = [];
    const now = Date.now();
    for (const id of ids) {
      const kept = this.kept.get(id);
      if (!kept) continue;
      if (written.has(id)) {
        await this.forgetFiles(this.takeKept(id)!);
      } else if (gone?.has(id)) {
        const batch = await this.reload(this.takeKept(id)!);
        if (batch) lost.push(batch);
      } else {
        // Checked: to the back of the line.
        this.kept.delete(id);
        this.kept.set(id, kept);
        const file = kept.wal ?? kept.spoolFile;
        if (file && now - kept.touchedAt > WAL_ABANDONED_MS / 4) {
          kept.touchedAt = now;
          await utimes(file, now / 1000, now / 1000).catch(() => {});
        }
      }
    }
    if (lost.length === 0) return;
    const scans = lost.reduce((n, b) => n + b.count, 0);
    this.logger.warn({ batches: lost.length, scans }, 'scan batches gone from Redis before Postgres had them: sent again');
    this.counts.buffered += scans;
    this.batches.unshift(...lost);
    this.schedule(0);
  }

  /** Of these batches, those whose job Redis does not hold. */
  private async notQueued(ids: string[]): Promise<Set<string>> {
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.exists(this.queue.toKey(id));
    const replies = (await pipeline.exec()) ?? [];
    const gone = new Set<string>();
    replies.forEach(([err, exists], i) => {
      if (err) throw err;
      if (exists === 0) gone.add(ids[i]!);
    });
    return gone;
  }

  /** A kept batch back from its file, to be sent again; undefined (and let go) when the file is gone or unreadable. */
  private async reload(kept: Kept): Promise<Batch | undefined> {
    try {
      if (kept.wal) {
        const payload = payloadOfWriteAhead(await readFile(kept.wal, 'utf8'));
        const count = scanBatchSize(payload);
        return { id: kept.id, payload, count, since: Date.now(), wal: { path: kept.wal, fd: null, bytes: kept.bytes }, resent: true };
      }
      const spool = JSON.parse(await readFile(kept.spoolFile!, 'utf8')) as SpoolFile;
      const { payload } = spool.batches.find((b) => b.id === kept.id)!;
      return { id: kept.id, payload, count: scanBatchSize(payload), since: Date.now(), spoolFile: kept.spoolFile, resent: true };
    } catch (err) {
      // Gone: a redirect sharing the folder took it over (it saw the file as abandoned) and sends it.
      if (isGone(err)) this.logger.debug({ file: kept.wal ?? kept.spoolFile }, 'scan batch file taken over by another process');
      else
        this.logger.error({ file: kept.wal ?? kept.spoolFile, err }, 'scan batch gone from Redis and its file unreadable: not sent again');
      await this.forgetFiles(kept);
      return undefined;
    }
  }

  /** A batch done with (in Postgres, or let go): its write-ahead file deleted, its spool file once no other batch needs it. */
  private async forgetFiles({ wal, spoolFile }: { wal?: string | Batch['wal']; spoolFile?: string }): Promise<void> {
    const path = typeof wal === 'string' ? wal : wal?.path;
    if (path) await this.deleteFile(path, 'scan write-ahead file not deleted');
    if (!spoolFile) return;
    const left = this.spoolFiles.get(spoolFile)! - 1;
    this.spoolFiles.set(spoolFile, left);
    if (left > 0) return;
    this.spoolFiles.delete(spoolFile);
    await this.deleteFile(spoolFile, 'scan spool file not deleted');
  }

  /** Deletes a file; one already gone (another process sharing the folder took it over) is no failure. */
  private async deleteFile(file: string, failure: string): Promise<void> {
    await unlink(file).catch((err: unknown) => {
      if (isGone(err)) this.logger.debug({ file }, 'scan file already gone: taken over by another process');
      else this.logger.error({ file, err }, failure);
    });
  }

  /** Everything still buffered into one new spool file; spool files it came from are then covered by it. */
  private async spool(): Promise<void> {
    const dir = this.config.SCAN_SPOOL_DIR;
    await mkdir(dir, { recursive: true });
    const file = await this.writeSpoolFile(dir, { batches: this.batches.map(({ id, payload }) => ({ id, payload })) });
    const count = this.counts.buffered;
    this.counts.spooled += count;
    this.counts.buffered = 0;
    this.writePendingLines();
    for (const batch of this.batches) {
      sealWriteAhead(batch);
      // Covered by the new file: left behind, its scans would be sent again (and dropped by scan id).
      // A spool file some of whose batches are kept (sent, not in Postgres yet) stays for them.
      await this.forgetFiles(batch);
    }
    this.batches = [];
    this.logger.warn({ file, scans: count }, 'Redis unreachable at shutdown: scans spooled to disk');
  }

  /** A spool file, written atomically (a temporary file, fsync, rename); its path. */
  private async writeSpoolFile(dir: string, spool: SpoolFile): Promise<string> {
    const name = `scans-${Date.now()}-${process.pid}-${randomUUID()}`;
    const temporary = join(dir, `${name}.tmp`);
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(JSON.stringify(spool));
      await handle.sync();
    } finally {
      await handle.close();
    }
    const file = join(dir, `${name}.json`);
    await rename(temporary, file);
    return file;
  }

  /** Queues the scan's write-ahead line, to be written at the end of this turn. */
  private queueWriteAhead(batch: Batch, scan: RecordedScan): void {
    const line = this.writeAheadLine(scan);
    // At most three UTF-8 bytes per UTF-16 unit, and the newline.
    const most = this.turnLength + line.length * 3 + 1;
    if (most > this.turnBytes.length) {
      const larger = Buffer.allocUnsafeSlow(Math.max(most, this.turnBytes.length * 2));
      this.turnBytes.copy(larger, 0, 0, this.turnLength);
      this.turnBytes = larger;
    }
    this.turnLength += this.turnBytes.write(line, this.turnLength, 'utf8');
    this.turnBytes[this.turnLength++] = NEWLINE;
    const run = this.turnRuns[this.turnRuns.length - 1];
    if (run?.batch === batch) run.end = this.turnLength;
    else this.turnRuns.push({ batch, end: this.turnLength });
    if (!this.writeQueued) {
      this.writeQueued = true;
      setImmediate(() => this.writePendingLines());
    }
  }

  /**
   * The scan as one JSON line, as JSON.stringify(scan) gives it but for its origin, written as the
   * batch's tuple ([source, placementId, referrerHost, utmCampaign]); its visitor serialised once
   * per visitor.
   */
  private writeAheadLine({ id, linkId, accountId, at, visitor, visitorKey, origin }: RecordedScan): string {
    let visitorJson = this.visitorJson.get(visitor);
    if (visitorJson === undefined) {
      visitorJson = JSON.stringify(visitor);
      this.visitorJson.set(visitor, visitorJson);
    }
    return `{"id":${JSON.stringify(id)},"linkId":${JSON.stringify(linkId)},"accountId":${JSON.stringify(accountId)},"at":${JSON.stringify(at)},"visitor":${visitorJson},"visitorKey":${JSON.stringify(visitorKey)},"origin":${originJson(origin)}}`;
  }

  /**
   * Writes the queued lines, one synchronous write per batch file, then lets their answers go.
   * A failed write (a full disk) is logged, at most once a second; the scans are still buffered
   * and sent as usual, and their answers let go.
   */
  private writePendingLines(): void {
    let start = 0;
    for (const { batch, end } of this.turnRuns) {
      try {
        if (!batch.wal) {
          const path = this.walPath(batch.id);
          batch.wal = { path, fd: openSync(path, 'a'), bytes: 0 };
        }
        if (batch.wal.fd !== null) batch.wal.bytes += writeSync(batch.wal.fd, this.turnBytes, start, end - start);
      } catch (err) {
        const now = Date.now();
        if (now - this.lastWalErrorLog >= DROP_LOG_INTERVAL_MS) {
          this.lastWalErrorLog = now;
          this.logger.error({ err, dir: this.config.SCAN_SPOOL_DIR }, 'scan write-ahead failed: a kill -9 now could lose buffered scans');
        }
      }
      start = end;
    }
    this.turnRuns.length = 0;
    this.turnLength = 0;
    // A burst's larger buffer is let go; the usual turn fits the one kept.
    if (this.turnBytes.length > TURN_BYTES_KEPT) this.turnBytes = Buffer.allocUnsafeSlow(TURN_BYTES_KEPT);
    this.writeQueued = false;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) {
      try {
        waiter();
      } catch (err) {
        // One answer failing to go must not keep the others of its turn.
        this.logger.error({ err }, 'answer after the scan write-ahead failed');
      }
    }
  }

  /**
   * Takes over the write-ahead files of processes that are gone: each renamed to this process's
   * name (a rename is atomic: of two processes starting at once, one takes a file) and returned as
   * a batch to send under its own id. A line cut short by the kill is skipped.
   */
  private async recoverWriteAhead(dir: string): Promise<Batch[]> {
    const batches: Batch[] = [];
    let scans = 0;
    for (const name of (await readdir(dir)).sort()) {
      const owner = walFileOwner(name);
      if (!owner) continue;
      if (!(await ownerIsGone(dir, name, owner))) continue;
      const path = this.walPath(owner.batch);
      const text = await this.claim(join(dir, name), path);
      if (text === null) continue;
      const payload = payloadOfWriteAhead(text);
      const count = scanBatchSize(payload);
      if (count === 0) {
        await unlink(path).catch(() => {});
        continue;
      }
      batches.push({
        id: owner.batch,
        payload,
        count,
        since: Date.now(),
        wal: { path, fd: null, bytes: Buffer.byteLength(text) },
        resent: true,
      });
      scans += count;
    }
    if (batches.length > 0) this.logger.warn({ files: batches.length, scans }, 'scan write-ahead files of a stopped process taken over');
    return batches;
  }

  /**
   * A file of a stopped process made this one's: renamed to `to` (atomic: of the redirects sharing
   * the folder and starting at once, one takes it), touched, read; its text, or null when another
   * process took it first (the rename, or the read after a peer took it from under us, finds it gone).
   */
  private async claim(from: string, to: string): Promise<string | null> {
    try {
      await rename(from, to);
      const now = new Date();
      // A rename keeps the old time, which to a redirect of another host says "abandoned".
      await utimes(to, now, now);
      return await readFile(to, 'utf8');
    } catch (err) {
      if (isGone(err)) this.logger.debug({ file: from }, 'scan file taken over by another process');
      else this.logger.error({ file: from, err }, 'scan file of a stopped process not taken over; left in place');
      return null;
    }
  }

  /**
   * A spool file taken over: one no live process holds, renamed to this process's name (so peers
   * sharing the folder leave it alone until it is sent and Postgres has its batches).
   */
  private async claimSpoolFile(dir: string, name: string): Promise<{ file: string; text: string } | null> {
    const owner = spoolFileOwner(name)!;
    if (owner.host !== undefined && !(await ownerIsGone(dir, name, owner))) return null;
    const file = join(dir, `scans-${owner.base}~${HOST}-${process.pid}-${this.instance}.json`);
    const text = await this.claim(join(dir, name), file);
    return text === null ? null : { file, text };
  }

  /**
   * Moves into `dir` the files left in the spool folders this host used before under this Redis
   * namespace (it came back with another SCAN_SPOOL_DIR), so they are taken over like its own, and
   * names them in a warning. A live redirect's write-ahead files there are left alone.
   */
  private async takeOverStrandedFolders(dir: string): Promise<void> {
    const key = [HOST, this.config.REDIS_NAMESPACE];
    let folders: string[];
    try {
      const { rows } = await this.db.query<{ dir: string }>(
        `with seen as (
           insert into scan_spool_folders (host, namespace, dir) values ($1, $2, $3)
           on conflict (host, namespace, dir) do update set seen_at = now()
         )
         select dir from scan_spool_folders where host = $1 and namespace = $2 and dir <> $3 order by seen_at`,
        [...key, dir],
      );
      folders = rows.map((r) => r.dir);
    } catch (err) {
      this.logger.warn({ err }, 'Postgres unreachable: spool folders used before (SCAN_SPOOL_DIR) not looked at');
      return;
    }
    for (const folder of folders) {
      let names: string[];
      try {
        names = (await readdir(folder)).filter((n) => walFileOwner(n) !== null || SPOOL_FILE.test(n));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
          this.logger.error({ folder, err }, 'spool folder used before unreadable: scans left in it are not sent');
          continue;
        }
        names = [];
      }
      // Nothing can be stranded there any more.
      if (names.length === 0) {
        await this.db
          .query('delete from scan_spool_folders where host = $1 and namespace = $2 and dir = $3', [...key, folder])
          .catch(() => {});
        continue;
      }
      const moved: string[] = [];
      for (const name of names) {
        const owner = walFileOwner(name) ?? spoolFileOwner(name);
        if (owner?.host !== undefined && !(await ownerIsGone(folder, name, owner))) continue;
        if (await moveFile(join(folder, name), join(dir, name))) moved.push(name);
      }
      this.logger.warn(
        { folder, dir, moved: moved.length, left: names.length - moved.length, files: moved.slice(0, 20) },
        'scan files stranded in a spool folder this host used before (SCAN_SPOOL_DIR changed): moved into the new one and sent',
      );
    }
  }

  private walPath(batchId: string): string {
    return join(this.config.SCAN_SPOOL_DIR, `wal-${HOST}-${process.pid}-${this.instance}-${batchId}.log`);
  }
}

/** The common origins' JSON, made once: a code or a click with no placement, referrer or campaign. */
const PLAIN_ORIGINS = new Map<string | null, string>([null, ...SCAN_SOURCES].map((s) => [s, JSON.stringify([s, null, null, null])]));

/** An origin as a write-ahead line's tuple; the plain ones (nearly every scan) without serialising anything. */
function originJson(o: Readonly<ScanOrigin>): string {
  const plain = o.placementId === null && o.referrerHost === null && o.utmCampaign === null ? PLAIN_ORIGINS.get(o.source) : undefined;
  return plain ?? JSON.stringify([o.source, o.placementId, o.referrerHost, o.utmCampaign]);
}

/** A write-ahead line's origin tuple as a scan's origin; a line written before origins has none: unknown. */
function originOfLine(tuple: unknown): ScanOrigin {
  if (!Array.isArray(tuple)) return UNKNOWN_ORIGIN;
  const [source = null, placementId = null, referrerHost = null, utmCampaign = null] = tuple as Array<string | null>;
  return { source, placementId, referrerHost, utmCampaign };
}

/** A batch from a write-ahead file's lines; a line cut short by a kill is skipped. */
function payloadOfWriteAhead(text: string): ScanBatchPayload {
  const builder = new ScanBatchBuilder();
  const visitors = new Map<string, RecordedScan['visitor']>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    let scan: RecordedScan;
    try {
      const parsed = JSON.parse(line) as Omit<RecordedScan, 'origin'> & { origin?: unknown };
      scan = { ...parsed, origin: originOfLine(parsed.origin) };
    } catch {
      continue; // the last line, cut short by the kill
    }
    // One visitor object per distinct visitor, as the batch format expects.
    const visitorJson = JSON.stringify(scan.visitor);
    scan.visitor = visitors.get(visitorJson) ?? (visitors.set(visitorJson, scan.visitor), scan.visitor);
    builder.add(scan);
  }
  return builder.toPayload();
}

/**
 * The process that wrote a write-ahead file, read from its name. Parsed from the right, where every
 * part has a fixed form: a host name may hold dashes and digits, and a UUID's groups may be all
 * digits, so a loose pattern could take part of the batch id for the pid and the file for another host's.
 */
export function walFileOwner(name: string): { host: string; pid: number; instance: string; batch: string } | null {
  const match = /^wal-(.+)-(\d+)-([0-9a-f]{8})-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.log$/.exec(name);
  return match ? { host: match[1]!, pid: Number(match[2]), instance: match[3]!, batch: match[4]! } : null;
}

const SPOOL_FILE = /^scans-.*\.json$/;

/**
 * A spool file's name: `scans-<base>.json` as written at a shutdown, `scans-<base>~<host>-<pid>-<instance>.json`
 * once a starting process has taken it over (host names here never hold a `~`).
 */
function spoolFileOwner(name: string): { base: string; host?: string; pid?: number; instance?: string } | null {
  const match = /^scans-([^~]+?)(?:~(.+)-(\d+)-([0-9a-f]{8}))?\.json$/.exec(name);
  if (!match) return null;
  return match[2] === undefined ? { base: match[1]! } : { base: match[1]!, host: match[2], pid: Number(match[3]), instance: match[4]! };
}

/** A file system error saying the file is not there (any more). */
function isGone(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Whether the process that wrote this write-ahead file (or holds this spool file) is gone: on this host, a pid that no
 * longer runs, or ours with an instance no recorder of this process runs (an earlier process had
 * our pid); of another host (a container sharing the volume), a file untouched for WAL_ABANDONED_MS.
 */
async function ownerIsGone(dir: string, name: string, owner: { host?: string; pid?: number; instance?: string }): Promise<boolean> {
  const { host, pid, instance } = owner as { host: string; pid: number; instance: string };
  if (host === HOST) return pid === process.pid ? !LIVE_INSTANCES.has(instance) : !isAlive(pid);
  // Gone since the listing (its owner finished it): nothing to take over.
  const info = await stat(join(dir, name)).catch(() => null);
  return info !== null && Date.now() - info.mtimeMs > WAL_ABANDONED_MS;
}

/** Moves a file, across file systems too; false when it is gone (another process took it first). */
async function moveFile(from: string, to: string): Promise<boolean> {
  try {
    await rename(from, to);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') return false;
  }
  try {
    await copyFile(from, to, constants.COPYFILE_EXCL);
    await unlink(from);
    return true;
  } catch {
    return false;
  }
}

/** Closes a batch's write-ahead file: no scan joins the batch any more. */
function sealWriteAhead(batch: Batch): void {
  if (batch.wal?.fd == null) return;
  try {
    closeSync(batch.wal.fd);
  } catch {
    // already closed
  }
  batch.wal.fd = null;
}

/** Whether a process with this pid runs (EPERM: it does, as another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
