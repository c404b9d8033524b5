/**
 * QR rendering under abuse, over real HTTP with real render threads: accounts share the threads
 * fairly (one account's backlog never queues another's render behind it; past a per-account
 * waiting bound it is a 429), a render that runs out of time is a 503 with Retry-After, and a
 * centre image of too many pixels is refused where options are written and where they are drawn.
 * Assertions are about order and status, never about durations (the machine is shared).
 */
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { links, templates } from '#domain/schema.js';
import { withQrDefaults } from '#domain/qr/options.js';
import { RENDER_BUSY_MESSAGE, RENDER_TIMEOUT_MESSAGE } from '#domain/qr/renderer.js';
import { pngBytes } from '../../support/fixtures.js';
import { createTestAccount, type TestAccount, type TestApi, startTestApi } from '../../support/harness.js';

interface HttpApi extends TestApi {
  origin: string;
}

async function startHttpApi(overrides: Record<string, string>): Promise<HttpApi> {
  const api = await startTestApi(overrides);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...api, origin: `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}/api/v1` };
}

async function request(api: HttpApi, acct: TestAccount, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${api.origin}${path}`, {
    method,
    headers: { authorization: `Basic ${acct.key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
}

async function newLink(api: HttpApi, acct: TestAccount, qrOptions: Record<string, unknown> = {}): Promise<string> {
  const res = await request(api, acct, 'POST', '/links', { name: 'qr', type: 'website', data: { url: 'https://example.com' }, qrOptions });
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

async function until(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// A heavy render (about a second here): the biggest code, error level H and a logo.
const logo = `data:image/png;base64,${pngBytes(512, 512, [30, 90, 200]).toString('base64')}`;
const heavyStyle = { image: logo, qrOptions: { errorCorrectionLevel: 'H' }, imageOptions: { imageSize: 0.4 } };

describe('render threads are shared fairly between accounts', () => {
  let api: HttpApi;
  let flooder: TestAccount;
  let other: TestAccount;
  let heavy: string;
  let light: string;

  beforeAll(async () => {
    // Two threads, one per account at a time, four renders of an account may wait; a time limit
    // no render here reaches, however slow the machine.
    api = await startHttpApi({
      QR_RENDER_THREADS: '2',
      QR_RENDER_ACCOUNT_THREADS: '1',
      QR_RENDER_ACCOUNT_QUEUE: '4',
      QR_RENDER_TIMEOUT_MS: '600000',
    });
    flooder = await createTestAccount(api.ctx);
    other = await createTestAccount(api.ctx);
    heavy = await newLink(api, flooder, heavyStyle);
    light = await newLink(api, other);
  });
  afterAll(() => api?.close());

  // Every size is a different picture, so nothing comes from the cache.
  let nextSize = 4096;
  const floodOne = () => request(api, flooder, 'GET', `/links/${heavy}/qr?size=${nextSize--}`);

  it("one account's backlog of big renders does not queue another account's small render behind it", async () => {
    const finished: string[] = [];
    const flood = Array.from({ length: 5 }, (_, i) =>
      floodOne().then(async (res) => {
        finished.push(`flood-${i}`);
        return res.status;
      }),
    );
    // All five reached the renderer: one running (its account's cap), four waiting.
    await until('the flood to be queued', () => {
      const load = api.ctx.qr.load(flooder.accountId);
      return load.running + load.waiting === 5;
    });
    expect(api.ctx.qr.load(flooder.accountId)).toEqual({ running: 1, waiting: 4 });

    const small = await request(api, other, 'GET', `/links/${light}/qr?size=200`);
    finished.push('other');
    expect(small.status).toBe(200);
    expect(small.headers.get('x-qr-cache')).toBe('miss');
    // The other account's render took the free thread: at most the one flood render that was
    // already running can have finished first (a single shared queue puts it behind all five).
    expect(finished.indexOf('other')).toBeLessThanOrEqual(1);
    expect(await Promise.all(flood)).toEqual([200, 200, 200, 200, 200]);
  }, 180_000);

  it('past its waiting bound an account gets 429 with Retry-After; other accounts are still served', async () => {
    const flood = Array.from({ length: 5 }, () => floodOne());
    await until('the flood to be queued', () => {
      const load = api.ctx.qr.load(flooder.accountId);
      return load.running + load.waiting === 5;
    });
    const extra = await Promise.all(Array.from({ length: 3 }, () => floodOne()));
    const refused = extra.filter((r) => r.status === 429);
    // The first running render could end just as the extras arrive and let one in; never all three.
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const res of extra) expect([200, 429]).toContain(res.status);
    for (const res of refused) {
      expect(await res.json()).toEqual({ code: 'render_busy', message: RENDER_BUSY_MESSAGE });
      expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    }
    const small = await request(api, other, 'GET', `/links/${light}/qr?size=201`);
    expect(small.status).toBe(200);
    expect((await Promise.all(flood)).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  }, 180_000);
});

describe('renders without a waiting bound (how the worker renders bulk ZIPs)', () => {
  let api: HttpApi;

  beforeAll(async () => {
    api = await startHttpApi({
      QR_RENDER_THREADS: '1',
      QR_RENDER_ACCOUNT_THREADS: '1',
      QR_RENDER_ACCOUNT_QUEUE: '2',
      QR_RENDER_TIMEOUT_MS: '600000',
    });
  });
  afterAll(() => api?.close());

  it('wait instead of being refused, and another account still goes next', async () => {
    const big = withQrDefaults({ qrOptions: { errorCorrectionLevel: 'H' } }, 'http://localhost:3001/bulk');
    big.width = big.height = 4000;
    const small = withQrDefaults({}, 'http://localhost:3001/other');
    const finished: string[] = [];
    // Eight renders of one account, past QR_RENDER_ACCOUNT_QUEUE: none is refused (no maxWaiting).
    const bulk = Array.from({ length: 8 }, (_, i) =>
      api.ctx.qr.render('png', big, null, { accountId: 'bulk-account' }).then(() => finished.push(`bulk-${i}`)),
    );
    expect(api.ctx.qr.load('bulk-account')).toEqual({ running: 1, waiting: 7 });
    await api.ctx.qr.render('png', small, null, { accountId: 'other-account' });
    finished.push('other');
    await Promise.all(bulk);
    expect(finished).toHaveLength(9);
    // One thread: the other account's render ran right after the render that was running.
    expect(finished.indexOf('other')).toBeLessThanOrEqual(1);
  }, 180_000);
});

describe('a render that runs out of time', () => {
  let api: HttpApi;
  let me: TestAccount;

  // Nothing renders in a millisecond, so every render times out.
  beforeAll(async () => {
    api = await startHttpApi({ QR_RENDER_TIMEOUT_MS: '1' });
    me = await createTestAccount(api.ctx);
  });
  afterAll(() => api?.close());

  it('is a 503 with Retry-After and the documented body, never a 500 (link code and template preview)', async () => {
    const id = await newLink(api, me);
    const res = await request(api, me, 'GET', `/links/${id}/qr?size=1024`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await res.json()).toEqual({ code: 'render_timeout', message: RENDER_TIMEOUT_MESSAGE });

    const tpl = (await (await request(api, me, 'POST', '/templates', { name: 't', qrOptions: {} })).json()) as { id: string };
    const preview = await request(api, me, 'GET', `/templates/${tpl.id}/preview`);
    expect(preview.status).toBe(503);
    expect(preview.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await preview.json()).toEqual({ code: 'render_timeout', message: RENDER_TIMEOUT_MESSAGE });
  });
});

describe('a centre image of too many pixels', () => {
  let api: HttpApi;
  let me: TestAccount;
  // What the probe sent: 8000 × 8000 px, under 200 KB as PNG, hundreds of MB once decoded.
  const huge = `data:image/png;base64,${pngBytes(8000, 8000, [250, 250, 250]).toString('base64')}`;
  const refusal = (path: string) => ({
    code: 'validation_failed',
    message: 'Validation failed',
    errors: [{ path, message: 'Image has more than 4,194,304 pixels (2048 × 2048); scale it down' }],
  });

  beforeAll(async () => {
    api = await startHttpApi({});
    me = await createTestAccount(api.ctx);
  });
  afterAll(() => api?.close());

  it('is a 400 naming the field where options are written', async () => {
    const create = await request(api, me, 'POST', '/links', {
      name: 'x',
      type: 'website',
      data: { url: 'https://example.com' },
      qrOptions: { image: huge },
    });
    expect(create.status).toBe(400);
    expect(await create.json()).toEqual(refusal('qrOptions.image'));

    const id = await newLink(api, me);
    const patch = await request(api, me, 'PATCH', `/links/${id}`, { qrCode: { image: huge } });
    expect(patch.status).toBe(400);
    expect(await patch.json()).toEqual(refusal('qrCode.image'));

    const put = await request(api, me, 'PUT', `/links/${id}`, {
      name: 'x',
      type: 'website',
      data: { url: 'https://example.com' },
      qrOptions: { image: huge },
    });
    expect(put.status).toBe(400);
    expect(await put.json()).toEqual(refusal('qrOptions.image'));

    const tpl = await request(api, me, 'POST', '/templates', { name: 't', qrOptions: { image: huge } });
    expect(tpl.status).toBe(400);
    expect(await tpl.json()).toEqual(refusal('qrOptions.image'));
  });

  it('is a 400 naming the field when options stored before the limit are rendered', async () => {
    const id = await newLink(api, me);
    await api.ctx.db
      .update(links)
      .set({ qrOptions: sql`jsonb_set(${links.qrOptions}, '{image}', to_jsonb(${huge}::text))` })
      .where(eq(links.slug, id));
    const res = await request(api, me, 'GET', `/links/${id}/qr`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual(refusal('qr_options.image'));

    const tpl = (await (await request(api, me, 'POST', '/templates', { name: 't', qrOptions: {} })).json()) as { id: string };
    await api.ctx.db
      .update(templates)
      .set({ qrOptions: { image: huge } })
      .where(eq(templates.id, tpl.id));
    const preview = await request(api, me, 'GET', `/templates/${tpl.id}/preview`);
    expect(preview.status).toBe(400);
    expect(await preview.json()).toEqual(refusal('qr_options.image'));
  });
});
