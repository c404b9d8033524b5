import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApi, type TestApi } from './support/harness.js';
import { runEntry } from './support/processes.js';

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
