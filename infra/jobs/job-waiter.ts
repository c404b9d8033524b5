/**
 * The "answer now or 202" contract of heavy endpoints (exports, bulk generation, cafe bulk
 * insert): the api queues an account job, waits for it up to JOB_WAIT_MS and answers its result
 * itself; past the wait, or when the client sent `Prefer: respond-async`, it answers 202 with the
 * job's status URL (docs/decisions/0064-answer-now-or-202.md).
 *
 * The jobs row is the truth a wait reads (it is what GET /jobs/:jobId shows, and trackAccountJob
 * writes it before BullMQ marks the job finished); BullMQ's queue events only wake the wait early,
 * and a slow poll of the row covers an event that never arrives (a dropped Redis connection, a job
 * failed by the stalled check).
 */
import { QueueEvents } from 'bullmq';
import type { Database } from '#domain/database.js';
import type { Redis } from '#platform/redis/client.js';
import { throttledWarning, type Logger } from '#platform/logger.js';
import { AppError } from '#domain/errors.js';
import type { JobResults, QueueName } from '#domain/jobs/job-kinds.js';
import { getJobView, type JobView } from '#domain/jobs/records.js';
import { within } from '#platform/with-timeout.js';

/** How often a wait reads the jobs row when no event has woken it. */
const POLL_MS = 1000;

/** How long a wait waits for its queue's event reader to start before it polls without one. */
const EVENTS_READY_WAIT_MS = 500;

export interface JobWaiterOptions {
  db: Database;
  redis: Redis;
  prefix: string;
  logger: Logger;
}

/** A reader that cannot start or errs (Redis away) costs only the early wake-up: waits poll. Said once a minute. */
const eventsUnavailable = throttledWarning('job events unavailable; waiting requests poll the job instead');

/** One per api process: a QueueEvents reader per queue waited on (made on first use), shared by every wait. */
export class JobWaiter {
  private readonly events = new Map<QueueName, Promise<QueueEvents>>();
  private readonly waking = new Set<() => void>();
  private stopping = false;

  constructor(private readonly opts: JobWaiterOptions) {}

  private eventsOf(queue: QueueName): Promise<QueueEvents> {
    let events = this.events.get(queue);
    if (!events) {
      // QueueEvents blocks on its connection: BullMQ gives it a duplicate of ours.
      const reader = new QueueEvents(queue, { connection: this.opts.redis, prefix: this.opts.prefix });
      // Its errors (Redis away) only cost the early wake-up; the poll still answers.
      reader.on('error', (err) => eventsUnavailable(this.opts.logger, err, { queue }));
      events = reader.waitUntilReady().then(() => reader);
      // A reader that could not start is dropped, so a later wait tries again.
      events.catch((err: unknown) => {
        eventsUnavailable(this.opts.logger, err, { queue });
        this.events.delete(queue);
        reader.close().catch((closeErr: unknown) => eventsUnavailable(this.opts.logger, closeErr, { queue, closing: true }));
      });
      this.events.set(queue, events);
    }
    return events;
  }

  /**
   * The queue's reader if it is ready within EVENTS_READY_WAIT_MS, else null: a reader that cannot
   * connect (Redis away) waits for Redis, and a wait must not.
   */
  private async readyEventsOf(queue: QueueName): Promise<QueueEvents | null> {
    return within(
      this.eventsOf(queue).catch(() => null),
      EVENTS_READY_WAIT_MS,
      null,
    );
  }

  /**
   * The job's view once it has completed or failed (or is `ready`: a job that publishes a result
   * before it ends, such as a bulk batch's links before their ZIP), or as it is when `waitMs` has
   * passed (or the process began to stop). Never throws for a job that failed: its view says so.
   */
  async wait<N extends QueueName>(
    queue: N,
    accountId: string,
    jobId: string,
    waitMs: number,
    ready?: (view: JobView<JobResults[N]>) => boolean,
  ): Promise<JobView<JobResults[N]>> {
    const deadline = Date.now() + waitMs;
    let woken = false;
    let wake = () => {
      woken = true;
    };
    const onEvent = () => wake();
    // Per-job events (`completed:<id>`) are emitted by QueueEvents but not in its typed listener map.
    // Without a reader (its failure is logged where it starts) the wait polls.
    const events = waitMs > 0 && !this.stopping ? ((await this.readyEventsOf(queue)) as NodeJS.EventEmitter | null) : null;
    events?.on(`completed:${jobId}`, onEvent);
    events?.on(`failed:${jobId}`, onEvent);
    // A job publishing a result early announces it with a progress event (publishInterimResult).
    if (ready) events?.on(`progress:${jobId}`, onEvent);
    this.waking.add(onEvent);
    try {
      for (;;) {
        woken = false;
        // The one place a stored result gets its type back: it is what queue N's processor answered,
        // and QueueProcessor<N> (infra/jobs/queues.ts) makes that processor answer JobResults[N].
        // The job this request started: read in its account, whoever the caller is.
        const view = (await getJobView(
          this.opts.db,
          { accountId, folderIds: null, userId: null, keyId: null, role: 'owner', scopes: ['all'] },
          jobId,
        )) as JobView<JobResults[N]>;
        const left = deadline - Date.now();
        if (view.state === 'completed' || view.state === 'failed' || ready?.(view) || left <= 0 || this.stopping) return view;
        // An event that came while the row was being read is not lost: `woken` is checked first.
        if (!woken) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(left, POLL_MS));
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = () => {
            woken = true;
          };
        }
      }
    } finally {
      this.waking.delete(onEvent);
      events?.off(`completed:${jobId}`, onEvent);
      events?.off(`failed:${jobId}`, onEvent);
      events?.off(`progress:${jobId}`, onEvent);
    }
  }

  /** Ends every wait now (each answers the job as it is: a 202) and takes no new ones; for shutdown. */
  stopWaiting(): void {
    this.stopping = true;
    for (const wake of this.waking) wake();
  }

  async close(): Promise<void> {
    this.stopWaiting();
    // A reader that never started was logged then, and has nothing to close.
    const started = await Promise.all([...this.events.values()].map((p) => p.catch(() => null)));
    this.events.clear();
    const readers = started.filter((r) => r !== null);
    await Promise.all(
      readers.map((r) => r.close().catch((err: unknown) => this.opts.logger.warn({ err }, 'job events reader did not close'))),
    );
  }
}

/** What a client asked for in `Prefer` (RFC 7240): `respond-async`, and/or `wait=<seconds>`. */
export interface Preferences {
  respondAsync: boolean;
  waitSeconds?: number;
}

export function parsePrefer(header: string | string[] | undefined): Preferences {
  const out: Preferences = { respondAsync: false };
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const item of text.split(',')) {
    const [token = '', value] = item
      .split(';')[0]!
      .split('=')
      .map((s) => s.trim().replace(/^"(.*)"$/, '$1'));
    const name = token.toLowerCase();
    if (name === 'respond-async') out.respondAsync = true;
    else if (name === 'wait' && value !== undefined && /^\d{1,9}$/.test(value)) out.waitSeconds = Number(value);
  }
  return out;
}

/** How long to wait for a job: none with respond-async, else JOB_WAIT_MS, shortened by `wait=`. */
export function waitMsFor(preferences: Preferences, jobWaitMs: number): number {
  if (preferences.respondAsync) return 0;
  return preferences.waitSeconds === undefined ? jobWaitMs : Math.min(jobWaitMs, preferences.waitSeconds * 1000);
}

/** A job the api waited for failed (after its last attempt): its one-line error, as a 503 the client may retry. */
export class JobFailedError extends AppError {
  constructor(view: JobView) {
    super('job_failed', { message: `The job ${view.id} failed: ${view.error ?? 'unknown error'}` }, { 'retry-after': '1' });
  }
}
