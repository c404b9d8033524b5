/**
 * TRUSTED_PROXIES: X-Forwarded-For is believed only from the peers it lists, so behind a load
 * balancer left out of it every limit counts the balancer as one client. The api and the redirect
 * warn when a request brings X-Forwarded-For from a peer not in the list: at the first one, then
 * at most once an hour. Real sockets (the warning listens on the server's `request` event), and a
 * real logger whose lines the test reads.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiApp } from '#api/app.js';
import type { AppContext } from '#infra/context.js';
import type { Logger } from '#platform/logger.js';
import { startTestApi, type TestApi } from '../../support/harness.js';
import { captureLogs, type CapturedLogs } from '../../support/logs.js';
import { startTestRedirect } from '../../support/redirect.js';

let api: TestApi;
const opened: FastifyInstance[] = [];

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await Promise.all(opened.map((app) => app.close()));
  await api?.close();
});

const ctxWith = (logger: Logger, trustedProxies: string): AppContext => ({
  ...api.ctx,
  logger,
  config: { ...api.ctx.config, TRUSTED_PROXIES: trustedProxies },
});

/** Each role's app on a real port, logging to `logs`; its base URL. */
const ROLES: Record<string, (ctx: AppContext) => Promise<string>> = {
  api: async (ctx) => {
    const app = await buildApiApp(ctx);
    opened.push(app);
    await app.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  },
  redirect: async (ctx) => {
    const redirect = await startTestRedirect(ctx);
    opened.push(redirect.app);
    return redirect.base;
  },
};

const forwardingWarnings = (logs: CapturedLogs) =>
  logs.lines().filter((l) => l.msg.includes('X-Forwarded-For from a peer not in TRUSTED_PROXIES'));

describe.each(Object.keys(ROLES))('the %s', (role) => {
  it('warns once at the first request with X-Forwarded-For from a peer not in TRUSTED_PROXIES, naming the peer', async () => {
    const logs = captureLogs();
    const base = await ROLES[role]!(ctxWith(logs.logger, ''));
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect(forwardingWarnings(logs)).toEqual([]);
    for (const client of ['203.0.113.7', '198.51.100.8', '203.0.113.7']) {
      expect((await fetch(`${base}/health`, { headers: { 'x-forwarded-for': client } })).status).toBe(200);
    }
    const warnings = forwardingWarnings(logs);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
    expect(warnings[0]!.peer).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(warnings[0]!.msg).toMatch(/rate limits/);
  });

  it('says nothing when the peer is a trusted proxy', async () => {
    const logs = captureLogs();
    const base = await ROLES[role]!(ctxWith(logs.logger, '127.0.0.1'));
    expect((await fetch(`${base}/health`, { headers: { 'x-forwarded-for': '203.0.113.7' } })).status).toBe(200);
    expect(forwardingWarnings(logs)).toEqual([]);
  });
});
