/** The real redirect process's app on a random port, over the same context as a test api. */
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { request, type IncomingHttpHeaders } from 'node:http';
import { links, scans } from '#domain/schema.js';
import { buildRedirectApp } from '#redirect/app.js';
import type { AppContext } from '#infra/context.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from './harness.js';

export interface TestRedirect {
  app: FastifyInstance;
  base: string;
  /** fetch against the redirect process; never follows redirects. */
  get(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** `port`: one chosen beforehand (freePort), when SHORT_URL_BASE must name it. */
export async function startTestRedirect(ctx: AppContext, port = 0): Promise<TestRedirect> {
  const app = await buildRedirectApp(ctx);
  await app.listen({ host: '127.0.0.1', port });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    app,
    base,
    get: (path, init) => fetch(`${base}${path}`, { redirect: 'manual', ...init }),
    close: () => app.close(),
  };
}

/** A GET whose body is not decoded (fetch would): the bytes as sent, for checking compression. */
export function rawGet(
  redirect: TestRedirect,
  path: string,
  acceptEncoding: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${redirect.base}${path}`, { headers: { ...headers, 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

export interface PageTapOptions {
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * A tap on a hosted page's action as Chromium's ping sends it (POST /_/tap/<slug>/<action>,
 * text/ping, the Fetch Metadata of a same-origin beacon), from `userAgent`. Over node:http:
 * fetch sets Sec-Fetch-Mode itself ("cors"), as a browser's fetch would.
 */
export function pageTap(
  redirect: TestRedirect,
  slug: string,
  action: string,
  userAgent: string,
  init: PageTapOptions = {},
): Promise<{ status: number; json(): Promise<{ code?: string }> }> {
  const headers = {
    'content-type': 'text/ping',
    'user-agent': userAgent,
    'sec-fetch-site': 'same-origin',
    'sec-fetch-mode': 'no-cors',
    'sec-fetch-dest': 'empty',
    ...init.headers,
  };
  return new Promise((resolve, reject) => {
    request(`${redirect.base}/_/tap/${slug}/${action}`, { method: init.method ?? 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, json: async () => JSON.parse(text) as { code?: string } });
      });
    })
      .on('error', reject)
      .end(init.body ?? 'PING');
  });
}

/** Real user agents for scans through the redirect: three browsers on three systems, and a bot. */
export const SCAN_USER_AGENTS = {
  iosSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
};

/** The whole scan path for a test file: the api, the redirect app, the workers and one account. */
export interface ScanStack {
  api: TestApi;
  redirect: TestRedirect;
  workers: RunningWorkers;
  me: TestAccount;
  /** Creates a link through the api (throws unless 200); its row. */
  createLink(body: Record<string, unknown>): Promise<typeof links.$inferSelect>;
  /** Waits until the worker has ingested `n` scans of the link (then a little longer, to see no more arrive); the scans. */
  waitForScans(linkId: string, n: number, timeoutMs?: number): Promise<Array<typeof scans.$inferSelect>>;
  close(): Promise<void>;
}

export async function startScanStack(
  apiOverrides: Record<string, string> = {},
  account: Parameters<typeof createTestAccount>[1] = {},
): Promise<ScanStack> {
  const api = await startTestApi(apiOverrides);
  const redirect = await startTestRedirect(api.ctx);
  const workers = await startWorkers(api.ctx);
  const me = await createTestAccount(api.ctx, account);
  const scansOf = (linkId: string) => api.ctx.db.select().from(scans).where(eq(scans.linkId, linkId));
  return {
    api,
    redirect,
    workers,
    me,
    async createLink(body) {
      const { id } = await createLinkVia(api.app, me.key, body);
      const [row] = await api.ctx.db.select().from(links).where(eq(links.id, id));
      return row!;
    },
    async waitForScans(linkId, n, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const [row] = await api.ctx.db.select({ n: count() }).from(scans).where(eq(scans.linkId, linkId));
        if (row!.n >= n || Date.now() > end) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => setTimeout(r, 150));
      return scansOf(linkId);
    },
    async close() {
      await redirect.close();
      await workers.close();
      await api.close();
    },
  };
}
