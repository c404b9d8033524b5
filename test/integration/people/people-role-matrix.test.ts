/**
 * The role matrix of docs/decisions/0403 (with 0412's client rows), checked through the api: for
 * each role, signed in as a person, a representative read and write of each area is let through
 * or refused with the documented code (role_required when the route asks a role, forbidden when
 * the role's scopes lack the route's, 404 for what is out of a client's reach).
 */
import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, signIn } from '../../support/people.js';
import type { ClientAccess, Role } from '#domain/people/roles.js';

const ROLES = ['owner', 'admin', 'editor', 'viewer', 'client-edit', 'client-view'] as const;
type RoleName = (typeof ROLES)[number];
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let api: TestApi;
let account: TestAccount;
let folderA = '';
let folderB = '';
let linkA = '';
let linkB = '';
const cookies = new Map<RoleName, string>();

beforeAll(async () => {
  api = await startTestApi();
  account = await createTestAccount(api.ctx, { name: 'Role matrix agency' });
  const folder = async (name: string) => (await call(api.app, account.key, 'POST', '/api/v1/folders', { name })).json().id as string;
  folderA = await folder('A');
  folderB = await folder('B');
  const link = async (folder_id: string) =>
    (
      await createLinkVia(api.app, account.key, {
        name: 'Menu',
        type: 'website',
        data: { url: 'https://example.com/' },
        linkConfigurations: { folder_id },
      })
    ).slug;
  linkA = await link(folderA);
  linkB = await link(folderB);
  for (const name of ROLES) {
    const [role, access] = name.startsWith('client-') ? (['client', name.slice(7)] as [Role, ClientAccess]) : [name as Role, undefined];
    const person = await createTestPerson(api.ctx, account.accountId, role, {
      ...(access && { clientAccess: access, folderIds: [folderA] }),
    });
    cookies.set(name, await signIn(api.app, person.email, person.password));
  }
}, 60_000);
afterAll(() => api.close());

/** What a role should get: a status, and for a refusal its code. */
type Outcome = [number, string?];
const ok: Outcome = [200];
const roleRequired: Outcome = [403, 'role_required'];
const noScope: Outcome = [403, 'forbidden'];

interface Case {
  area: string;
  what: string;
  request: () => [Method, string, unknown?];
  expected: Record<RoleName, Outcome>;
}

const all = (outcome: Outcome, except: Partial<Record<RoleName, Outcome>> = {}): Record<RoleName, Outcome> =>
  Object.fromEntries(ROLES.map((r) => [r, except[r] ?? outcome])) as Record<RoleName, Outcome>;
const clients = (outcome: Outcome) => ({ 'client-edit': outcome, 'client-view': outcome });
const website = (folder_id: string) => ({
  name: 'New',
  type: 'website',
  data: { url: 'https://example.com/' },
  linkConfigurations: { folder_id },
});

const CASES: Case[] = [
  { area: 'links', what: 'list', request: () => ['GET', '/api/v1/links'], expected: all(ok) },
  {
    area: 'links',
    what: 'get one outside a client’s folders',
    request: () => ['GET', `/api/v1/links/${linkB}`],
    expected: all(ok, clients([404, 'link_not_found'])),
  },
  {
    area: 'links',
    what: 'create in folder A',
    request: () => ['POST', '/api/v1/links', website(folderA)],
    expected: all(ok, { viewer: noScope, 'client-view': noScope }),
  },
  {
    area: 'links',
    what: 'create in folder B',
    request: () => ['POST', '/api/v1/links', website(folderB)],
    expected: all(ok, { viewer: noScope, 'client-view': noScope, 'client-edit': [403, 'folder_forbidden'] }),
  },
  {
    area: 'links',
    what: 'pause one in folder A',
    request: () => ['POST', `/api/v1/links/${linkA}/pause`],
    expected: all(ok, { viewer: noScope, 'client-view': noScope }),
  },
  { area: 'folders', what: 'list', request: () => ['GET', '/api/v1/folders'], expected: all(ok) },
  {
    area: 'folders',
    what: 'get folder B',
    request: () => ['GET', `/api/v1/folders/${folderB}`],
    expected: all(ok, clients([404, 'folder_not_found'])),
  },
  {
    area: 'folders',
    what: 'create',
    request: () => ['POST', '/api/v1/folders', { name: 'New' }],
    expected: all(ok, { viewer: noScope, ...clients(noScope) }),
  },
  { area: 'templates', what: 'list', request: () => ['GET', '/api/v1/templates'], expected: all(ok) },
  {
    area: 'templates',
    what: 'delete (an unknown one)',
    request: () => ['DELETE', `/api/v1/templates/${randomUUID()}`],
    expected: all([404, 'template_not_found'], { viewer: noScope, ...clients(noScope) }),
  },
  { area: 'cafes', what: 'list', request: () => ['GET', '/api/v1/cafes'], expected: all(ok, clients(noScope)) },
  {
    area: 'cafes',
    what: 'delete (an unknown one)',
    request: () => ['DELETE', `/api/v1/cafes/${randomUUID()}`],
    expected: all([404, 'cafe_not_found'], { viewer: noScope, ...clients(noScope) }),
  },
  {
    area: 'bulk',
    what: 'dry run into folder A',
    request: () => [
      'POST',
      '/api/v1/bulk-generate?dryRun=true',
      { type: 'website', folderId: folderA, data: [{ name: 'T', url: 'https://example.com/' }] },
    ],
    expected: all(ok, { viewer: noScope, 'client-view': noScope }),
  },
  {
    area: 'analytics',
    what: 'the account’s',
    request: () => ['GET', '/api/v1/analytics/general'],
    expected: all(ok, clients(roleRequired)),
  },
  { area: 'analytics', what: 'a link in folder A', request: () => ['GET', `/api/v1/links/${linkA}/analytics/general`], expected: all(ok) },
  { area: 'usage', what: 'the account’s', request: () => ['GET', '/api/v1/usage'], expected: all(ok, clients(roleRequired)) },
  { area: 'jobs', what: 'list', request: () => ['GET', '/api/v1/jobs'], expected: all(ok) },
  { area: 'members', what: 'list', request: () => ['GET', '/api/v1/members'], expected: all(ok, clients(roleRequired)) },
  {
    area: 'members',
    what: 'change a role (of nobody)',
    request: () => ['PATCH', `/api/v1/members/${randomUUID()}`, { role: 'viewer' }],
    expected: all(roleRequired, { owner: [404, 'member_not_found'], admin: [404, 'member_not_found'] }),
  },
  { area: 'api keys', what: 'list', request: () => ['GET', '/api/v1/api-keys'], expected: all(roleRequired, { owner: ok, admin: ok }) },
  {
    area: 'audit log',
    what: 'list',
    request: () => ['GET', '/api/v1/audit-events'],
    expected: all(roleRequired, { owner: ok, admin: ok }),
  },
];

describe.each(ROLES)('as %s', (role) => {
  it.each(CASES.map((c) => [`${c.area}: ${c.what}`, c] as const))('%s', async (_label, c) => {
    const [method, url, body] = c.request();
    const res: LightMyRequestResponse = await callAs(api.app, cookies.get(role)!, method, url, body);
    const [status, code] = c.expected[role];
    expect(res.statusCode, res.body).toBe(status);
    if (code) expect(res.json().code).toBe(code);
  });
});
