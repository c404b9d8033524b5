/**
 * The api writes one log line per request, when it completes, and none for a health check
 * (/health, /ready, /metrics) that succeeds; a failing one is logged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApiApp } from '#api/app.js';
import { captureLogs, type CapturedLogs } from '../../support/logs.js';
import { createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';

describe('api request log', () => {
  let api: TestApi;
  let app: FastifyInstance;
  let logs: CapturedLogs;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi();
    logs = captureLogs();
    app = await buildApiApp({ ...api.ctx, logger: logs.logger });
    await app.ready();
    key = (await createTestAccount(api.ctx)).key;
  });
  afterAll(async () => {
    await app?.close();
    await api?.close();
  });

  const requestLines = () => logs.lines().filter((l) => l.req !== undefined || l.res !== undefined);

  it('writes one line per request with method, URL, status and time', async () => {
    const before = requestLines().length;
    const res = await app.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Basic ${key}` } });
    expect(res.statusCode).toBe(200);
    const lines = requestLines().slice(before);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ msg: 'request completed', req: { method: 'GET', url: '/api/v1/me' }, res: { statusCode: 200 } });
    expect(lines[0]!.responseTime).toEqual(expect.any(Number));
    expect(lines[0]!.reqId).toBe(res.headers['x-request-id']);
  });

  it('writes none for health checks that pass, and one for a failing check', async () => {
    const before = requestLines().length;
    for (const url of ['/health', '/ready', '/ready?probe=1', '/metrics']) {
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    }
    expect(requestLines().slice(before)).toEqual([]);
    // Draining: /ready fails (503), and that is worth a line.
    await app.drain(0);
    expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(503);
    expect(requestLines().slice(before)).toMatchObject([{ req: { url: '/ready' }, res: { statusCode: 503 } }]);
  });
});
