/**
 * Counting taps on a page's actions (docs/decisions/0434-page-action-taps.md). A tap counts once
 * per visitor, action, link and UTC day: the first one sets a Redis key named by the visitor key
 * (a daily-salted hash, no cookie) with SET NX, expiring just after its day; any later tap of the
 * same finds the key and is not counted, so a flood of beacons adds at most one.
 *
 * Counted taps are added up in this process and written to page_action_days every second (and
 * at close) in one statement, never a Postgres write per tap: a crash loses at most the taps of
 * the last second. A link deleted meanwhile drops out of the statement (its rows went with it).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../database.js';
import type { Logger } from '#platform/logger.js';
import type { Redis } from '#platform/redis/client.js';
import type { PageAction } from './actions.js';

const DAY_MS = 86_400_000;
/** How long a day's "already tapped" keys outlive it: a tap begun just before midnight is still answered. */
const GRACE_SECONDS = 600;
const FLUSH_MS = 1000;
/**
 * The most (link, day, action) counts held while Postgres is away; past it new taps are dropped
 * (and logged) rather than kept without bound. Each count is one row of the next flush.
 */
const MAX_PENDING = 50_000;

interface PendingCount {
  linkId: string;
  day: string;
  action: PageAction;
  taps: number;
}

export interface PageTapsDeps {
  /** The scan path's fail-fast connection: a tap must fail, not wait, while Redis is away. */
  redis: Redis;
  db: Database;
  /** REDIS_NAMESPACE. */
  prefix: string;
  logger: Logger;
  flushMs?: number;
}

export type TapOutcome = 'counted' | 'repeated' | 'unavailable';

export class PageTaps {
  private pending = new Map<string, PendingCount>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private droppedSinceLog = 0;
  /** Taps counted by this process, and written: for tests and metrics. */
  readonly stats = { counted: 0, repeated: 0, written: 0 };

  constructor(private readonly deps: PageTapsDeps) {}

  start(): void {
    this.timer = setInterval(() => void this.flush(), this.deps.flushMs ?? FLUSH_MS);
    this.timer.unref();
  }

  /** Counts the tap unless this visitor tapped the same action of the link earlier this UTC day. */
  async tap(linkId: string, action: PageAction, visitorKey: string, now: number): Promise<TapOutcome> {
    const dayNumber = Math.floor(now / DAY_MS);
    const day = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
    const key = `${this.deps.prefix}:tap:${day}:${linkId}:${action}:${visitorKey}`;
    let first: string | null;
    try {
      first = await this.deps.redis.set(key, '', 'EXAT', (dayNumber + 1) * (DAY_MS / 1000) + GRACE_SECONDS, 'NX');
    } catch (err) {
      // Without Redis a tap cannot be told from a repeat: not counting it keeps the funnel honest.
      this.deps.logger.debug({ err: (err as Error).message }, 'page tap not counted: Redis unavailable');
      return 'unavailable';
    }
    if (first === null) {
      this.stats.repeated++;
      return 'repeated';
    }
    this.add({ linkId, day, action, taps: 1 });
    this.stats.counted++;
    return 'counted';
  }

  private add(count: PendingCount): void {
    const key = `${count.linkId}|${count.day}|${count.action}`;
    const held = this.pending.get(key);
    if (held) held.taps += count.taps;
    else if (this.pending.size < MAX_PENDING) this.pending.set(key, { ...count });
    else this.droppedSinceLog += count.taps;
  }

  /** Writes the counts held so far; one flush at a time. Never fails: a failed write is kept for the next. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.write());
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.droppedSinceLog > 0) {
      this.deps.logger.warn({ taps: this.droppedSinceLog }, 'page taps dropped: too many counts waiting for Postgres');
      this.droppedSinceLog = 0;
    }
    if (this.pending.size === 0) return;
    const counts = [...this.pending.values()];
    this.pending = new Map();
    const rows = JSON.stringify(counts.map((c) => ({ link_id: c.linkId, day: c.day, action: c.action, taps: c.taps })));
    try {
      // The account comes from the link itself, and a link deleted since its taps drops out here.
      await this.deps.db.execute(sql`insert into page_action_days (link_id, account_id, day, action, taps)
        select t.link_id, l.account_id, t.day, t.action, t.taps
        from json_to_recordset(${rows}::json) as t(link_id uuid, day date, action text, taps int)
        join links l on l.id = t.link_id
        on conflict (link_id, day, action) do update set taps = page_action_days.taps + excluded.taps`);
      this.stats.written += counts.reduce((n, c) => n + c.taps, 0);
    } catch (err) {
      this.deps.logger.error({ err }, 'page taps could not be written; kept for the next flush');
      for (const c of counts) this.add(c);
    }
  }

  /** Stops the timer and writes what is held: the server has stopped taking taps when this runs. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
