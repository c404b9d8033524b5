/** Losing Postgres or Redis is logged once per outage, and its return once (platform/connection-watch.ts). */
import { createServer } from 'node:net';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ConnectionWatch } from '#platform/connection-watch.js';
import { createRedis } from '#platform/redis/client.js';
import { until } from '../../support/until.js';

function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  // A real logger, its lines written to this array as they are written to stdout.
  const logger = pino(
    { level: 'info' },
    {
      write(line: string) {
        const { level, msg } = JSON.parse(line) as { level: number; msg: string };
        lines.push({ level: pino.levels.labels[level] ?? String(level), message: msg });
      },
    },
  );
  return { logger, lines };
}

describe('ConnectionWatch', () => {
  it('one warning per outage however many errors, one line when back, nothing while up', () => {
    const { logger, lines } = recordingLogger();
    const watch = new ConnectionWatch('Redis', logger);
    watch.back();
    for (let i = 0; i < 5; i++) watch.lost(new Error('ECONNREFUSED'));
    watch.back();
    watch.back();
    watch.lost(new Error('ECONNRESET'));
    expect(lines).toEqual([
      { level: 'warn', message: 'Redis connection lost; reconnecting' },
      { level: 'info', message: 'Redis reachable again' },
      { level: 'warn', message: 'Redis connection lost; reconnecting' },
    ]);
  });

  it('a Redis connection retrying against a closed port logs the loss once', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const { logger, lines } = recordingLogger();
    const redis = createRedis(`redis://127.0.0.1:${port}`, logger);
    let errors = 0;
    redis.on('error', () => errors++);
    // Three failed attempts, not a fixed while: one line for all of them.
    await until(() => errors >= 3);
    redis.disconnect();
    expect(errors).toBeGreaterThan(1);
    expect(lines).toEqual([{ level: 'warn', message: 'Redis connection lost; reconnecting' }]);
  });
});
