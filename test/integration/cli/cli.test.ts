import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from '../../support/harness.js';
import { runEntry } from '../../support/processes.js';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

const cli = (...args: string[]) => runEntry('cli/index.ts', args);
const oneJsonLine = (stdout: string) => {
  const lines = stdout.split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
};

describe('CLI: accounts and keys from the shell, one JSON line each', () => {
  it('account create → key create → the key works → key revoke → it does not', async () => {
    const created = await cli('account', 'create', '--name', 'Cafe Aroma', '--plan', 'pro');
    expect(created.code).toBe(0);
    const account = oneJsonLine(created.stdout);
    expect(Object.keys(account).sort()).toEqual(['id', 'name', 'plan']);
    expect(account).toMatchObject({ name: 'Cafe Aroma', plan: 'pro' });

    const keyRun = await cli('key', 'create', '--account', account.id, '--scopes', 'folders.read,folders.create', '--name', 'ops');
    expect(keyRun.code).toBe(0);
    const key = oneJsonLine(keyRun.stdout);
    expect(Object.keys(key).sort()).toEqual(['consoleUrl', 'id', 'key']);
    expect(key.key).toMatch(/^key-/);
    // The console is served at the root of the api's public origin.
    expect(key.consoleUrl).toBe(new URL('/', api.ctx.config.PUBLIC_API_URL).href);
    const behindProxy = oneJsonLine(
      (
        await runEntry('cli/index.ts', ['key', 'create', '--account', account.id, '--scopes', 'all'], {
          PUBLIC_API_URL: 'https://qr.example.com/api/v1',
        })
      ).stdout,
    );
    expect(behindProxy.consoleUrl).toBe('https://qr.example.com/');

    const folder = await call(api.app, key.key, 'POST', '/api/v1/folders', { name: 'from cli' });
    expect(folder.statusCode).toBe(200);
    expect(folder.json().account_id).toBe(account.id);
    expect((await call(api.app, key.key, 'DELETE', `/api/v1/folders/${folder.json().id}`)).statusCode).toBe(403);

    const revoked = await cli('key', 'revoke', '--id', key.id);
    expect(oneJsonLine(revoked.stdout)).toEqual({ id: key.id, revoked: true });
    expect((await call(api.app, key.key, 'GET', '/api/v1/folders')).statusCode).toBe(401);

    const list = oneJsonLine((await cli('account', 'list')).stdout);
    expect(list.data.some((a: { id: string }) => a.id === account.id)).toBe(true);
  });

  it('key create with --expires-at and scope all', async () => {
    const account = oneJsonLine((await cli('account', 'create', '--name', 'E', '--plan', 'starter')).stdout);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const run = await cli('key', 'create', '--account', account.id, '--scopes', 'all', '--expires-at', future);
    expect(run.code).toBe(0);
    const { key } = oneJsonLine(run.stdout);
    expect((await call(api.app, key, 'GET', '/api/v1/templates')).statusCode).toBe(200);
  });

  it.each([
    [['account', 'create', '--name', 'x', '--plan', 'gold'], /--plan must be one of/],
    [['account', 'create', '--plan', 'pro'], /--name is required/],
    [['key', 'create', '--account', '00000000-0000-4000-8000-000000000000', '--scopes', 'all'], /no account/],
    [['key', 'revoke', '--id', 'nope'], /no API key/],
    [['launch', 'rockets'], /unknown command/],
  ])('%o fails with exit 1 and a JSON error on stderr', async (args, pattern) => {
    const run = await cli(...args);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr.trim().split('\n').pop()!).error).toMatch(pattern);
  });

  it('rejects an unknown scope', async () => {
    const account = oneJsonLine((await cli('account', 'create', '--name', 'S', '--plan', 'pro')).stdout);
    const run = await cli('key', 'create', '--account', account.id, '--scopes', 'links.read,admin');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/unknown scope admin/);
  });
});

describe('CLI: people', () => {
  const PASSWORD = 'a long enough test password';
  const signIn = (email: string, password: string) =>
    api.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { email, password } });

  it('user create makes a member with the role who signs in; a taken address or weak password is refused', async () => {
    const account = oneJsonLine((await cli('account', 'create', '--name', 'People', '--plan', 'pro')).stdout);
    const email = `ivy-${process.pid}-${Date.now()}@example.com`;
    const run = await cli(
      'user',
      'create',
      '--email',
      email,
      '--password',
      PASSWORD,
      '--account',
      account.id,
      '--role',
      'admin',
      '--name',
      'Ivy',
    );
    expect(run.code).toBe(0);
    expect(oneJsonLine(run.stdout)).toMatchObject({ email, name: 'Ivy', accountId: account.id, role: 'admin' });
    const session = await signIn(email, PASSWORD);
    expect(session.statusCode).toBe(200);
    const cookie = String(session.headers['set-cookie']).split(';')[0]!;
    const me = await api.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } });
    expect(me.json()).toMatchObject({ role: 'admin', account: { id: account.id } });

    const taken = await cli(
      'user',
      'create',
      '--email',
      email.toUpperCase(),
      '--password',
      PASSWORD,
      '--account',
      account.id,
      '--role',
      'viewer',
    );
    expect(taken.code).toBe(1);
    expect(JSON.parse(taken.stderr.trim())).toMatchObject({ code: 'email_taken' });
    const weak = await cli('user', 'create', '--email', `x${email}`, '--password', 'short', '--account', account.id, '--role', 'viewer');
    expect(weak.code).toBe(1);
    expect(weak.stdout).toBe('');
    const badRole = await cli('user', 'create', '--email', `y${email}`, '--password', PASSWORD, '--account', account.id, '--role', 'boss');
    expect(JSON.parse(badRole.stderr.trim()).error).toMatch(/--role must be one of/);
  });

  it('user reset-password sets a password (ending sessions) or prints a one-time reset link', async () => {
    const account = oneJsonLine((await cli('account', 'create', '--name', 'Resets', '--plan', 'pro')).stdout);
    const email = `jo-${process.pid}-${Date.now()}@example.com`;
    await cli('user', 'create', '--email', email, '--password', PASSWORD, '--account', account.id, '--role', 'editor');
    const cookie = String((await signIn(email, PASSWORD)).headers['set-cookie']).split(';')[0]!;
    const set = await cli('user', 'reset-password', '--email', email, '--password', 'another long password');
    expect(set.code).toBe(0);
    expect((await signIn(email, PASSWORD)).statusCode).toBe(401);
    expect((await signIn(email, 'another long password')).statusCode).toBe(200);
    await expect.poll(async () => (await api.app.inject({ method: 'GET', url: '/api/v1/me', headers: { cookie } })).statusCode).toBe(401);

    const link = oneJsonLine((await cli('user', 'reset-password', '--email', email)).stdout);
    expect(link.link).toMatch(/^http:\/\/localhost:3000\/#\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(link.link.replace('/#/', '/')).searchParams.get('token')!;
    const { rows } = await api.ctx.database.pool.query(
      "select r.token_hash from password_resets r join users u on u.id = r.user_id where u.email = $1 and r.expires_at > now() + interval '29 minutes'",
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    const nobody = await cli('user', 'reset-password', '--email', 'nobody@example.com');
    expect(nobody.code).toBe(1);
    expect(JSON.parse(nobody.stderr.trim()).error).toMatch(/no user/);
  });
});
