/**
 * A Postgres LISTEN kept up: one connection of its own (a pooled one cannot hold a LISTEN), made
 * again a second or more after it drops. Notifications are hints: a caller that must not miss
 * work also looks on a timer, since those sent while the connection was down are lost.
 */
import pg from 'pg';
import type { Logger } from '../logger.js';

export interface Listening {
  close(): Promise<void>;
}

export function listenForNotifications(url: string, channel: string, onNotify: () => void, logger: Logger): Listening {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let backoffMs = 1000;

  const connect = async () => {
    retry = null;
    if (closed) return;
    const c = new pg.Client({ connectionString: url, keepAlive: true, connectionTimeoutMillis: 5000 });
    c.on('notification', () => onNotify());
    c.on('error', () => dropped(c));
    c.on('end', () => dropped(c));
    try {
      await c.connect();
      await c.query(`listen ${pg.escapeIdentifier(channel)}`);
      if (closed) {
        await c.end().catch(() => undefined);
        return;
      }
      client = c;
      backoffMs = 1000;
      // Whatever was notified while down is looked for now.
      onNotify();
    } catch (err) {
      logger.debug({ err: (err as Error).message, channel }, 'LISTEN connection failed');
      await c.end().catch(() => undefined);
      schedule();
    }
  };
  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(() => void connect(), backoffMs);
    retry.unref();
    backoffMs = Math.min(backoffMs * 2, 30_000);
  };
  const dropped = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    c.end().catch(() => undefined);
    schedule();
  };
  void connect();
  return {
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}
