/**
 * /api/v1/utm-templates: an account's named UTM parameters. CRUD, names unique ignoring case,
 * 100 per account, other accounts' ids are 404s, viewers read and editors write, audited.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UTM_TEMPLATES_PER_ACCOUNT } from '#domain/utm/utm-templates.js';
import { utmTemplates } from '#domain/schema.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson, signIn } from '../../support/people.js';

let api: TestApi;
let me: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx);
  other = await createTestAccount(api.ctx);
});
afterAll(() => api.close());

const URL = '/api/v1/utm-templates';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const create = (account: TestAccount, body: unknown) => call(api.app, account.key, 'POST', URL, body);

describe('utm templates', () => {
  it('create, get, list by name, change and delete', async () => {
    const made = await create(me, { name: 'Spring print', utm: { source: ' flyer ', medium: 'print', campaign: 'spring' } });
    expect(made.statusCode).toBe(200);
    const template = made.json().data;
    expect(template).toEqual({
      id: expect.any(String),
      name: 'Spring print',
      utm: { source: 'flyer', medium: 'print', campaign: 'spring' },
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    await create(me, { name: 'autumn mail', utm: { source: 'mail' } });
    expect((await call(api.app, me.key, 'GET', `${URL}/${template.id}`)).json().data).toEqual(template);
    const names = (await call(api.app, me.key, 'GET', URL)).json().data.map((t: { name: string }) => t.name);
    expect(names).toEqual(['autumn mail', 'Spring print']);

    const changed = await call(api.app, me.key, 'PATCH', `${URL}/${template.id}`, { utm: { source: 'poster' } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data).toMatchObject({ name: 'Spring print', utm: { source: 'poster' } });

    expect((await call(api.app, me.key, 'DELETE', `${URL}/${template.id}`)).json()).toEqual({ message: 'UTM template deleted' });
    const gone = await call(api.app, me.key, 'GET', `${URL}/${template.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ code: 'utm_template_not_found', message: 'UTM template not found' });
  });

  it('a name the account has already, in any case, is a 409; another account may use it', async () => {
    expect((await create(me, { name: 'Dup', utm: { source: 'a' } })).statusCode).toBe(200);
    const again = await create(me, { name: 'DUP', utm: { source: 'b' } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'utm_template_name_taken', errors: [{ path: 'name' }] });
    const second = (await create(me, { name: 'Dup two', utm: { source: 'c' } })).json().data;
    const renamed = await call(api.app, me.key, 'PATCH', `${URL}/${second.id}`, { name: 'dup' });
    expect(renamed.json().code).toBe('utm_template_name_taken');
    expect((await create(other, { name: 'Dup', utm: { source: 'a' } })).statusCode).toBe(200);
  });

  it('refuses bad bodies with a 400 per field', async () => {
    const res = await create(me, { name: ' ', utm: { source: 'x'.repeat(201), medium: 'a\nb', extra: 'no' } });
    expect(res.statusCode).toBe(400);
    expect(
      res
        .json()
        .errors.map((e: { path: string }) => e.path)
        .sort(),
    ).toEqual(['name', 'utm.extra', 'utm.medium', 'utm.source']);
    expect((await create(me, { name: 'Empty', utm: {} })).json().errors).toEqual([
      { path: 'utm', message: 'Give at least one UTM parameter' },
    ]);
    expect((await create(me, { name: 'Null', utm: null })).statusCode).toBe(400);
  });

  it("another account's template, or no id at all, is a 404", async () => {
    const theirs = (await create(other, { name: 'Theirs', utm: { source: 'x' } })).json().data;
    for (const [method, body] of [['GET'], ['PATCH', { name: 'Mine' }], ['DELETE']] as const) {
      for (const id of [theirs.id, 'not-a-uuid']) {
        const res = await call(api.app, me.key, method, `${URL}/${id}`, body);
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json().code).toBe('utm_template_not_found');
      }
    }
    expect((await call(api.app, other.key, 'GET', `${URL}/${theirs.id}`)).json().data.name).toBe('Theirs');
  });

  it(`an account holds at most ${UTM_TEMPLATES_PER_ACCOUNT}`, async () => {
    const full = await createTestAccount(api.ctx);
    await api.ctx.db
      .insert(utmTemplates)
      .values(
        Array.from({ length: UTM_TEMPLATES_PER_ACCOUNT }, (_, i) => ({ accountId: full.accountId, name: `t${i}`, utm: { source: 's' } })),
      );
    const res = await create(full, { name: 'one more', utm: { source: 's' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('utm_template_limit_reached');
  });

  it('viewers read, editors write; each write is audited', async () => {
    const team = await createTestAccount(api.ctx);
    const viewer = await createTestPerson(api.ctx, team.accountId, 'viewer');
    const editor = await createTestPerson(api.ctx, team.accountId, 'editor');
    const asViewer = await signIn(api.app, viewer.email, viewer.password);
    const asEditor = await signIn(api.app, editor.email, editor.password);
    const made = await callAs(api.app, asEditor, 'POST', URL, { name: 'Team', utm: { source: 'qr' } });
    expect(made.statusCode).toBe(200);
    const id = made.json().data.id;
    expect((await callAs(api.app, asViewer, 'GET', URL)).json().data).toHaveLength(1);
    expect((await callAs(api.app, asViewer, 'POST', URL, { name: 'No', utm: { source: 'x' } })).statusCode).toBe(403);
    expect((await callAs(api.app, asViewer, 'PATCH', `${URL}/${id}`, { name: 'No' })).statusCode).toBe(403);
    expect((await callAs(api.app, asViewer, 'DELETE', `${URL}/${id}`)).statusCode).toBe(403);
    await callAs(api.app, asEditor, 'PATCH', `${URL}/${id}`, { utm: { source: 'poster' } });
    const events = (await call(api.app, team.key, 'GET', `/api/v1/audit-events?entity=utm_template`)).json().data;
    expect(events.map((e: { action: string }) => e.action)).toEqual(['update', 'create']);
    expect(events[0].changes).toEqual([{ field: 'utm', before: '{"source":"qr"}', after: '{"source":"poster"}' }]);
  });
});
