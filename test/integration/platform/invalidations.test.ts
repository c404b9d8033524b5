/**
 * The one pub/sub invalidation mechanism (platform/redis/invalidations.ts) against the real Redis,
 * its outage played by a TCP proxy: a message reaches its channel's listener only; a lost
 * connection counts as unsubscribed; its return tells every listener before it subscribes again.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '#platform/logger.js';
import { createRedis } from '#platform/redis/client.js';
import { Invalidations } from '#platform/redis/invalidations.js';
import { startTcpProxyFor, type TcpProxy } from '../../support/tcp-proxy.js';
import { until } from '../../support/until.js';

const REDIS_URL = process.env.REDIS_URL!;
const logger = createLogger({ LOG_LEVEL: 'silent' }, 'test');

let proxy: TcpProxy;
let publisher: Redis;

beforeAll(async () => {
  proxy = await startTcpProxyFor(REDIS_URL, 6379);
  publisher = new Redis(REDIS_URL);
});
afterAll(async () => {
  await proxy.close();
  await publisher.quit();
});

describe('Invalidations', () => {
  it('hands each message to its channel’s listener, and after an outage tells every listener before it counts as subscribed again', async () => {
    const subscriber = createRedis(proxy.url(REDIS_URL));
    const invalidations = new Invalidations(subscriber, logger);
    const heard = { a: [] as string[], b: [] as string[] };
    const reconnects = { a: 0, b: 0 };
    const [a, b] = [`test-invalidations-${randomUUID()}:a`, `test-invalidations-${randomUUID()}:b`];
    try {
      await invalidations.listen({ channel: a, onMessage: (p) => heard.a.push(p), onReconnect: () => reconnects.a++ });
      await invalidations.listen({ channel: b, onMessage: (p) => heard.b.push(p), onReconnect: () => reconnects.b++ });
      expect([invalidations.subscribed(a), invalidations.subscribed(b), invalidations.subscribed('other')]).toEqual([true, true, false]);
      await expect(invalidations.listen({ channel: a, onMessage: () => {}, onReconnect: () => {} })).rejects.toThrow(/listener already/);

      await publisher.publish(a, 'one');
      await publisher.publish(b, 'two');
      await until(() => heard.a.length === 1 && heard.b.length === 1);
      expect(heard).toEqual({ a: ['one'], b: ['two'] });
      expect(reconnects).toEqual({ a: 0, b: 0 });

      proxy.cut();
      await until(() => !invalidations.subscribed(a) && !invalidations.subscribed(b));
      // Sent while away: lost, which is what onReconnect is for.
      await publisher.publish(a, 'lost');
      proxy.restore();
      await until(() => invalidations.subscribed(a) && invalidations.subscribed(b));
      expect(reconnects).toEqual({ a: 1, b: 1 });
      await publisher.publish(a, 'three');
      await until(() => heard.a.length === 2);
      expect(heard.a).toEqual(['one', 'three']);

      subscriber.disconnect();
      await until(() => !invalidations.subscribed(a));
    } finally {
      subscriber.disconnect();
    }
  });
});
