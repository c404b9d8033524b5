import type { Logger } from '../logger.js';
import type { Redis } from './client.js';

/** A cache kept in step with the others by messages on a channel of its own. */
export interface InvalidationListener {
  /** Where its changes are published (one listener a channel). */
  channel: string;
  /** A message of its channel: drop what the payload names. */
  onMessage(payload: string): void;
  /**
   * The connection is back after a loss, before the channel is subscribed again: messages sent
   * while it was away are lost, so whatever they may have changed must be forgotten.
   */
  onReconnect(): void;
}

interface Channel {
  listener: InvalidationListener;
  /** A SUBSCRIBE of ours was confirmed on the connection that is up now. */
  subscribed: boolean;
  /** A SUBSCRIBE of ours is on its way (a reconnection resends it). */
  subscribing: boolean;
}

/**
 * Invalidations by Redis pub/sub, for every cache of a process over one subscriber connection.
 * A message reaches the listener of its channel. A reconnection tells every listener first
 * (`onReconnect`), then subscribes each channel again: ioredis resubscribes on its own, and our
 * SUBSCRIBE, sent after its, is confirmed after it. From a loss of the connection until then a
 * channel is not `subscribed`: a message could be missed, so what only messages keep right (an
 * entry past its time, a key accepted earlier) must not be trusted.
 */
export class Invalidations {
  private readonly channels = new Map<string, Channel>();
  private connectedBefore: boolean;

  /**
   * `subscriber`: a connection of its own (a subscribed one can run nothing else), with an offline
   * queue: a SUBSCRIBE while Redis is away must wait for the connection rather than fail.
   */
  constructor(
    private readonly subscriber: Redis,
    private readonly logger: Logger,
  ) {
    this.connectedBefore = subscriber.status === 'ready';
    subscriber.on('message', (channel: string, payload: string) => this.channels.get(channel)?.listener.onMessage(payload));
    const lost = () => {
      for (const channel of this.channels.values()) channel.subscribed = false;
    };
    subscriber.on('close', lost);
    subscriber.on('end', lost);
    subscriber.on('reconnecting', lost);
    subscriber.on('ready', () => {
      if (this.connectedBefore) for (const channel of this.channels.values()) channel.listener.onReconnect();
      this.connectedBefore = true;
      for (const channel of this.channels.values()) if (!channel.subscribing) void this.subscribe(channel);
    });
  }

  /**
   * Subscribes the listener's channel, waiting at most `waitMs` for Redis; the subscription
   * completes whenever Redis comes up.
   */
  async listen(listener: InvalidationListener, waitMs = 2000): Promise<void> {
    if (this.channels.has(listener.channel)) throw new Error(`${listener.channel} has a listener already`);
    const channel: Channel = { listener, subscribed: false, subscribing: false };
    this.channels.set(listener.channel, channel);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.subscribe(channel), new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
  }

  /** Whether every message of the channel reaches its listener now. */
  subscribed(channel: string): boolean {
    return this.channels.get(channel)?.subscribed ?? false;
  }

  private subscribe(channel: Channel): Promise<void> {
    channel.subscribing = true;
    return this.subscriber
      .subscribe(channel.listener.channel)
      .then(
        () => {
          channel.subscribed = this.subscriber.status === 'ready';
        },
        (err: unknown) =>
          this.logger.warn({ err, channel: channel.listener.channel }, 'invalidations: subscribe failed; the channel counts as down'),
      )
      .finally(() => (channel.subscribing = false));
  }
}
