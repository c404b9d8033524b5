/**
 * Webhooks end to end: the api writes events, the real worker (BullMQ, its dispatcher woken by
 * Postgres NOTIFY) signs and POSTs them to a real HTTP receiver on loopback, which verifies every
 * request with the Standard Webhooks library. Each delivery lands once by its webhook-id through a
 * receiver that goes down and comes back; a 410 and a run of failures turn an endpoint off; a hung
 * receiver holds only its own slots; a private address is refused; a rotation signs with both
 * secrets; the delivery log, the test event and a replay; filters by link and folder; and the
 * events jobs tell of. The test environment allows loopback (WEBHOOK_ALLOW_CIDRS) and gives a
 * short retry schedule (test/support/env.ts).
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { call, createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { pollUntil, until } from '../../support/until.js';
import { startReceiver, type TestReceiver } from '../../support/webhook-receiver.js';
import { freePort } from '../../support/processes.js';
import { createTestPerson } from '../../support/people.js';
import { startSmtpServer, type RunningSmtp } from '../../support/smtp.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let api: TestApi;
let workers: RunningWorkers;
let me: TestAccount;
let other: TestAccount;
const receivers: TestReceiver[] = [];

let smtp: RunningSmtp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({ SMTP_URL: smtp.url });
  me = await createTestAccount(api.ctx, { plan: 'enterprise' });
  other = await createTestAccount(api.ctx, { plan: 'enterprise' });
  workers = await startWorkers(api.ctx);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await workers?.close();
  await api?.close();
  await smtp?.close();
});

async function receiver(): Promise<TestReceiver> {
  const r = await startReceiver();
  receivers.push(r);
  return r;
}

interface Hook {
  id: string;
  secret: string;
  url: string;
  enabled: boolean;
  disabled_reason: string | null;
  consecutive_failures: number;
}

async function addWebhook(acct: TestAccount, body: Record<string, unknown>): Promise<Hook> {
  const res = await call(api.app, acct.key, 'POST', '/api/v1/webhooks', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A receiver and an endpoint of `acct` pointing at it, verifying with its secret. */
async function hooked(acct: TestAccount, events: string[], extra: Record<string, unknown> = {}) {
  const r = await receiver();
  const hook = await addWebhook(acct, { url: r.url, events, ...extra });
  r.secrets = [hook.secret];
  return { r, hook };
}

const website = (name = 'Link') => ({ name, type: 'website', data: { url: 'https://example.com/' } });

async function getHook(acct: TestAccount, id: string): Promise<Hook> {
  const res = await call(api.app, acct.key, 'GET', `/api/v1/webhooks/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

describe('webhook endpoints', () => {
  it('shows the secret once, checks the URL, and keeps each account to its own', async () => {
    const r = await receiver();
    const made = await addWebhook(me, { url: r.url, events: ['link.created'], description: 'CRM' });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const read = await call(api.app, me.key, 'GET', `/api/v1/webhooks/${made.id}`);
    expect(read.json().data).not.toHaveProperty('secret');
    expect(read.body).not.toContain(made.secret);
    const list = await call(api.app, me.key, 'GET', '/api/v1/webhooks');
    expect(list.body).not.toContain(made.secret);

    for (const url of ['http://10.0.0.7/hook', 'http://192.168.1.20/hook', 'http://169.254.169.254/latest', 'http://[fd00::1]/x']) {
      const res = await call(api.app, me.key, 'POST', '/api/v1/webhooks', { url, events: ['link.created'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().errors[0]).toMatchObject({ path: 'url', message: expect.stringContaining('private address') });
    }
    const ftp = await call(api.app, me.key, 'POST', '/api/v1/webhooks', { url: 'ftp://example.com/', events: ['link.created'] });
    expect(ftp.statusCode).toBe(400);
    const badEvent = await call(api.app, me.key, 'POST', '/api/v1/webhooks', { url: r.url, events: ['link.exploded'] });
    expect(badEvent.statusCode).toBe(400);
    const none = await call(api.app, me.key, 'POST', '/api/v1/webhooks', { url: r.url, events: [] });
    expect(none.statusCode).toBe(400);

    // Another account's endpoint is not found, for reading, changing, testing and its log.
    for (const [method, path] of [
      ['GET', ''],
      ['PATCH', ''],
      ['DELETE', ''],
      ['POST', '/test'],
      ['POST', '/rotate-secret'],
      ['GET', '/deliveries'],
    ] as const) {
      const res = await call(api.app, other.key, method, `/api/v1/webhooks/${made.id}${path}`, method === 'PATCH' ? {} : undefined);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.json().code).toBe('webhook_not_found');
    }
    const gone = await call(api.app, me.key, 'DELETE', `/api/v1/webhooks/${made.id}`);
    expect(gone.statusCode).toBe(200);
    expect((await call(api.app, me.key, 'GET', `/api/v1/webhooks/${made.id}`)).statusCode).toBe(404);
  });

  it('delivers link events signed as Standard Webhooks, verified by its library', async () => {
    const acct = await createTestAccount(api.ctx);
    const { r, hook } = await hooked(acct, ['link.created', 'link.updated', 'link.deleted']);
    const link = await createLinkVia(api.app, acct.key, website('Menu poster'));
    await call(api.app, acct.key, 'POST', `/api/v1/links/${link.slug}/pause`);
    await call(api.app, acct.key, 'DELETE', `/api/v1/links/${link.slug}`);
    await until(() => r.received.length >= 3);
    const types = r.received.map((x) => x.payload.type);
    expect(types.sort()).toEqual(['link.created', 'link.deleted', 'link.updated']);
    for (const got of r.received) {
      expect(got.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(got.signature).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(got.timestamp) - Date.now() / 1000)).toBeLessThan(60);
      expect(got.verifiedBy).toEqual([0]);
      // The library's own verifier accepts it, and refuses it under another secret or once altered.
      expect(() =>
        new Webhook(hook.secret).verify(got.body, {
          'webhook-id': got.id,
          'webhook-timestamp': got.timestamp,
          'webhook-signature': got.signature,
        }),
      ).not.toThrow();
      expect(() =>
        new Webhook(hook.secret).verify(got.body.replace('Menu poster', 'Menu posted'), {
          'webhook-id': got.id,
          'webhook-timestamp': got.timestamp,
          'webhook-signature': got.signature,
        }),
      ).toThrow();
    }
    const created = r.received.find((x) => x.payload.type === 'link.created')!;
    expect(created.payload.data).toMatchObject({ id: link.slug, name: 'Menu poster', type: 'website', paused: false });
    expect(String(created.payload.data.short_url)).toContain(`/${link.slug}`);
    expect(r.received.find((x) => x.payload.type === 'link.updated')!.payload.data).toMatchObject({ change: 'paused', paused: true });
    expect(new Set(r.received.map((x) => x.id)).size).toBe(3);
    expect((await getHook(acct, hook.id)).enabled).toBe(true);
  });

  it('sends only the events, links and folders an endpoint chose', async () => {
    const acct = await createTestAccount(api.ctx);
    const folder = (await call(api.app, acct.key, 'POST', '/api/v1/folders', { name: 'Tables' })).json();
    const folderId = folder.id ?? folder.data?.id;
    const chosen = await createLinkVia(api.app, acct.key, website('Chosen'));
    const { r } = await hooked(acct, ['link.updated'], { link_ids: [chosen.slug], folder_ids: [folderId] });
    const all = await hooked(acct, ['link.updated', 'link.created']);
    const elsewhere = await createLinkVia(api.app, acct.key, website('Elsewhere'));
    const inFolder = await createLinkVia(api.app, acct.key, website('In folder'));
    await call(api.app, acct.key, 'PUT', `/api/v1/links/${inFolder.slug}/folder`, { folder_id: folderId });
    await call(api.app, acct.key, 'POST', `/api/v1/links/${chosen.slug}/favorite`);
    await call(api.app, acct.key, 'POST', `/api/v1/links/${elsewhere.slug}/favorite`);
    await call(api.app, acct.key, 'POST', `/api/v1/links/${inFolder.slug}/favorite`);
    // The unfiltered endpoint: 2 created, 4 updated (a move and three favourites).
    await until(() => all.r.received.length >= 6);
    await until(() => r.received.length >= 3);
    const ids = r.received.map((x) => `${x.payload.data.id as string} ${x.payload.data.change as string}`).sort();
    expect(ids).toEqual([`${chosen.slug} favorited`, `${inFolder.slug} favorited`, `${inFolder.slug} moved`].sort());
    // A link id that is not the account's is a 400 naming it.
    const res = await call(api.app, acct.key, 'POST', '/api/v1/webhooks', {
      url: r.url,
      events: ['link.updated'],
      link_ids: ['nope-not-mine'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('link_ids[0]');
  });

  it('lands every delivery exactly once by webhook-id through a receiver that goes down and comes back', async () => {
    const acct = await createTestAccount(api.ctx);
    const { r, hook } = await hooked(acct, ['link.created']);
    await createLinkVia(api.app, acct.key, website('Before'));
    await until(() => r.acceptedIds().length === 1);
    // Killed mid-way: four deliveries fail at least once against the closed port. Seven attempts
    // each (WEBHOOK_RETRY_SCHEDULE) stay under the 30 failures that would turn the endpoint off.
    await r.stop();
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await createLinkVia(api.app, acct.key, website(`Flyer ${i}`)));
    const deliveries = (state: string) =>
      api.ctx.database.pool
        .query<{ n: number }>(`select count(*)::int as n from webhook_deliveries where account_id = $1 and ${state}`, [acct.accountId])
        .then((res) => res.rows[0]!.n);
    await until(async () => (await deliveries("event_type = 'link.created' and attempts >= 1 and state = 'pending'")) === 4, 20_000);
    await r.start();
    await until(async () => (await deliveries("state = 'delivered'")) === 5, 30_000);
    const accepted = r.acceptedIds();
    expect(accepted).toHaveLength(5);
    expect(new Set(accepted).size).toBe(5);
    expect(r.received.map((x) => x.payload.data.id).sort()).toEqual([...made.map((m) => m.slug), r.received[0]!.payload.data.id].sort());
    // The log shows the failed attempts before the one that landed.
    const { rows } = await api.ctx.database.pool.query<{ failed: number; ok: number }>(
      `select count(*) filter (where not a.succeeded)::int as failed, count(*) filter (where a.succeeded)::int as ok
       from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.account_id = $1`,
      [acct.accountId],
    );
    expect(rows[0]!.ok).toBe(5);
    expect(rows[0]!.failed).toBeGreaterThanOrEqual(4);
    expect((await getHook(acct, hook.id)).enabled).toBe(true);
  });

  it('turns an endpoint off when its receiver answers 410, and sends it nothing more', async () => {
    const acct = await createTestAccount(api.ctx);
    const { r, hook } = await hooked(acct, ['link.created']);
    r.answer = 410;
    await createLinkVia(api.app, acct.key, website('One'));
    const off = await pollUntil(
      () => getHook(acct, hook.id),
      (h) => !h.enabled,
    );
    expect(off.disabled_reason).toBe('gone');
    expect(r.received).toHaveLength(1);
    await createLinkVia(api.app, acct.key, website('Two'));
    const deliveries = await call(api.app, acct.key, 'GET', `/api/v1/webhooks/${hook.id}/deliveries`);
    expect(deliveries.json().data).toHaveLength(1);
    expect(deliveries.json().data[0]).toMatchObject({ state: 'failed', last_status: 410, attempts: 1 });
    // Turned on again by hand, it receives again.
    r.answer = 200;
    const on = await call(api.app, acct.key, 'PATCH', `/api/v1/webhooks/${hook.id}`, { disabled: false });
    expect(on.json().data).toMatchObject({ enabled: true, consecutive_failures: 0 });
    await createLinkVia(api.app, acct.key, website('Three'));
    await until(() => r.acceptedIds().length === 1);
  });

  it('turns an endpoint off after failing WEBHOOK_DISABLE_AFTER_FAILURES times in a row, and tells its owners and admins', async () => {
    const acct = await createTestAccount(api.ctx);
    const owner = await createTestPerson(api.ctx, acct.accountId, 'owner');
    const admin = await createTestPerson(api.ctx, acct.accountId, 'admin');
    const editor = await createTestPerson(api.ctx, acct.accountId, 'editor');
    const { r, hook } = await hooked(acct, ['link.created']);
    r.answer = 503;
    // Each fails seven times (the first attempt and six retries): 42 in all, past the 30 allowed.
    for (let i = 0; i < 6; i++) await createLinkVia(api.app, acct.key, website(`Poster ${i}`));
    const off = await pollUntil(
      () => getHook(acct, hook.id),
      (h) => !h.enabled,
      30_000,
    );
    expect(off.disabled_reason).toBe('failing');
    // Attempts already in flight when it was turned off may add to the count.
    expect(off.consecutive_failures).toBeGreaterThanOrEqual(api.ctx.config.WEBHOOK_DISABLE_AFTER_FAILURES);
    for (const person of [owner, admin]) {
      const mail = await smtp.waitForMail((m) => m.to === person.email, 30_000);
      expect(mail.subject).toMatch(/webhook .* was turned off/);
      expect(mail.text).toContain(r.url);
      expect(mail.text).toMatch(/last \d+ delivery attempts in a row failed/);
    }
    expect(smtp.received.some((m) => m.to === editor.email)).toBe(false);
    // What was still being retried stops: each is failed or cancelled, none pending for long.
    await pollUntil(
      () =>
        api.ctx.database.pool.query<{ n: number }>(
          `select count(*)::int as n from webhook_deliveries where account_id = $1 and state = 'pending'`,
          [acct.accountId],
        ),
      (res) => res.rows[0]!.n === 0,
      30_000,
    );
  });

  it('keeps other endpoints’ deliveries flowing while one receiver hangs', async () => {
    const slow = await createTestAccount(api.ctx);
    const fast = await createTestAccount(api.ctx);
    const hung = await hooked(slow, ['link.created']);
    hung.r.answer = 'hang';
    const quick = await hooked(fast, ['link.created']);
    // 40 deliveries, 4 at a time, each held WEBHOOK_TIMEOUT_MS (2 s): about 20 s of backlog.
    const HUNG = 40;
    for (let i = 0; i < HUNG; i++) await createLinkVia(api.app, slow.key, website(`Slow ${i}`));
    const cap = api.ctx.config.WEBHOOK_ENDPOINT_CONCURRENCY;
    await until(() => hung.r.received.length >= cap);
    for (let i = 0; i < 16; i++) await createLinkVia(api.app, fast.key, website(`Fast ${i}`));
    await until(() => quick.r.acceptedIds().length === 16, 20_000);
    // The other endpoint was served while the hung one still had most of its backlog waiting: its
    // deliveries did not queue behind the hung ones.
    const hungSeen = new Set(hung.r.received.map((x) => x.id)).size;
    expect(hungSeen).toBeLessThan(HUNG);
    // The hung receiver never held more than its endpoint's slots, across every worker.
    expect(hung.r.maxHeld).toBeLessThanOrEqual(cap);
    expect(hung.r.maxHeld).toBe(cap);
    hung.r.answer = 200;
  });

  it('rotates the secret: both signatures until the old one expires, each verified by the library', async () => {
    const acct = await createTestAccount(api.ctx);
    const { r, hook } = await hooked(acct, ['link.created']);
    const rotated = await call(api.app, acct.key, 'POST', `/api/v1/webhooks/${hook.id}/rotate-secret`, { keep_previous_hours: 24 });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const next = rotated.json().secret as string;
    expect(next).not.toBe(hook.secret);
    expect(rotated.json().previous_secret_expires_at).not.toBeNull();
    r.secrets = [hook.secret, next];
    await createLinkVia(api.app, acct.key, website('After rotation'));
    await until(() => r.received.length === 1);
    expect(r.received[0]!.signature.split(' ')).toHaveLength(2);
    expect(r.received[0]!.verifiedBy).toEqual([0, 1]);
    // Rotated again with nothing kept: only the newest signs.
    const again = await call(api.app, acct.key, 'POST', `/api/v1/webhooks/${hook.id}/rotate-secret`, { keep_previous_hours: 0 });
    const newest = again.json().secret as string;
    r.secrets = [hook.secret, next, newest];
    await createLinkVia(api.app, acct.key, website('After second rotation'));
    await until(() => r.received.length === 2);
    expect(r.received[1]!.verifiedBy).toEqual([2]);
  });

  it('sends a test event, shows the log with the answer, and replays a delivery under its own id', async () => {
    const acct = await createTestAccount(api.ctx);
    const { r, hook } = await hooked(acct, ['link.created']);
    const test = await call(api.app, acct.key, 'POST', `/api/v1/webhooks/${hook.id}/test`);
    expect(test.statusCode, test.body).toBe(200);
    const sent = test.json().data;
    expect(sent).toMatchObject({ event_type: 'webhook.test', state: 'delivered', attempts: 1 });
    expect(sent.attempt_log[0]).toMatchObject({ status: 200, succeeded: true, response: 'ok', trigger: 'test' });
    expect(r.received[0]!.payload.type).toBe('webhook.test');

    r.answer = 500;
    const test2 = await call(api.app, acct.key, 'POST', `/api/v1/webhooks/${hook.id}/test`);
    expect(test2.json().data).toMatchObject({ state: 'failed', last_status: 500 });
    expect(test2.json().data.attempt_log[0]).toMatchObject({ status: 500, response: 'no: 500', succeeded: false });

    r.answer = 200;
    const replay = await call(api.app, acct.key, 'POST', `/api/v1/webhooks/deliveries/${test2.json().data.id}/replay`);
    expect(replay.statusCode, replay.body).toBe(200);
    expect(replay.json().data).toMatchObject({ state: 'delivered', attempts: 2 });
    expect(replay.json().data.attempt_log.map((a: { trigger: string }) => a.trigger)).toEqual(['test', 'replay']);
    expect(r.received.at(-1)!.id).toBe(test2.json().data.id);

    const log = await call(api.app, acct.key, 'GET', `/api/v1/webhooks/${hook.id}/deliveries?state=delivered`);
    expect(
      log
        .json()
        .data.map((d: { id: string }) => d.id)
        .sort(),
    ).toEqual([sent.id, test2.json().data.id].sort());
    const detail = await call(api.app, acct.key, 'GET', `/api/v1/webhooks/deliveries/${sent.id}`);
    expect(detail.json().data.payload).toMatchObject({ type: 'webhook.test' });
    // Another account cannot read or replay it.
    expect((await call(api.app, other.key, 'GET', `/api/v1/webhooks/deliveries/${sent.id}`)).statusCode).toBe(404);
    expect((await call(api.app, other.key, 'POST', `/api/v1/webhooks/deliveries/${sent.id}/replay`)).json().code).toBe(
      'delivery_not_found',
    );
  });

  it('tells of finished jobs: a bulk generation and a scans export', async () => {
    const acct = await createTestAccount(api.ctx, { plan: 'enterprise' });
    const { r } = await hooked(acct, ['bulk.completed', 'export.completed']);
    const bulk = await call(api.app, acct.key, 'POST', '/api/v1/bulk-generate', {
      type: 'website',
      data: [
        { name: 'Table 1', url: 'https://example.com/1' },
        { name: 'Table 2', url: 'https://example.com/2' },
      ],
    });
    expect([200, 202], bulk.body).toContain(bulk.statusCode);
    const exported = await call(api.app, acct.key, 'POST', '/api/v1/analytics/export', {});
    expect([200, 202], exported.body).toContain(exported.statusCode);
    await until(() => r.received.length >= 2, 30_000);
    const bulkEvent = r.received.find((x) => x.payload.type === 'bulk.completed')!;
    expect(bulkEvent.payload.data).toMatchObject({ count: 2, requested: 2 });
    expect(bulkEvent.payload.data.link_ids).toHaveLength(2);
    expect(String(bulkEvent.payload.data.zip_url)).toContain('/download');
    const exportEvent = r.received.find((x) => x.payload.type === 'export.completed')!;
    expect(exportEvent.payload.data).toMatchObject({ kind: 'scans', rows: 0 });
    expect(String(exportEvent.payload.data.download_url)).toContain('/download');
  });
});

describe('the README’s receiver', () => {
  it('verifies and logs a delivery, run as it is printed', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('A receiver in Node'));
    const code = section.slice(section.indexOf('```js\n') + 6, section.indexOf('\n```', section.indexOf('```js\n')));
    expect(code.split('\n')).toHaveLength(15);
    // Beside node_modules, so its import of standardwebhooks resolves as in a user's project.
    const dir = join(ROOT, 'node_modules', '.cache');
    await mkdir(dir, { recursive: true });
    const file = join(dir, `readme-receiver-${process.pid}.mjs`);
    await writeFile(file, code);
    const acct = await createTestAccount(api.ctx);
    const port = await freePort();
    const made = await addWebhook(acct, { url: `http://127.0.0.1:${port}/`, events: ['link.created'] });
    const child = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port), QRLINKS_WEBHOOK_SECRET: made.secret } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    try {
      await until(async () => (await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' }).catch(() => null))?.status === 400);
      const test = await call(api.app, acct.key, 'POST', `/api/v1/webhooks/${made.id}/test`);
      expect(test.json().data.attempt_log[0]).toMatchObject({ status: 204, succeeded: true });
      // Replayed: the same webhook-id, handled once.
      await call(api.app, acct.key, 'POST', `/api/v1/webhooks/deliveries/${test.json().data.id}/replay`);
      await until(() => out.includes('webhook.test'));
      expect(out.match(/webhook\.test/g)).toHaveLength(1);
    } finally {
      child.kill();
      await rm(file, { force: true });
    }
  });
});
