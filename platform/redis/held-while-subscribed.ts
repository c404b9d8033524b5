import { BoundedCache } from '../bounded-cache.js';
import type { Logger } from '../logger.js';
import type { Redis } from './client.js';
import type { Invalidations } from './invalidations.js';

/**
 * Answers a process may hold (accepted API keys, sessions) only while it hears, on a channel,
 * every change that could make one wrong: while the channel is not subscribed nothing is answered
 * from it or added to it, and a reconnection forgets it all (messages sent meanwhile are lost).
 * A lookup takes a `ticket` before it reads Postgres and `keep`s its answer with it: an answer
 * read across a change is not kept, so a slow read cannot put back what an announcement removed.
 */
export class HeldWhileSubscribed<V> {
  private readonly held: BoundedCache<string, V>;
  private invalidations: Invalidations | null = null;
  private channel = '';
  /** Bumped by every change heard and every reconnection. */
  private epoch = 0;

  /**
   * `forget`: what a message drops; `named`, the entry its payload names (a key's hash); `all`,
   * everything (the payload names something entries cannot be found by, such as a user).
   */
  constructor(
    max: number,
    private readonly forget: 'named' | 'all',
  ) {
    this.held = new BoundedCache(max);
  }

  /** Subscribes, waiting at most `waitMs`; entries are held from when the subscription is confirmed. */
  async listen(invalidations: Invalidations, channel: string, waitMs: number): Promise<void> {
    this.invalidations = invalidations;
    this.channel = channel;
    const changed = (named?: string) => {
      if (named !== undefined && this.forget === 'named') this.held.delete(named);
      else this.held.clear();
      this.epoch++;
    };
    await invalidations.listen({ channel, onMessage: (payload) => changed(payload), onReconnect: () => changed() }, waitMs);
  }

  private get listening(): boolean {
    return this.invalidations?.subscribed(this.channel) ?? false;
  }

  get(key: string): V | undefined {
    return this.listening ? this.held.get(key) : undefined;
  }

  /** Taken before a lookup whose answer may be kept. */
  ticket(): number {
    return this.epoch;
  }

  /** Holds `value` unless a change was heard since `ticket` or nothing is being heard. */
  keep(ticket: number, key: string, value: V): void {
    if (this.listening && ticket === this.epoch) this.held.set(key, value);
  }
}

/** How long an announcement waits for Redis to confirm it before its caller answers anyway. */
const ANNOUNCE_WAIT_MS = 1000;

/**
 * Publishes each payload once on `channel` (one round trip), so every process holding one forgets
 * it. Resolves when Redis confirms or after ANNOUNCE_WAIT_MS: a revocation answers in bounded
 * time while Redis is away, and the message goes when it is back (the offline queue); `what`
 * names the change in the log.
 */
export async function announceChanges(
  announcer: { redis: Redis; logger?: Logger },
  channel: string,
  payloads: readonly string[],
  what: string,
): Promise<void> {
  if (payloads.length === 0) return;
  const tx = announcer.redis.multi();
  for (const payload of new Set(payloads)) tx.publish(channel, payload);
  const done = tx.exec().then(
    () => true,
    (err: unknown) => {
      announcer.logger?.error({ err }, `${what} announcement failed`);
      return false;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const confirmed = await Promise.race([done, new Promise<null>((r) => (timer = setTimeout(() => r(null), ANNOUNCE_WAIT_MS)))]);
  clearTimeout(timer);
  if (confirmed === null) announcer.logger?.warn(`${what} announcement is waiting for Redis`);
}
