/**
 * Roles and CSRF, generated from the api's own route table (like the scope and tenancy matrices),
 * so a route added later is checked without being listed:
 * - every person's role against every authenticated route: a role below the route's least role is
 *   a 403 `role_required`, a role whose scopes lack the route's scope a 403 `forbidden`, and a
 *   role allowed both gets past auth (decision 0403's table, read from domain/people/roles.ts);
 * - every state-changing route called with the session cookie from another site (Sec-Fetch-Site,
 *   else Origin, else neither) is a 403 `csrf_rejected`, and nothing runs; the same request
 *   with an API key is not a CSRF (a key is not sent by the browser on its own);
 * - signing in from another site (every public route that makes a session) is refused too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { hasScope, type Scope } from '#domain/accounts/scopes.js';
import { roleAtLeast, roleScopes, type ClientAccess, type Role } from '#domain/people/roles.js';
import { call, createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, signIn } from '../../support/people.js';
import { apiRoutes, fillPath, routeName, type ApiRoute } from '../../support/route-table.js';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Ends the session it is called with: each person calls it last. */
const SIGN_OUT = 'DELETE /api/v1/sessions/current';
/** Routes open to anyone in the account whose handler asks more of the role (removing someone else). */
const ROLE_CHECKED_BY_HANDLER = new Set(['DELETE /api/v1/members/:userId']);
/** Public routes that start a session (`auth.signsIn`): another site may not sign its visitor in (login CSRF). */
const SIGN_IN_ROUTES = [
  'POST /api/v1/sessions',
  'POST /api/v1/users',
  'POST /api/v1/setup',
  'POST /api/v1/invitations/accept',
  'POST /api/v1/password-resets',
  'POST /api/v1/password-resets/complete',
];

interface Member {
  label: string;
  email: string;
  password: string;
  role: Role;
  clientAccess: ClientAccess | null;
  cookie: string;
}

let api: TestApi;
let routes: ApiRoute[];
let ownerKey: string;
const members: Member[] = [];

beforeAll(async () => {
  // Exports answer 202 at once instead of waiting for a worker this test does not run.
  api = await startTestApi({ JOB_WAIT_MS: '0' });
  routes = await apiRoutes(api.app);
  const account = await createTestAccount(api.ctx, { plan: 'pro' });
  ownerKey = account.key;
  const people: Array<[string, Role, ClientAccess | null]> = [
    ['owner', 'owner', null],
    ['admin', 'admin', null],
    ['editor', 'editor', null],
    ['viewer', 'viewer', null],
    ['client (edit)', 'client', 'edit'],
    ['client (view)', 'client', 'view'],
  ];
  for (const [label, role, clientAccess] of people) {
    const person = await createTestPerson(api.ctx, account.accountId, role, { clientAccess: clientAccess ?? undefined, folderIds: [] });
    members.push({
      label,
      email: person.email,
      password: person.password,
      role,
      clientAccess,
      cookie: await signIn(api.app, person.email, person.password),
    });
  }
}, 120_000);
afterAll(() => api.close());

const guarded = () => routes.filter((r) => r.auth && r.auth.scope !== 'public');
const code = (res: LightMyRequestResponse) => (res.body ? (JSON.parse(res.body) as { code?: string }).code : undefined);

function expected(member: Member, route: ApiRoute): 'role_required' | 'forbidden' | 'allowed' {
  const { role: least, scope } = route.auth!;
  if (least && !roleAtLeast(member.role, least)) return 'role_required';
  if (scope === 'any' || hasScope(roleScopes(member.role, member.clientAccess), scope as Scope)) return 'allowed';
  return 'forbidden';
}

describe('role matrix: every person against every route', () => {
  it('each role is refused exactly where its scopes and rank say, and let through elsewhere', { timeout: 300_000 }, async () => {
    const wrong: string[] = [];
    const inOrder = [...guarded()].sort((a, b) => Number(routeName(a) === SIGN_OUT) - Number(routeName(b) === SIGN_OUT));
    for (const member of members) {
      for (const route of inOrder) {
        const res = await callAs(api.app, member.cookie, route.method, fillPath(route.url, {}));
        const want = expected(member, route);
        const got = res.statusCode === 401 ? 'unauthenticated' : res.statusCode === 403 && route.method !== 'HEAD' ? code(res) : null;
        if (want === 'allowed') {
          const refusedByHandler = got === 'role_required' && ROLE_CHECKED_BY_HANDLER.has(routeName(route));
          if ((got === 'unauthenticated' || got === 'forbidden' || got === 'role_required') && !refusedByHandler) {
            wrong.push(`${member.label} ${routeName(route)}: ${res.statusCode} ${got}, expected to pass auth`);
          }
        } else if (res.statusCode !== 403 || (route.method !== 'HEAD' && got !== want)) {
          wrong.push(`${member.label} ${routeName(route)}: ${res.statusCode} ${got ?? ''}, expected 403 ${want}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a viewer is refused every write but these: analytics exports, print sheets, designs judged or drawn, its own profile and sessions, leaving', () => {
    const viewer = members.find((m) => m.role === 'viewer')!;
    const open = guarded()
      .filter((r) => !SAFE.has(r.method) && expected(viewer, r) === 'allowed')
      .map(routeName)
      .sort();
    // The matrix above checks the answers; this list makes each write a read-only person keeps a visible decision.
    expect(open).toEqual(
      [
        'POST /api/v1/analytics/export',
        'POST /api/v1/links/:id/analytics/export',
        // A print sheet reads links (links.read, as their QR images) and changes nothing (decision 0441).
        'POST /api/v1/print-sheets',
        // A design not stored yet, judged or drawn: reads nothing of the account's, changes nothing (decision 0435).
        ...['POST /api/v1/qr/preview', 'POST /api/v1/qr/report'],
        ...['PATCH /api/v1/me', 'POST /api/v1/me/password'],
        ...['POST', 'DELETE'].map((m) => `${m} /api/v1/me/two-factor`),
        ...['confirm', 'recovery-codes'].map((p) => `POST /api/v1/me/two-factor/${p}`),
        'DELETE /api/v1/members/:userId',
        ...['DELETE /api/v1/sessions', 'DELETE /api/v1/sessions/:id', 'DELETE /api/v1/sessions/current', 'PATCH /api/v1/sessions/current'],
      ].sort(),
    );
  });
});

describe('CSRF: every state-changing route with the cookie from another site', () => {
  const crossSite: Array<[string, Record<string, string>]> = [
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling host)', { 'sec-fetch-site': 'same-site' }],
    ['Origin of another site, no Sec-Fetch-Site', { 'sec-fetch-site': '', origin: 'https://evil.example' }],
    ['neither header', { 'sec-fetch-site': '' }],
  ];

  it.each(crossSite)('%s: 403 csrf_rejected on every write', { timeout: 120_000 }, async (_label, headers) => {
    const owner = members.find((m) => m.role === 'owner')!;
    const cookie = await signIn(api.app, owner.email, owner.password);
    const wrong: string[] = [];
    for (const route of guarded().filter((r) => !SAFE.has(r.method))) {
      const clean = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== ''));
      const res = await api.app.inject({
        method: route.method as 'POST',
        url: fillPath(route.url, {}),
        headers: { cookie, ...clean },
        payload: {},
      });
      if (res.statusCode !== 403 || code(res) !== 'csrf_rejected')
        wrong.push(`${routeName(route)}: ${res.statusCode} ${res.body.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
    // Nothing ran: the session the refused sign-out named still works.
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).statusCode).toBe(200);
  });

  it('the same cross-site request with an API key is not a CSRF', async () => {
    const res = await call(api.app, ownerKey, 'POST', '/api/v1/folders', { name: 'from a script' }, { 'sec-fetch-site': 'cross-site' });
    expect(res.statusCode).toBe(200);
  });

  it('signing in from another site is refused on every route that starts a session', async () => {
    expect(
      routes
        .filter((r) => r.auth?.signsIn)
        .map(routeName)
        .sort(),
    ).toEqual([...SIGN_IN_ROUTES].sort());
    for (const name of SIGN_IN_ROUTES) {
      const [method, url] = name.split(' ') as ['POST', string];
      const res = await api.app.inject({ method, url, headers: { 'sec-fetch-site': 'cross-site' }, payload: {} });
      expect([res.statusCode, code(res)], name).toEqual([403, 'csrf_rejected']);
    }
  });
});
