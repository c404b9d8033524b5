/**
 * Tenancy matrix, generated from the api's own route table: every route whose path names a
 * resource, called by another account (holding every scope) with this account's real ids of that
 * kind, answers that resource's 404 in the documented body and changes nothing. A route added
 * later is in the matrix the day it is added; one whose params schema does not name its resource
 * (`resourceParams` in api/schemas.ts), or names a kind this test cannot create, fails here.
 * Routes declared `unknownId: 'empty-data'` (analytics) answer 200 with empty data instead, and
 * the same call with the owner's key must show the owner's scans, so the check can tell (exports
 * run on the worker this test starts, and answer CSV: the header only is their empty data).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { API_PREFIX } from '#api/prefix.js';
import { encodeScanBatch } from '#domain/scans/batch.js';
import { ingestScanBatches } from '#domain/scans/ingest.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, signIn } from '../../support/people.js';
import { apiRoutes, createResources, fillPath, routeName, validBody, type ApiRoute, type Resources } from '../../support/route-table.js';

let api: TestApi;
let workers: RunningWorkers;
let owner: TestAccount;
let intruder: TestAccount;
let routes: ApiRoute[];
let owned: Resources;
let intruderCookie: string;

beforeAll(async () => {
  api = await startTestApi();
  workers = await startWorkers(api.ctx);
  owner = await createTestAccount(api.ctx, { plan: 'pro' });
  intruder = await createTestAccount(api.ctx, { plan: 'pro' });
  routes = await apiRoutes(api.app);
  owned = await createResources(api.app, owner);
  // Sessions are a person's, not a key's: a person of each account, signed in; the intruder asks with its cookie.
  const ownerPerson = await createTestPerson(api.ctx, owner.accountId, 'owner');
  const ownerCookie = await signIn(api.app, ownerPerson.email, ownerPerson.password);
  owned.Session = (await callAs(api.app, ownerCookie, 'GET', `${API_PREFIX}/sessions`)).json().data.map((s: { id: string }) => s.id);
  // Members and invitations: the owner's person, and an invitation the owner's key made.
  owned.Member = [ownerPerson.userId];
  const invitation = await call(api.app, owner.key, 'POST', `${API_PREFIX}/invitations`, { email: 'tenant@example.com', role: 'viewer' });
  owned.Invitation = [invitation.json().id];
  const intruderPerson = await createTestPerson(api.ctx, intruder.accountId, 'owner');
  intruderCookie = await signIn(api.app, intruderPerson.email, intruderPerson.password);
  // A human scan of each of the owner's links an hour ago: numbers analytics must never show the intruder.
  const { rows } = await api.ctx.database.pool.query<{ id: string }>('select id from links where account_id = $1', [owner.accountId]);
  const at = Date.now() - 3_600_000;
  const visitor = {
    browserName: 'Chrome',
    deviceType: 'mobile',
    deviceVendor: null,
    osName: 'Android',
    countryName: 'Germany',
    region: 'Berlin',
    city: 'Berlin',
    isBot: false,
  };
  await ingestScanBatches(api.ctx.database.pool, [
    encodeScanBatch(rows.map((r) => ({ id: randomUUID(), linkId: r.id, accountId: owner.accountId, at, ...visitor }))),
  ]);
}, 180_000);

/**
 * Whether an analytics answer shows no scans: an empty ranking, or every count zero (the labels of
 * activity's `x` series are not counts).
 */
function isEmptyAnalytics(res: LightMyRequestResponse): boolean {
  if (res.statusCode !== 200) return false;
  // A scan export (text/csv): the header line only.
  if (String(res.headers['content-type']).startsWith('text/csv')) return res.body.split('\r\n').length === 2;
  const counts: number[] = [];
  const walk = (v: unknown, key: string) => {
    if (key === 'x') return;
    if (typeof v === 'number') counts.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, ''));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  const { data } = res.json<{ data: unknown }>();
  walk(data, '');
  return Array.isArray(data) ? data.length === 0 : counts.length > 0 && counts.every((n) => n === 0);
}
afterAll(async () => {
  await workers?.close();
  await api?.close();
});

describe('tenancy matrix', () => {
  it('every route with a path id names its resource, of a kind the matrix creates', () => {
    const withIds = routes.filter((r) => r.params.length > 0);
    expect(withIds.length).toBeGreaterThan(10);
    for (const r of withIds) {
      expect(r.notFound, `${routeName(r)}: params schema not registered with resourceParams`).toBeDefined();
      expect(owned[r.notFound!], `${routeName(r)}: no ${r.notFound} made by createResources`).toBeDefined();
    }
  });

  it("another account's real ids are that resource's 404 on every route, and nothing changes", { timeout: 300_000 }, async () => {
    const before = await ownerView();
    const wrong: string[] = [];
    let checked = 0;
    for (const route of routes.filter((r) => r.notFound)) {
      for (const id of owned[route.notFound!] ?? []) {
        const url = fillPath(route.url, Object.fromEntries(route.params.map((p) => [p, id])));
        const body = validBody(route);
        const res =
          route.notFound === 'Session'
            ? await callAs(api.app, intruderCookie, route.method, url, body)
            : await call(api.app, intruder.key, route.method, url, body === undefined ? undefined : body);
        checked++;
        if (route.unknownId === 'empty-data') {
          const own = await call(api.app, owner.key, route.method, url);
          if (route.method !== 'HEAD' && !isEmptyAnalytics(res))
            wrong.push(`${routeName(route)} with ${id}: not empty: ${res.statusCode} ${res.body.slice(0, 200)}`);
          if (route.method === 'HEAD' ? res.statusCode !== 200 : isEmptyAnalytics(own) || own.statusCode !== 200) {
            wrong.push(`${routeName(route)} with ${id}: intruder ${res.statusCode}, owner ${own.statusCode} ${own.body.slice(0, 120)}`);
          }
          continue;
        }
        const expected = notFoundBody(route.notFound!);
        if (res.statusCode !== 404 || (route.method !== 'HEAD' && JSON.stringify(res.json()) !== JSON.stringify(expected))) {
          wrong.push(`${routeName(route)} with ${id}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
    expect(await ownerView()).toEqual(before);
    // The jobs list (no path id): the intruder's has only the jobs its own calls started.
    const jobIds = async (key: string) =>
      (await call(api.app, key, 'GET', `${API_PREFIX}/jobs?size=1000`)).json().data.map((j: { id: string }) => j.id);
    const ownerJobs = await jobIds(owner.key);
    expect(ownerJobs).toEqual(expect.arrayContaining(owned.Job!));
    expect((await jobIds(intruder.key)).filter((id: string) => ownerJobs.includes(id))).toEqual([]);
  });
});

describe('path ids longer than any id', () => {
  // Far past the router's former 100-character limit, well inside Node's 16 KiB request line.
  const LONG = 'x'.repeat(5000);
  const ask = (route: ApiRoute, values: Record<string, string>) => {
    const body = validBody(route);
    return call(api.app, owner.key, route.method, fillPath(route.url, values), body === undefined ? undefined : body);
  };

  it("are that resource's 404 on every route (analytics: empty data, as for any unknown id)", { timeout: 300_000 }, async () => {
    const wrong: string[] = [];
    const withIds = routes.filter((r) => r.params.length > 0);
    for (const route of withIds) {
      const res = await ask(route, Object.fromEntries(route.params.map((p) => [p, LONG])));
      if (route.unknownId === 'empty-data') {
        const unknown = await ask(route, Object.fromEntries(route.params.map((p) => [p, 'no-such-link'])));
        if (res.statusCode !== unknown.statusCode || (route.method !== 'HEAD' && !isEmptyAnalytics(res))) {
          wrong.push(`${routeName(route)}: ${res.statusCode} ${res.body.slice(0, 200)} (an unknown id: ${unknown.statusCode})`);
        }
        continue;
      }
      if (
        res.statusCode !== 404 ||
        (route.method !== 'HEAD' && JSON.stringify(res.json()) !== JSON.stringify(notFoundBody(route.notFound!)))
      ) {
        wrong.push(`${routeName(route)}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(withIds.length).toBeGreaterThan(30);
    expect(wrong).toEqual([]);
  });

  it("an inner id of a real cafe's nested path is answered as an unknown inner id", { timeout: 120_000 }, async () => {
    const wrong: string[] = [];
    const nested = routes.filter((r) => r.params.length > 1);
    for (const route of nested) {
      const [outer, ...inner] = route.params as [string, ...string[]];
      const ids = (id: string) => ({ [outer]: owned[route.notFound!]![0]!, ...Object.fromEntries(inner.map((p) => [p, id])) });
      const res = await ask(route, ids(LONG));
      const unknown = await ask(route, ids(randomUUID()));
      if (res.statusCode !== 404 || res.statusCode !== unknown.statusCode || res.body !== unknown.body) {
        wrong.push(
          `${routeName(route)}: ${res.statusCode} ${res.body.slice(0, 200)} (an unknown id: ${unknown.statusCode} ${unknown.body.slice(0, 200)})`,
        );
      }
    }
    expect(nested.length).toBeGreaterThan(5);
    expect(wrong).toEqual([]);
  });
});

/** Everything the owner can see, to show the intruder's calls changed none of it. */
async function ownerView() {
  const get = async (url: string) => (await call(api.app, owner.key, 'GET', `${API_PREFIX}${url}`)).json();
  return {
    links: (await get('/links?size=1000')).data,
    folders: (await get('/folders')).data,
    templates: (await get('/templates')).data,
    keys: (await get('/api-keys')).data,
    cafes: (await get('/cafes')).data,
    job: await get(`/jobs/${owned.Job![0]}`),
    members: (await get('/members')).data,
    invitations: (await get('/invitations')).data,
  };
}

/** A resource's 404 body: "API key" is `{code: "api_key_not_found", message: "API key not found"}`. */
function notFoundBody(thing: string) {
  return { code: `${thing.toLowerCase().replace(' ', '_')}_not_found`, message: `${thing} not found` };
}
