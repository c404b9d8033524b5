/**
 * The audit log through the real api, Postgres, queue and worker: every state-changing route
 * declares what it records (from the route table), a link's change is recorded with its
 * before/after, actor and truncated address before the answer leaves, a 4xx records nothing, a
 * failed write fails nothing, values are bounded, accounts
 * see only their own events, paging is stable, the CSV export job writes the rows, and retention
 * prunes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAuditEvent } from '#domain/audit/events.js';
import { MAX_TOTAL_BYTES, MAX_VALUE_BYTES, TRUNCATED } from '#domain/audit/changes.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { createApiKey } from '#domain/accounts/api-keys.js';
import type { Scope } from '#domain/accounts/scopes.js';
import type { Role } from '#domain/people/roles.js';
import { callAs, createTestPerson, signIn } from '../../support/people.js';
import { call, createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { apiRoutes, routeName } from '../../support/route-table.js';
import { pollUntil } from '../../support/until.js';

let api: TestApi;
let workers: RunningWorkers;
let me: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  api = await startTestApi();
  workers = await startWorkers(api.ctx);
  me = await createTestAccount(api.ctx, { plan: 'pro' });
  other = await createTestAccount(api.ctx, { plan: 'pro' });
});
afterAll(async () => {
  await workers?.close();
  await api?.close();
});

interface EventRow {
  id: string;
  at: string;
  actor: { userId: string | null; keyId: string | null; label: string };
  entity: string;
  entityId: string;
  action: string;
  changes: Array<{ field: string; before: unknown; after: unknown }>;
  ip: string | null;
  requestId: string | null;
}

/** A request from a given client address (the api trusts no proxy in tests: the socket's address counts). */
function from(address: string, key: string, method: 'POST' | 'PUT' | 'DELETE' | 'PATCH', url: string, body?: unknown) {
  return api.app.inject({
    method,
    url,
    remoteAddress: address,
    headers: { authorization: `Basic ${key}` },
    ...(body !== undefined && { payload: body as object }),
  });
}

/** A signed-in person of the account with the role: their session cookie. */
async function signInAs(accountId: string, role: Role): Promise<string> {
  const person = await createTestPerson(api.ctx, accountId, role);
  return signIn(api.app, person.email, person.password);
}

/** The events of a request: written before its answer left, so there when the answer is. */
async function eventsOf(requestId: string): Promise<EventRow[]> {
  const res = await call(api.app, me.key, 'GET', `/api/v1/audit-events?limit=200`);
  return res.json().data.filter((e: EventRow) => e.requestId === requestId);
}

describe('audit declarations', () => {
  it('every state-changing route under /api/v1 declares what it records, or why it records nothing', async () => {
    const routes = await apiRoutes(api.app);
    const undeclared = routes
      .filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method))
      .filter((r) => {
        const audit = r.entry.config.audit;
        if (!audit) return true;
        return 'none' in audit ? audit.none.trim() === '' : !audit.entity || !audit.action;
      })
      .map(routeName);
    expect(undeclared).toEqual([]);
  });
});

describe('recording', () => {
  it("a link's new destination is recorded with before and after, the key and a truncated address", async () => {
    const link = await createLinkVia(api.app, me.key, { name: 'Menu', type: 'website', data: { url: 'https://example.com/old' } });
    const res = await from('203.0.113.57', me.key, 'PUT', `/api/v1/links/${link.slug}`, {
      name: 'Menu',
      type: 'website',
      data: { url: 'https://example.com/new' },
    });
    expect(res.statusCode).toBe(200);
    const [event] = await eventsOf(String(res.headers['x-request-id']));
    expect(event).toMatchObject({
      entity: 'link',
      entityId: link.id,
      action: 'update',
      ip: '203.0.113.0',
      actor: { keyId: me.keyId, userId: null },
    });
    expect(event!.actor.label).toMatch(/^key-\w{6}…$/);
    expect(event!.changes).toEqual([{ field: 'data.url', before: 'https://example.com/old', after: 'https://example.com/new' }]);

    // The link names who made it and who changed it.
    const got = (await call(api.app, me.key, 'GET', `/api/v1/links/${link.slug}`)).json().data;
    expect(got).toMatchObject({ created_by: me.keyId, updated_by: me.keyId });

    // An IPv6 client is kept as its /48.
    const v6 = await from('2001:db8:abcd:12:1:2:3:4', me.key, 'POST', `/api/v1/links/${link.slug}/pause`);
    expect(v6.statusCode).toBe(200);
    const [paused] = await eventsOf(String(v6.headers['x-request-id']));
    expect(paused).toMatchObject({ action: 'pause', ip: '2001:db8:abcd::', changes: [{ field: 'paused', before: false, after: true }] });
  });

  it('a create and a delete are recorded with the fields made and removed; secrets only as set or not', async () => {
    const created = await call(api.app, me.key, 'POST', '/api/v1/links', {
      name: 'Guest Wi-Fi',
      type: 'wifi',
      data: { ssid: 'cafe', password: 'hunter22', encryption: 'WPA', hidden: false },
      linkConfigurations: { passwordProtectedActive: true, password: 'opensesame' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const [made] = await eventsOf(String(created.headers['x-request-id']));
    const fields = Object.fromEntries(made!.changes.map((c) => [c.field, c.after]));
    expect(made).toMatchObject({ action: 'create' });
    expect(fields).toMatchObject({
      name: 'Guest Wi-Fi',
      type: 'wifi',
      'data.password': 'set',
      password_set: true,
      password_protected: true,
    });
    expect(JSON.stringify(made)).not.toMatch(/hunter22|opensesame|\$2[aby]\$/);

    const slug = created.json().id as string;
    const removed = await call(api.app, me.key, 'DELETE', `/api/v1/links/${slug}`);
    expect(removed.statusCode).toBe(200);
    const [gone] = await eventsOf(String(removed.headers['x-request-id']));
    expect(gone).toMatchObject({ action: 'delete', entityId: made!.entityId });
    expect(gone!.changes.find((c) => c.field === 'name')).toEqual({ field: 'name', before: 'Guest Wi-Fi', after: null });
  });

  it('a 4xx records nothing', async () => {
    const link = await createLinkVia(api.app, me.key);
    const refused = [
      await call(api.app, me.key, 'PUT', `/api/v1/links/${link.slug}`, { name: '', type: 'website', data: { url: 'x' } }),
      await call(api.app, me.key, 'PUT', `/api/v1/links/no-such-link-here`, {
        name: 'a',
        type: 'website',
        data: { url: 'https://a.example/' },
      }),
      await call(api.app, me.key, 'DELETE', `/api/v1/folders/00000000-0000-4000-8000-000000000000`),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([400, 404, 404]);
    const ids = new Set(refused.map((r) => String(r.headers['x-request-id'])));
    const { rows } = await api.ctx.database.pool.query<{ request_id: string }>(
      'select request_id from audit_events where account_id = $1',
      [me.accountId],
    );
    expect(rows.filter((r) => ids.has(r.request_id))).toEqual([]);
  });

  it('an event that cannot be written does not fail the change', async () => {
    const link = await createLinkVia(api.app, me.key);
    const pool = api.ctx.database.pool;
    await pool.query('alter table audit_events rename to audit_events_away');
    try {
      const res = await call(api.app, me.key, 'PUT', `/api/v1/links/${link.slug}/folder`, { folder_id: null });
      expect(res.statusCode, res.body).toBe(200);
      const paused = await call(api.app, me.key, 'POST', `/api/v1/links/${link.slug}/pause`);
      expect(paused.statusCode, paused.body).toBe(200);
    } finally {
      await pool.query('alter table audit_events_away rename to audit_events');
    }
    expect((await call(api.app, me.key, 'GET', `/api/v1/links/${link.slug}`)).json().data.paused).toBe(true);
  });

  it('huge values are cut with a marker, and the event stays within its bound', async () => {
    const long = (c: string) => c.repeat(5000);
    const body = (description: string, location: string) => ({
      name: 'Launch',
      type: 'event',
      data: { description, location, startDateTime: '2027-01-01T10:00', timezone: 'UTC' },
    });
    const link = await createLinkVia(api.app, me.key, body(long('a'), 'Hall A'));
    const res = await call(api.app, me.key, 'PUT', `/api/v1/links/${link.slug}`, body(long('é'), 'Hall B'));
    expect(res.statusCode, res.body).toBe(200);
    const [event] = await eventsOf(String(res.headers['x-request-id']));
    const description = event!.changes.find((c) => c.field === 'data.description')!;
    for (const value of [description.before, description.after] as string[]) {
      expect(value.endsWith(TRUNCATED)).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(value))).toBeLessThanOrEqual(MAX_VALUE_BYTES);
    }
    expect(event!.changes.find((c) => c.field === 'data.location')).toEqual({ field: 'data.location', before: 'Hall A', after: 'Hall B' });
    expect(Buffer.byteLength(JSON.stringify(event!.changes))).toBeLessThanOrEqual(MAX_TOTAL_BYTES);
  });
});

describe('reading', () => {
  it("another account's events are not found: empty lists, a 404 for its link's history", async () => {
    const link = await createLinkVia(api.app, me.key);
    const res = await call(api.app, me.key, 'POST', `/api/v1/links/${link.slug}/pause`);
    await eventsOf(String(res.headers['x-request-id']));
    const theirs = (await call(api.app, other.key, 'GET', '/api/v1/audit-events')).json();
    expect(theirs.data.filter((e: EventRow) => e.entityId === link.id)).toEqual([]);
    expect((await call(api.app, other.key, 'GET', `/api/v1/audit-events?linkId=${link.slug}`)).json()).toEqual({
      data: [],
      nextCursor: null,
    });
    expect((await call(api.app, other.key, 'GET', `/api/v1/audit-events?linkId=${link.id}`)).json()).toEqual({
      data: [],
      nextCursor: null,
    });
    const history = await call(api.app, other.key, 'GET', `/api/v1/links/${link.slug}/history`);
    expect(history.statusCode).toBe(404);
    expect(history.json()).toEqual({ code: 'link_not_found', message: 'Link not found' });
    // The owner reads it both ways.
    const mine = (await call(api.app, me.key, 'GET', `/api/v1/links/${link.slug}/history`)).json();
    expect(mine.data.map((e: EventRow) => e.action)).toEqual(['pause', 'create']);
    expect((await call(api.app, me.key, 'GET', `/api/v1/audit-events?linkId=${link.slug}`)).json().data).toEqual(mine.data);
  });

  it("only the account's owners and admins read the log; anyone who reads a link reads its history", async () => {
    const account = await createTestAccount(api.ctx, { plan: 'pro' });
    const link = await createLinkVia(api.app, account.key);
    const admin = await createTestPerson(api.ctx, account.accountId, 'admin');
    const cookies = {
      admin: await signIn(api.app, admin.email, admin.password),
      editor: await signInAs(account.accountId, 'editor'),
      viewer: await signInAs(account.accountId, 'viewer'),
    };
    const keyOf = async (role: Role, scopes: Scope[]) => {
      const person = await createTestPerson(api.ctx, account.accountId, role);
      return (await createApiKey(api.ctx.db, { accountId: account.accountId, createdByUserId: person.userId, scopes })).key;
    };
    const keys = {
      editor: await keyOf('editor', ['all']),
      viewer: await keyOf('viewer', ['links.read']),
      narrowAdmin: await keyOf('admin', ['links.read']),
      admin: await keyOf('admin', ['all']),
    };
    const reads = [
      ['GET', '/api/v1/audit-events'],
      ['POST', '/api/v1/audit-events/export'],
    ] as const;
    for (const [method, url] of reads) {
      for (const who of ['editor', 'viewer'] as const) {
        expect((await callAs(api.app, cookies[who], method, url)).statusCode, `${who} session ${method} ${url}`).toBe(403);
      }
      for (const who of ['editor', 'viewer', 'narrowAdmin'] as const) {
        expect((await call(api.app, keys[who], method, url)).statusCode, `${who} key ${method} ${url}`).toBe(403);
      }
    }
    expect((await callAs(api.app, cookies.admin, 'GET', '/api/v1/audit-events')).statusCode).toBe(200);
    expect((await call(api.app, keys.admin, 'GET', '/api/v1/audit-events')).statusCode).toBe(200);
    for (const who of ['editor', 'viewer'] as const) {
      expect((await callAs(api.app, cookies[who], 'GET', `/api/v1/links/${link.slug}/history`)).statusCode, who).toBe(200);
      expect((await call(api.app, keys[who], 'GET', `/api/v1/links/${link.slug}/history`)).statusCode, who).toBe(200);
    }
  });

  it('a change by a person names them: their id and email, no key; the link says who changed it', async () => {
    const account = await createTestAccount(api.ctx, { plan: 'pro' });
    const link = await createLinkVia(api.app, account.key);
    const editor = await createTestPerson(api.ctx, account.accountId, 'editor');
    const cookie = await signIn(api.app, editor.email, editor.password);
    const res = await callAs(api.app, cookie, 'POST', `/api/v1/links/${link.slug}/pause`);
    expect(res.statusCode, res.body).toBe(200);
    const history = (await call(api.app, account.key, 'GET', `/api/v1/links/${link.slug}/history`)).json().data as EventRow[];
    expect(history[0]).toMatchObject({ action: 'pause', actor: { userId: editor.userId, keyId: null, label: editor.email } });
    expect(history[1]).toMatchObject({ action: 'create', actor: { userId: null, keyId: account.keyId } });
    const got = (await call(api.app, account.key, 'GET', `/api/v1/links/${link.slug}`)).json().data;
    expect(got).toMatchObject({ created_by: account.keyId, updated_by: editor.userId });
  });

  it('pages by cursor stay stable while events are added; filters combine', async () => {
    const account = await createTestAccount(api.ctx, { plan: 'pro' });
    const actor = { accountId: account.accountId, keyId: account.keyId, userId: null };
    // Several events in one millisecond: the cursor must tell them apart.
    const at = new Date();
    for (let i = 0; i < 7; i++) {
      await recordAuditEvent(api.ctx.db, {
        actor,
        entity: 'folder',
        entityId: `f${i}`,
        action: 'rename',
        changes: [],
        ip: null,
        requestId: `r${i}`,
        at,
      });
    }
    const all = (await call(api.app, account.key, 'GET', '/api/v1/audit-events?limit=200')).json().data as EventRow[];
    expect(all).toHaveLength(7);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { data: EventRow[]; nextCursor: string | null } = (
        await call(api.app, account.key, 'GET', `/api/v1/audit-events?limit=3${cursor ? `&cursor=${cursor}` : ''}`)
      ).json();
      seen.push(...page.data.map((e) => e.id));
      cursor = page.nextCursor;
      // A newer event meanwhile does not shift the pages.
      await recordAuditEvent(api.ctx.db, {
        actor,
        entity: 'link',
        entityId: 'x',
        action: 'update',
        changes: [],
        ip: null,
        requestId: null,
      });
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(all.map((e) => e.id));

    const folders = (
      await call(api.app, account.key, 'GET', `/api/v1/audit-events?entity=folder&entityId=f3&actor=${account.keyId}`)
    ).json();
    expect(folders.data.map((e: EventRow) => e.requestId)).toEqual(['r3']);
    const nobody = (await call(api.app, account.key, 'GET', `/api/v1/audit-events?actor=00000000-0000-4000-8000-000000000000`)).json();
    expect(nobody.data).toEqual([]);
    const later = (await call(api.app, account.key, 'GET', `/api/v1/audit-events?from=${new Date(at.getTime() + 1).toISOString()}`)).json();
    expect(later.data.every((e: EventRow) => e.entity === 'link')).toBe(true);

    // Forged cursors of the right shape: a month 13, a 30 February, an hour 99.
    const forged = ['2026-13-45 10:00:00+00', '2026-02-30 10:00:00+00', '2026-01-01 99:00:00+00'].map(
      (at) => `cursor=${Buffer.from(JSON.stringify([at, '00000000-0000-4000-8000-000000000000'])).toString('base64url')}`,
    );
    for (const bad of ['cursor=abc', ...forged, 'limit=201', 'limit=0', 'entity=user', 'from=yesterday', 'actor=me']) {
      const res = await call(api.app, account.key, 'GET', `/api/v1/audit-events?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    }
  });
});

describe('export and retention', () => {
  it('the CSV export job writes a record per change, cells safe for spreadsheets', async () => {
    const account = await createTestAccount(api.ctx, { plan: 'pro' });
    const actor = { accountId: account.accountId, keyId: account.keyId, userId: null };
    await recordAuditEvent(api.ctx.db, {
      actor,
      entity: 'link',
      entityId: 'l1',
      action: 'update',
      changes: [
        { field: 'name', before: 'Old', after: '=HYPERLINK("http://evil.example")' },
        { field: 'data.text', before: 'a\r\nb\u0007c', after: null },
      ],
      ip: '198.51.100.0',
      requestId: 'req-1',
    });
    await recordAuditEvent(api.ctx.db, {
      actor,
      entity: 'folder',
      entityId: 'f1',
      action: 'delete',
      changes: [],
      ip: null,
      requestId: 'req-2',
    });
    const res = await call(api.app, account.key, 'POST', '/api/v1/audit-events/export', { entity: 'link' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('at,actor,actor_user_id,actor_key_id,entity,entity_id,action,field,before,after,ip,request_id');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(`,link,l1,update,name,Old,"'=HYPERLINK(""http://evil.example"")",198.51.100.0,req-1`);
    expect(lines[2]).toContain(',data.text,a  b c,,198.51.100.0,req-1');
    expect(lines[3]).toBe('');

    const everything = await call(api.app, account.key, 'POST', '/api/v1/audit-events/export');
    expect(everything.statusCode).toBe(200);
    expect(everything.body.split('\r\n').filter(Boolean)).toHaveLength(4);
  });

  it("the export's job and file are the log's readers' only: other members and narrow keys see no trace of it", async () => {
    const account = await createTestAccount(api.ctx, { plan: 'pro' });
    expect((await call(api.app, account.key, 'POST', '/api/v1/audit-events/export')).statusCode).toBe(200);
    const jobsSeenBy = async (
      get: (path: string) => Promise<{ statusCode: number; json(): { data: Array<{ id: string; type: string }> } }>,
    ) => (await get('/api/v1/jobs')).json().data.filter((j) => j.type === 'audit-export');
    const [job] = await jobsSeenBy((path) => call(api.app, account.key, 'GET', path));
    expect(job).toBeDefined();
    const admin = await signInAs(account.accountId, 'admin');
    expect(await jobsSeenBy((path) => callAs(api.app, admin, 'GET', path))).toHaveLength(1);
    expect((await callAs(api.app, admin, 'GET', `/api/v1/jobs/${job!.id}/download`)).statusCode).toBe(200);
    const owner = await createTestPerson(api.ctx, account.accountId, 'owner');
    const narrowKey = (
      await createApiKey(api.ctx.db, { accountId: account.accountId, createdByUserId: owner.userId, scopes: ['links.read'] })
    ).key;
    const others = { editor: await signInAs(account.accountId, 'editor'), viewer: await signInAs(account.accountId, 'viewer') };
    for (const [who, get] of [
      ...Object.entries(others).map(([role, cookie]) => [role, (path: string) => callAs(api.app, cookie, 'GET', path)] as const),
      ['a links.read key', (path: string) => call(api.app, narrowKey, 'GET', path)] as const,
    ]) {
      expect(await jobsSeenBy(get), who).toEqual([]);
      for (const path of [`/api/v1/jobs/${job!.id}`, `/api/v1/jobs/${job!.id}/download`])
        expect((await get(path)).statusCode, `${who} ${path}`).toBe(404);
    }
  });

  it('events older than AUDIT_RETENTION_DAYS are pruned by the maintenance queue', async () => {
    const account = await createTestAccount(api.ctx, { plan: 'pro' });
    const actor = { accountId: account.accountId, keyId: account.keyId, userId: null };
    const days = api.ctx.config.AUDIT_RETENTION_DAYS;
    expect(days).toBe(400);
    const old = new Date(Date.now() - (days + 1) * 86_400_000);
    const young = new Date(Date.now() - (days - 1) * 86_400_000);
    await recordAuditEvent(api.ctx.db, {
      actor,
      entity: 'link',
      entityId: 'old',
      action: 'update',
      changes: [],
      ip: null,
      requestId: null,
      at: old,
    });
    await recordAuditEvent(api.ctx.db, {
      actor,
      entity: 'link',
      entityId: 'young',
      action: 'update',
      changes: [],
      ip: null,
      requestId: null,
      at: young,
    });
    await api.ctx.queues.maintenance.add('prune-audit-events', { kind: 'prune-audit-events' });
    const left = await pollUntil(
      async () => (await call(api.app, account.key, 'GET', '/api/v1/audit-events')).json().data.map((e: EventRow) => e.entityId),
      (ids: string[]) => !ids.includes('old'),
    );
    expect(left).toEqual(['young']);
    const schedulers = await api.ctx.queues.maintenance.getJobSchedulers();
    expect(schedulers.map((s) => s.key)).toContain('prune-audit-events');
  });
});
