/**
 * Scope matrix, generated from the api's own route table: every authenticated route refuses a key
 * holding every scope but the one it needs (403, documented body) and lets a key holding only
 * that scope through auth. Routes open to any valid key are listed here by name, so a new one is
 * a visible decision; a route under /api/v1 with no declared requirement fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES, type Scope } from '#domain/accounts/scopes.js';
import { addKey, call, createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';
import { apiRoutes, fillPath, routeName, type ApiRoute } from '../../support/route-table.js';

// Open to any valid key: the account's jobs, a job's state and file (its account decides; a client's, its own), the calling key and its account, the account's own storage use,
// and analytics with their exports, account-wide and per link (no scope, as the API's authentication rules say; the account-wide
// ones and usage ask at least a viewer, so not a client: docs/decisions/0412).
// links-by-day: the links list's sparklines, an addition (decision 0378), read like the other analytics.
// source, placement, referrer, campaign: where scans came from, additions (decision 0429).
const ORIGINS = ['source', 'placement', 'referrer', 'campaign'];
const ACCOUNT_ANALYTICS = [
  'general',
  'activity',
  'ops',
  'country',
  'region',
  'browser',
  'device',
  'qr-code',
  'domain',
  'links-by-day',
  'time',
  ...ORIGINS,
].map((e) => `/api/v1/analytics/${e}`);
// actions: the link's funnel of taps on its page's actions, an addition (decision 0434).
const LINK_ANALYTICS = ['general', 'activity', 'ops', 'country', 'region', 'browser', 'device', 'time', 'actions', ...ORIGINS].map(
  (e) => `/api/v1/links/:id/analytics/${e}`,
);
const ANY_KEY_ROUTES = [
  ...[
    '/api/v1/jobs',
    '/api/v1/jobs/:jobId',
    '/api/v1/jobs/:jobId/download',
    '/api/v1/me',
    '/api/v1/usage',
    ...ACCOUNT_ANALYTICS,
    ...LINK_ANALYTICS,
  ].flatMap((url) => [`GET ${url}`, `HEAD ${url}`]),
  // Scan exports, like the analytics GETs they export.
  'POST /api/v1/analytics/export',
  'POST /api/v1/links/:id/analytics/export',
  // A person's own sessions (a key has none: 403 with a reason).
  ...['GET /api/v1/sessions', 'HEAD /api/v1/sessions', 'DELETE /api/v1/sessions', 'DELETE /api/v1/sessions/:id'],
  ...['DELETE /api/v1/sessions/current', 'PATCH /api/v1/sessions/current'],
  // A person's own name, password and two-factor sign-in (a key: 403 with a reason).
  ...['PATCH /api/v1/me', 'POST /api/v1/me/password'],
  ...['POST /api/v1/me/two-factor', 'POST /api/v1/me/two-factor/confirm', 'DELETE /api/v1/me/two-factor'],
  'POST /api/v1/me/two-factor/recovery-codes',
  // Who is in the account (anyone in it but a client may see), and leaving it (removing someone else is an admin's, checked by the route).
  ...['GET /api/v1/members', 'HEAD /api/v1/members', 'DELETE /api/v1/members/:userId'],
  // The account's brand domains, which anyone in it but a client may see (changing them is an admin's with the whole key).
  ...['GET /api/v1/domains', 'HEAD /api/v1/domains', 'GET /api/v1/domains/:id', 'HEAD /api/v1/domains/:id'],
].sort();
// Open to anyone, before any key or session exists: signing in, resetting a forgotten password, an invitation's link, first start, sign-up.
const PUBLIC_ROUTES = [
  'POST /api/v1/sessions',
  'POST /api/v1/password-resets',
  'POST /api/v1/password-resets/complete',
  'POST /api/v1/invitations/lookup',
  'POST /api/v1/invitations/accept',
  'GET /api/v1/setup',
  'HEAD /api/v1/setup',
  'POST /api/v1/setup',
  'POST /api/v1/users',
  // Single sign-on: whether it is on, the way to the provider and back.
  ...['/api/v1/sessions/oidc/config', '/api/v1/sessions/oidc', '/api/v1/sessions/oidc/callback'].flatMap((u) => [`GET ${u}`, `HEAD ${u}`]),
].sort();
const FORBIDDEN = { code: 'forbidden', message: 'You do not have permission to perform this action.' };

let api: TestApi;
let routes: ApiRoute[];
const allBut = new Map<Scope, string>();
const only = new Map<Scope, string>();

beforeAll(async () => {
  // The job routes' answer once past auth is a 202 at once: no worker runs here to wait for.
  api = await startTestApi({ JOB_WAIT_MS: '0' });
  routes = await apiRoutes(api.app);
  const specific = SCOPES.filter((s) => s !== 'all');
  // An account per scope, two keys each: well inside any per-account key cap.
  for (const scope of SCOPES) {
    const account = await createTestAccount(api.ctx, { plan: 'pro', scopes: specific.filter((s) => s !== scope) });
    allBut.set(scope, account.key);
    only.set(scope, (await addKey(api.ctx, account.accountId, [scope])).key);
  }
}, 120_000);
afterAll(() => api.close());

describe('scope matrix', () => {
  it('every route declares its requirement; the ones open to any key are exactly these', () => {
    for (const r of routes) expect(r.auth, `${routeName(r)} has no config.auth`).toBeDefined();
    expect(
      routes
        .filter((r) => r.auth?.scope === 'any')
        .map(routeName)
        .sort(),
    ).toEqual(ANY_KEY_ROUTES);
    expect(
      routes
        .filter((r) => r.auth?.scope === 'public')
        .map(routeName)
        .sort(),
    ).toEqual(PUBLIC_ROUTES);
  });

  it('a key lacking only the needed scope is a 403; a key with just that scope gets past auth', { timeout: 120_000 }, async () => {
    const wrong: string[] = [];
    for (const route of routes.filter((r) => r.auth && r.auth.scope !== 'any' && r.auth.scope !== 'public')) {
      const scope = route.auth!.scope as Scope;
      const url = fillPath(route.url, {});
      const refused = await call(api.app, allBut.get(scope)!, route.method, url);
      if (refused.statusCode !== 403 || (route.method !== 'HEAD' && JSON.stringify(refused.json()) !== JSON.stringify(FORBIDDEN))) {
        wrong.push(`${routeName(route)} without ${scope}: ${refused.statusCode} ${refused.body.slice(0, 120)}`);
      }
      const allowed = await call(api.app, only.get(scope)!, route.method, url);
      if (allowed.statusCode === 401 || allowed.statusCode === 403) {
        wrong.push(`${routeName(route)} with only ${scope}: ${allowed.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
