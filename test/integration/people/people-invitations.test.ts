/**
 * Invitations and members: an invitation travels by real mail (an SMTP server of the test's own)
 * and its link is followed to join the account with the role; a link works once, for 7 days,
 * until withdrawn, and only ever for its own address. Who may invite and change whom, the last
 * owner, and a removed member's sessions and keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '#domain/accounts/api-keys.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, signIn, type TestPerson } from '../../support/people.js';
import { startSmtpServer, type RunningSmtp } from '../../support/smtp.js';

let api: TestApi;
let smtp: RunningSmtp;
let account: TestAccount;
let owner: TestPerson;
let ownerCookie: string;
let admin: TestPerson;
let adminCookie: string;
let n = 0;

const PASSWORD = 'a long enough test password';
const fresh = (name = 'guest') => `${name}-${process.pid}-${Date.now()}-${++n}@example.com`;
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token')!;
const accept = (body: Record<string, unknown>) => api.app.inject({ method: 'POST', url: '/api/v1/invitations/accept', payload: body });

async function invite(cookie: string, body: Record<string, unknown>) {
  return callAs(api.app, cookie, 'POST', '/api/v1/invitations', body);
}

/** An invitation the admin made (throws unless 200): its id and token. */
async function invited(email: string, role = 'editor', extra: Record<string, unknown> = {}) {
  const res = await invite(adminCookie, { email, role, ...extra });
  if (res.statusCode !== 200) throw new Error(`invite ${res.statusCode}: ${res.body}`);
  return { id: res.json().id as string, token: tokenOf(res.json().link) };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  api = await startTestApi({ SMTP_URL: smtp.url, PUBLIC_API_URL: 'https://qr.example.com/api/v1' });
  account = await createTestAccount(api.ctx, { name: 'Aroma Lisboa' });
  owner = await createTestPerson(api.ctx, account.accountId, 'owner', { name: 'Olga' });
  ownerCookie = await signIn(api.app, owner.email, owner.password);
  admin = await createTestPerson(api.ctx, account.accountId, 'admin', { name: 'Ada' });
  adminCookie = await signIn(api.app, admin.email, admin.password);
}, 60_000);
afterAll(async () => {
  await api?.close();
  await smtp?.close();
});

describe('an invitation', () => {
  it('is mailed through the SMTP server; its link joins the account with the role and signs in', async () => {
    const email = fresh('bea');
    const res = await invite(adminCookie, { email, role: 'editor' });
    expect(res.statusCode).toBe(200);
    const created = res.json();
    expect(created).toMatchObject({ email, role: 'editor', clientAccess: null, folderIds: null, mailed: true });
    expect(created.link).toMatch(/^https:\/\/qr\.example\.com\/#\/join\?token=[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(created.expiresAt) - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);

    const mail = await smtp.waitForMail((m) => m.envelope.to.includes(email));
    expect(mail.subject).toBe('Ada invited you to Aroma Lisboa on qrlinks');
    const link = /https:\/\/\S+/.exec(mail.text)![0];
    expect(link).toBe(created.link);
    const token = tokenOf(link);
    // Only the token's hash is stored.
    const { rows } = await api.ctx.database.pool.query('select token_hash from invitations where id = $1', [created.id]);
    expect(rows[0].token_hash).not.toContain(token);

    const preview = await api.app.inject({ method: 'POST', url: '/api/v1/invitations/lookup', payload: { token } });
    expect(preview.json()).toEqual({ email, accountName: 'Aroma Lisboa', role: 'editor', inviterName: 'Ada', userExists: false });

    const joined = await accept({ token, password: PASSWORD, name: 'Bea' });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toMatchObject({ user: { email, name: 'Bea' }, accountId: account.accountId });
    const cookie = String(joined.headers['set-cookie']).split(';')[0]!;
    const me = await callAs(api.app, cookie, 'GET', '/api/v1/me');
    expect(me.json()).toMatchObject({ account: { id: account.accountId }, role: 'editor', user: { email } });
    // And the new person signs in with the password they chose.
    expect(await signIn(api.app, email, PASSWORD)).toMatch(/^qrlinks_session=/);
    const list = await callAs(api.app, adminCookie, 'GET', '/api/v1/invitations');
    expect(list.json().data.find((i: { id: string }) => i.id === created.id)).toMatchObject({
      status: 'accepted',
      invitedBy: { id: admin.userId, name: 'Ada' },
    });
  });

  it('works once: the second use of a link is a 404', async () => {
    const { token } = await invited(fresh());
    const [a, b] = await Promise.all([accept({ token, password: PASSWORD }), accept({ token, password: PASSWORD })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 404]);
    const again = await accept({ token, password: PASSWORD });
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('invitation_not_found');
  });

  it('expires after 7 days: 409 invitation_expired', async () => {
    const { id, token } = await invited(fresh());
    await api.ctx.database.pool.query("update invitations set expires_at = now() - interval '1 second' where id = $1", [id]);
    for (const [url, payload] of [
      ['/api/v1/invitations/accept', { token, password: PASSWORD }],
      ['/api/v1/invitations/lookup', { token }],
    ] as const) {
      const res = await api.app.inject({ method: 'POST', url, payload });
      expect(res.statusCode).toBe(409);
      expect(res.json().code).toBe('invitation_expired');
    }
    const list = await callAs(api.app, adminCookie, 'GET', '/api/v1/invitations');
    expect(list.json().data.find((i: { id: string }) => i.id === id).status).toBe('expired');
    // Sent again: a new link, 7 more days; the old one stays dead.
    const resent = await callAs(api.app, adminCookie, 'POST', `/api/v1/invitations/${id}/resend`);
    expect(resent.statusCode).toBe(200);
    expect((await accept({ token, password: PASSWORD })).statusCode).toBe(404);
    expect((await accept({ token: tokenOf(resent.json().link), password: PASSWORD })).statusCode).toBe(200);
  });

  it('withdrawn: its link is a 404', async () => {
    const { id, token } = await invited(fresh());
    expect((await callAs(api.app, adminCookie, 'DELETE', `/api/v1/invitations/${id}`)).statusCode).toBe(200);
    const res = await accept({ token, password: PASSWORD });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('invitation_not_found');
  });

  it("never signs its holder in as someone else: an existing person's address needs their password", async () => {
    const other = await createTestAccount(api.ctx);
    const cy = await createTestPerson(api.ctx, other.accountId, 'owner');
    const { token } = await invited(cy.email.toUpperCase(), 'viewer');
    const preview = await api.app.inject({ method: 'POST', url: '/api/v1/invitations/lookup', payload: { token } });
    expect(preview.json().userExists).toBe(true);
    const wrong = await accept({ token, password: 'someone else entirely' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('invalid_credentials');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    // The link is still theirs to use, with their own password: they join, keeping their other account.
    const right = await accept({ token, password: cy.password });
    expect(right.statusCode).toBe(200);
    expect(right.json().user.email).toBe(cy.email);
    const cookie = String(right.headers['set-cookie']).split(';')[0]!;
    const me = (await callAs(api.app, cookie, 'GET', '/api/v1/me')).json();
    expect(me.user.id).toBe(cy.userId);
    expect(me.accounts.map((a: { id: string; role: string }) => [a.id, a.role]).sort()).toEqual(
      [
        [account.accountId, 'viewer'],
        [other.accountId, 'owner'],
      ].sort(),
    );
  });

  it('is refused to an editor (403 role_required); an admin cannot invite an owner, an owner can', async () => {
    const editor = await createTestPerson(api.ctx, account.accountId, 'editor');
    const byEditor = await invite(await signIn(api.app, editor.email, editor.password), { email: fresh(), role: 'viewer' });
    expect(byEditor.statusCode).toBe(403);
    expect(byEditor.json().code).toBe('role_required');
    const ownerByAdmin = await invite(adminCookie, { email: fresh(), role: 'owner' });
    expect(ownerByAdmin.statusCode).toBe(403);
    expect(ownerByAdmin.json().code).toBe('role_required');
    expect((await invite(adminCookie, { email: fresh(), role: 'admin' })).statusCode).toBe(200);
    expect((await invite(ownerCookie, { email: fresh(), role: 'owner' })).statusCode).toBe(200);
  });

  it("gives a client only this account's folders", async () => {
    const folder = (await call(api.app, account.key, 'POST', '/api/v1/folders', { name: 'Client work' })).json();
    const elsewhere = await createTestAccount(api.ctx);
    const foreign = (await call(api.app, elsewhere.key, 'POST', '/api/v1/folders', { name: 'Not theirs' })).json();
    const bad = await invite(adminCookie, { email: fresh(), role: 'client', folderIds: [folder.id, foreign.id] });
    expect(bad.statusCode).toBe(404);
    expect(bad.json().code).toBe('folder_not_found');
    const onEditor = await invite(adminCookie, { email: fresh(), role: 'editor', folderIds: [folder.id] });
    expect(onEditor.statusCode).toBe(400);
    const { token } = await invited(fresh(), 'client', { clientAccess: 'edit', folderIds: [folder.id] });
    const cookie = String((await accept({ token, password: PASSWORD })).headers['set-cookie']).split(';')[0]!;
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/me')).json()).toMatchObject({ role: 'client', folderIds: [folder.id] });
  });

  it('cannot invite one address twice, whatever its case or width', async () => {
    const email = fresh('dora');
    const { token } = await invited(email);
    expect((await accept({ token, password: PASSWORD })).statusCode).toBe(200);
    const upper = await invite(adminCookie, { email: email.toUpperCase(), role: 'viewer' });
    expect(upper.statusCode).toBe(409);
    expect(upper.json().code).toBe('already_member');
    const fullWidth = email.replace('dora', 'ｄｏｒａ');
    const wide = await invite(adminCookie, { email: fullWidth, role: 'viewer' });
    expect(wide.statusCode).toBe(409);
    expect(wide.json().code).toBe('already_member');
    // A second invitation of a pending address replaces the first: one live link per person.
    const eli = fresh('eli');
    const first = await invited(eli);
    const second = await invited(eli.toUpperCase());
    expect((await accept({ token: first.token, password: PASSWORD })).statusCode).toBe(404);
    expect((await accept({ token: second.token, password: PASSWORD })).statusCode).toBe(200);
  });

  it('answers hostile tokens and bodies with a clear 4xx', async () => {
    for (const token of ['', 'x', 'A'.repeat(43), '\u0001'.repeat(43), 'A'.repeat(200)]) {
      const res = await accept({ token, password: PASSWORD });
      expect(res.statusCode, token).toBe(404);
      expect(res.json().code).toBe('invitation_not_found');
    }
    expect((await accept({ token: 'A'.repeat(201), password: PASSWORD })).statusCode).toBe(400);
    const res = await invite(adminCookie, { email: 'not an address', role: 'viewer' });
    expect(res.statusCode).toBe(400);
    const crossSite = await api.app.inject({
      method: 'POST',
      url: '/api/v1/invitations/accept',
      payload: { token: 'A'.repeat(43), password: PASSWORD },
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.json().code).toBe('csrf_rejected');
  });
});

describe('members', () => {
  it('lists the people of the account to anyone in it', async () => {
    const viewer = await createTestPerson(api.ctx, account.accountId, 'viewer');
    const res = await callAs(api.app, await signIn(api.app, viewer.email, viewer.password), 'GET', '/api/v1/members');
    expect(res.statusCode).toBe(200);
    const me = res.json().data.find((m: { userId: string }) => m.userId === viewer.userId);
    expect(me).toMatchObject({ email: viewer.email, role: 'viewer', twoFactor: false, lastSeenAt: expect.any(String) });
    expect(res.json().data.find((m: { userId: string }) => m.userId === owner.userId).role).toBe('owner');
  });

  it('nobody changes their own role; only an owner makes an owner', async () => {
    const self = await callAs(api.app, adminCookie, 'PATCH', `/api/v1/members/${admin.userId}`, { role: 'owner' });
    expect(self.statusCode).toBe(403);
    expect(self.json().code).toBe('own_role_unchangeable');
    const editor = await createTestPerson(api.ctx, account.accountId, 'editor');
    const raise = await callAs(api.app, adminCookie, 'PATCH', `/api/v1/members/${editor.userId}`, { role: 'owner' });
    expect(raise.statusCode).toBe(403);
    expect(raise.json().code).toBe('role_required');
    const demoteOwner = await callAs(api.app, adminCookie, 'PATCH', `/api/v1/members/${owner.userId}`, { role: 'viewer' });
    expect(demoteOwner.json().code).toBe('role_required');
    const editorCookie = await signIn(api.app, editor.email, editor.password);
    const selfRaise = await callAs(api.app, editorCookie, 'PATCH', `/api/v1/members/${editor.userId}`, { role: 'admin' });
    expect(selfRaise.statusCode).toBe(403);
    expect((await callAs(api.app, editorCookie, 'GET', '/api/v1/me')).json().role).toBe('editor');
    // An admin moves the editor to admin; at their next request they are one.
    expect((await callAs(api.app, adminCookie, 'PATCH', `/api/v1/members/${editor.userId}`, { role: 'admin' })).statusCode).toBe(200);
    await expect.poll(async () => (await callAs(api.app, editorCookie, 'GET', '/api/v1/me')).json().role).toBe('admin');
  });

  it('the last owner can neither be demoted nor leave', async () => {
    const solo = await createTestAccount(api.ctx);
    const only = await createTestPerson(api.ctx, solo.accountId, 'owner');
    const cookie = await signIn(api.app, only.email, only.password);
    // The operator's key counts as an owner: it may demote owners, but not the last one.
    const demote = await call(api.app, solo.key, 'PATCH', `/api/v1/members/${only.userId}`, { role: 'admin' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().code).toBe('last_owner');
    const leave = await callAs(api.app, cookie, 'DELETE', `/api/v1/members/${only.userId}`);
    expect(leave.statusCode).toBe(409);
    expect(leave.json().code).toBe('last_owner');
    // With a second owner, the first may leave.
    await createTestPerson(api.ctx, solo.accountId, 'owner');
    expect((await callAs(api.app, cookie, 'DELETE', `/api/v1/members/${only.userId}`)).statusCode).toBe(200);
  });

  it("a removed member's sessions and keys stop at once", async () => {
    const gil = await createTestPerson(api.ctx, account.accountId, 'editor');
    const cookie = await signIn(api.app, gil.email, gil.password);
    const { key } = await createApiKey(api.ctx.db, { accountId: account.accountId, scopes: ['links.read'], createdByUserId: gil.userId });
    expect((await callAs(api.app, cookie, 'GET', '/api/v1/links')).statusCode).toBe(200);
    expect((await call(api.app, key, 'GET', '/api/v1/links')).statusCode).toBe(200);
    const viewer = await createTestPerson(api.ctx, account.accountId, 'viewer');
    const byViewer = await callAs(api.app, await signIn(api.app, viewer.email, viewer.password), 'DELETE', `/api/v1/members/${gil.userId}`);
    expect(byViewer.json().code).toBe('role_required');
    expect((await callAs(api.app, adminCookie, 'DELETE', `/api/v1/members/${gil.userId}`)).statusCode).toBe(200);
    await expect.poll(async () => (await callAs(api.app, cookie, 'GET', '/api/v1/links')).statusCode, { timeout: 2000 }).toBe(401);
    await expect.poll(async () => (await call(api.app, key, 'GET', '/api/v1/links')).statusCode, { timeout: 2000 }).toBe(401);
    const again = await callAs(api.app, adminCookie, 'DELETE', `/api/v1/members/${gil.userId}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('member_not_found');
  });
});
