/**
 * A client (an agency's customer) reaches only the links of its folders, through every path: a
 * link outside them answers exactly as another account's does, a link may not be made or moved
 * outside them, and what would show the rest of the account (other folders, account-wide numbers,
 * the people, other people's jobs) is not the client's. Checked for a client session with edit
 * access, one with view access, and a key made by the editing client.
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { scansCsv } from '#domain/analytics/export.js';
import { CSV_HEADER } from '#domain/analytics/export.js';
import { call, createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, signIn } from '../../support/people.js';

type Caller = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<LightMyRequestResponse>;

let api: TestApi;
let account: TestAccount;
let other: TestAccount;
const folders = { a: '', a2: '', b: '' };
const slugs = { inA: '', inB: '', loose: '', foreign: '' };
const ids = { inA: '', inB: '' };
let owner: Caller;
let clientEdit: Caller;
let clientView: Caller;
let clientKey: Caller;
let stranger: Caller;
let editUserId = '';

const V1 = '/api/v1';
const website = (name: string, folderId?: string | null) => ({
  name,
  type: 'website',
  data: { url: 'https://example.com/' },
  ...(folderId !== undefined && { linkConfigurations: folderId === null ? {} : { folder_id: folderId } }),
});

async function folder(name: string): Promise<string> {
  const res = await owner('POST', `${V1}/folders`, { name });
  expect(res.statusCode).toBe(200);
  return res.json().id as string;
}

beforeAll(async () => {
  api = await startTestApi();
  account = await createTestAccount(api.ctx, { name: 'Agency' });
  other = await createTestAccount(api.ctx, { name: 'Another agency' });
  owner = (method, url, body, headers) => call(api.app, account.key, method, url, body, headers);
  stranger = (method, url, body, headers) => call(api.app, other.key, method, url, body, headers);
  folders.a = await folder('Client A');
  folders.a2 = await folder('Client A, second');
  folders.b = await folder('Client B');
  const inA = await createLinkVia(api.app, account.key, website('Menu A', folders.a));
  const inB = await createLinkVia(api.app, account.key, website('Menu B', folders.b));
  slugs.inA = inA.slug;
  slugs.inB = inB.slug;
  ids.inA = inA.id;
  ids.inB = inB.id;
  slugs.loose = (await createLinkVia(api.app, account.key, website('Loose'))).slug;
  slugs.foreign = (await createLinkVia(api.app, other.key, website('Foreign'))).slug;

  const edit = await createTestPerson(api.ctx, account.accountId, 'client', { clientAccess: 'edit', folderIds: [folders.a, folders.a2] });
  const view = await createTestPerson(api.ctx, account.accountId, 'client', { clientAccess: 'view', folderIds: [folders.a] });
  editUserId = edit.userId;
  const editCookie = await signIn(api.app, edit.email, edit.password);
  const viewCookie = await signIn(api.app, view.email, view.password);
  clientEdit = (method, url, body, headers) => callAs(api.app, editCookie, method, url, body, headers);
  clientView = (method, url, body, headers) => callAs(api.app, viewCookie, method, url, body, headers);
  // Asks for everything: worth no more than its maker's role, a client with edit access to A and A2.
  const { key } = await createApiKey(api.ctx.db, { accountId: account.accountId, scopes: ['all'], createdByUserId: edit.userId });
  clientKey = (method, url, body, headers) => call(api.app, key, method, url, body, headers);
}, 60_000);
afterAll(() => api.close());

/** The callers by name: the tables below are read before beforeAll has signed anyone in. */
const callers: Record<string, () => Caller> = {
  'client session (edit)': () => clientEdit,
  'client session (view)': () => clientView,
  'key of a client': () => clientKey,
};
const as =
  (name: string): Caller =>
  (...args) =>
    callers[name]!()(...args);
const readers = ['client session (edit)', 'client session (view)', 'key of a client'].map((name) => [name, as(name)] as const);
const writers = ['client session (edit)', 'key of a client'].map((name) => [name, as(name)] as const);

/** What the api answers for another account's link on the same path: the client must get the same. */
async function asForeign(who: Caller, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: (slug: string) => string, body?: unknown) {
  const outside = await who(method, path(slugs.inB), body);
  const foreign = await who(method, path(slugs.foreign), body);
  expect(outside.statusCode).toBe(foreign.statusCode);
  expect(outside.body.replaceAll(slugs.inB, 'S')).toBe(foreign.body.replaceAll(slugs.foreign, 'S'));
  return outside;
}

describe.each(readers)('reading links as a %s', (_name, who) => {
  it('lists and searches only the links of its folders', async () => {
    const list = await who('GET', `${V1}/links?size=100`);
    expect(list.statusCode).toBe(200);
    const listed = list.json().data.map((l: { dynamic_link_id: string }) => l.dynamic_link_id);
    expect(listed).toContain(slugs.inA);
    expect(listed).not.toContain(slugs.inB);
    expect(listed).not.toContain(slugs.loose);
    const search = await who('GET', `${V1}/links?q=Menu`);
    expect(search.json().data.map((l: { dynamic_link_id: string }) => l.dynamic_link_id)).toEqual(expect.not.arrayContaining([slugs.inB]));
    expect((await who('GET', `${V1}/links?folder=${folders.b}`)).json().data).toEqual([]);
    const minimal = await who('GET', `${V1}/minimal-links?size=100`);
    expect(minimal.statusCode).toBe(200);
    const names = minimal.json().data.map((l: { dynamic_link_id: string }) => l.dynamic_link_id);
    expect(names).toContain(slugs.inA);
    expect(names).not.toContain(slugs.inB);
    expect(names).not.toContain(slugs.loose);
  });

  it('gets its own link; one outside its folders is a 404 like another account’s', async () => {
    expect((await who('GET', `${V1}/links/${slugs.inA}`)).statusCode).toBe(200);
    const res = await asForeign(who, 'GET', (s) => `${V1}/links/${s}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('link_not_found');
    expect((await who('GET', `${V1}/links/${slugs.loose}`)).statusCode).toBe(404);
    for (const path of [(s: string) => `${V1}/links/${s}/qr?format=svg`, (s: string) => `${V1}/links/${s}/history`]) {
      expect((await who('GET', path(slugs.inA))).statusCode).toBe(200);
      expect((await asForeign(who, 'GET', path)).statusCode).toBe(404);
    }
  });

  it("reads its own link's analytics; another link's read as an unknown one's", async () => {
    const own = await who('GET', `${V1}/links/${slugs.inA}/analytics/general`);
    expect(own.statusCode).toBe(200);
    expect(own.json().data.numberOfLinks).toBe(1);
    const outside = await asForeign(who, 'GET', (s) => `${V1}/links/${s}/analytics/general`);
    expect(outside.json().data.numberOfLinks).toBe(0);
    const days = await who('GET', `${V1}/analytics/links-by-day?ids=${slugs.inA},${slugs.inB}`);
    expect(days.statusCode).toBe(200);
    expect(days.json().data.links.map((l: { dynamic_link_id: string }) => l.dynamic_link_id)).toEqual([slugs.inA]);
  });

  it('sees only its folders, and nothing account-wide', async () => {
    const list = await who('GET', `${V1}/folders`);
    expect(list.statusCode).toBe(200);
    const seen = list.json().data.map((f: { id: string }) => f.id);
    expect(seen).toContain(folders.a);
    expect(seen).not.toContain(folders.b);
    expect((await who('GET', `${V1}/folders/${folders.a}`)).statusCode).toBe(200);
    const outside = await who('GET', `${V1}/folders/${folders.b}`);
    expect(outside.statusCode).toBe(404);
    expect(outside.json().code).toBe('folder_not_found');
    for (const url of [`${V1}/analytics/general`, `${V1}/analytics/qr-code`, `${V1}/usage`, `${V1}/members`]) {
      const res = await who('GET', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().code, url).toBe('role_required');
    }
    const exported = await who('POST', `${V1}/analytics/export`, {});
    expect(exported.statusCode).toBe(403);
    expect(exported.json().code).toBe('role_required');
    expect((await who('GET', `${V1}/templates`)).statusCode).toBe(200);
    const cafes = await who('GET', `${V1}/cafes`);
    expect(cafes.statusCode).toBe(403);
    expect(cafes.json().code).toBe('forbidden');
  });

  it('cannot make, rename or delete folders', async () => {
    for (const [method, url, body] of [
      ['POST', `${V1}/folders`, { name: 'Mine' }],
      ['PUT', `${V1}/folders/${folders.a}`, { name: 'Renamed' }],
      ['DELETE', `${V1}/folders/${folders.a}`, undefined],
    ] as const) {
      const res = await who(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
  });

  it("sees the jobs it started, not another person's", async () => {
    const others = await owner('POST', `${V1}/analytics/export`, {}, { prefer: 'respond-async' });
    expect(others.statusCode).toBe(202);
    const othersJob = others.json().jobId as string;
    const mine = await who('POST', `${V1}/links/${slugs.inA}/analytics/export`, {}, { prefer: 'respond-async' });
    expect(mine.statusCode).toBe(202);
    const myJob = mine.json().jobId as string;
    expect((await who('GET', `${V1}/jobs/${myJob}`)).statusCode).toBe(200);
    const hidden = await who('GET', `${V1}/jobs/${othersJob}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().code).toBe('job_not_found');
    expect((await who('GET', `${V1}/jobs/${othersJob}/download`)).statusCode).toBe(404);
    const listed = (await who('GET', `${V1}/jobs?size=100`)).json().data.map((j: { id: string }) => j.id);
    expect(listed).toContain(myJob);
    expect(listed).not.toContain(othersJob);
    // The owner sees both.
    const all = (await owner('GET', `${V1}/jobs?size=100`)).json().data.map((j: { id: string }) => j.id);
    expect(all).toEqual(expect.arrayContaining([myJob, othersJob]));
  });
});

describe('a client session with view access', () => {
  it('changes nothing, not even in its folders', async () => {
    for (const [method, url, body] of [
      ['POST', `${V1}/links`, website('New', folders.a)],
      ['PUT', `${V1}/links/${slugs.inA}`, website('Renamed', folders.a)],
      ['DELETE', `${V1}/links/${slugs.inA}`, undefined],
      ['POST', `${V1}/links/${slugs.inA}/pause`, undefined],
      [
        'POST',
        `${V1}/bulk-generate?dryRun=true`,
        { type: 'website', folderId: folders.a, data: [{ name: 'T', url: 'https://example.com/' }] },
      ],
    ] as const) {
      const res = await clientView(method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().code).toBe('forbidden');
    }
  });
});

describe.each(writers)('changing links as a %s', (_name, who) => {
  it('makes links only in its folders', async () => {
    const made = await who('POST', `${V1}/links`, website('Made by the client', folders.a2));
    expect(made.statusCode).toBe(200);
    expect((await who('GET', `${V1}/links/${made.json().id}`)).json().data.folder_id).toBe(folders.a2);
    for (const body of [website('In B', folders.b), website('No folder', null), website('No config')]) {
      const res = await who('POST', `${V1}/links`, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('folder_forbidden');
    }
    // An unknown folder is as forbidden as another's: its existence is not the client's to learn.
    const unknown = await who('POST', `${V1}/links`, website('Unknown', randomUUID()));
    expect(unknown.json().code).toBe('folder_forbidden');
  });

  it('edits, moves, pauses and deletes its own links, and no others', async () => {
    const slug = (await createLinkVia(api.app, account.key, website('Ours', folders.a))).slug;
    const put = await who('PUT', `${V1}/links/${slug}`, website('Ours, renamed', folders.a));
    expect(put.statusCode).toBe(200);
    const out = await who('PUT', `${V1}/links/${slug}`, website('Taken out', null));
    expect(out.statusCode).toBe(403);
    expect(out.json().code).toBe('folder_forbidden');
    expect((await who('PUT', `${V1}/links/${slug}/folder`, { folder_id: folders.a2 })).statusCode).toBe(200);
    for (const folder_id of [folders.b, null]) {
      const moved = await who('PUT', `${V1}/links/${slug}/folder`, { folder_id });
      expect(moved.statusCode).toBe(403);
      expect(moved.json().code).toBe('folder_forbidden');
    }
    expect((await who('PATCH', `${V1}/links/${slug}`, { qrCode: { margin: 2 } })).statusCode).toBe(200);
    expect((await who('POST', `${V1}/links/${slug}/pause`)).statusCode).toBe(200);
    expect((await who('POST', `${V1}/links/${slug}/resume`)).statusCode).toBe(200);
    const copy = await who('POST', `${V1}/links/${slug}/duplicate`, { name: 'Copy' });
    expect(copy.statusCode).toBe(200);
    expect((await who('DELETE', `${V1}/links/${slug}`)).statusCode).toBe(200);

    const tries: Array<['PUT' | 'PATCH' | 'DELETE' | 'POST', (s: string) => string, unknown]> = [
      ['PUT', (s) => `${V1}/links/${s}`, website('Hijacked', folders.a)],
      ['PATCH', (s) => `${V1}/links/${s}`, { qrCode: { margin: 2 } }],
      ['PUT', (s) => `${V1}/links/${s}/folder`, { folder_id: folders.a }],
      ['POST', (s) => `${V1}/links/${s}/pause`, undefined],
      ['POST', (s) => `${V1}/links/${s}/resume`, undefined],
      ['POST', (s) => `${V1}/links/${s}/duplicate`, undefined],
      ['DELETE', (s) => `${V1}/links/${s}`, undefined],
      ['POST', (s) => `${V1}/links/${s}/archive`, undefined],
    ];
    for (const [method, path, body] of tries) {
      const res = await asForeign(who, method, path, body);
      expect(res.statusCode, `${method} ${path('…')}`).toBe(404);
    }
    // Still there, untouched, for the owner.
    const b = await owner('GET', `${V1}/links/${slugs.inB}`);
    expect(b.json().data).toMatchObject({ name: 'Menu B', folder_id: folders.b, paused: false });
  });

  it('bulk-creates into one of its folders only', async () => {
    const batch = (folderId?: string) => ({
      type: 'website',
      ...(folderId && { folderId }),
      data: [{ name: 'Table 1', url: 'https://example.com/t1' }],
    });
    const ok = await who('POST', `${V1}/bulk-generate?dryRun=true`, batch(folders.a));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ dryRun: true, valid: true, count: 1 });
    for (const body of [batch(folders.b), batch()]) {
      const res = await who('POST', `${V1}/bulk-generate?dryRun=true`, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('folder_forbidden');
    }
  });
});

describe('bulk Idempotency-Key', () => {
  it("never answers a client with another person's batch, nor them with the client's", async () => {
    const body = { type: 'website', folderId: folders.a, data: [{ name: 'Table 9', url: 'https://example.com/t9' }] };
    const key = { 'idempotency-key': `shared-${randomUUID()}`, prefer: 'respond-async' };
    const first = await owner('POST', `${V1}/bulk-generate`, body, key);
    expect(first.statusCode).toBe(202);
    const theirs = await clientEdit('POST', `${V1}/bulk-generate`, body, key);
    expect(theirs.statusCode).toBe(202);
    expect(theirs.json().jobId).not.toBe(first.json().jobId);
    // The client's own retry is its own batch again.
    const again = await clientKey('POST', `${V1}/bulk-generate`, body, key);
    expect(again.json().jobId).toBe(theirs.json().jobId);
    const ownerAgain = await owner('POST', `${V1}/bulk-generate`, body, key);
    expect(ownerAgain.json().jobId).toBe(first.json().jobId);
    const [row] = (await api.ctx.database.pool.query('select started_by from jobs where id = $1', [theirs.json().jobId])).rows;
    expect(row.started_by).toBe(editUserId);
  });
});

describe('scan export of a link', () => {
  it("writes a client's link's scans, and only the header for a link outside its folders", async () => {
    await api.ctx.database.pool.query(
      `insert into scans (id, link_id, account_id, created_at, browser_name, device_type, is_bot)
       select gen_random_uuid(), l, $3, now() - interval '1 hour', 'Chrome', 'mobile', false from unnest(array[$1::uuid, $2::uuid]) l`,
      [ids.inA, ids.inB, account.accountId],
    );
    const exported = async (linkSlug: string, folderIds?: string[]) => {
      const chunks: Buffer[] = [];
      const query = {
        accountId: account.accountId,
        defaultHost: 'qr.example',
        linkSlug,
        from: new Date(Date.now() - 2 * 3_600_000),
        to: new Date(),
        ...(folderIds && { folderIds }),
      };
      for await (const chunk of scansCsv(api.ctx.database.pool, query)) chunks.push(chunk);
      return Buffer.concat(chunks).toString('utf8');
    };
    expect((await exported(slugs.inA, [folders.a])).split('\r\n').filter(Boolean)).toHaveLength(2);
    expect(await exported(slugs.inB, [folders.a])).toBe(CSV_HEADER);
    // The whole account (no folders) still has it.
    expect((await exported(slugs.inB)).split('\r\n').filter(Boolean)).toHaveLength(2);
  });
});

describe('another account', () => {
  it('still sees none of these links', async () => {
    expect((await stranger('GET', `${V1}/links/${slugs.inA}`)).statusCode).toBe(404);
  });
});
