/**
 * First start and registration: on a database nobody signs in to yet (one of this file's own),
 * `npm start` prints a one-time setup link and `cli setup-link` a fresh one; the link makes the
 * first owner and account once, and only while nobody exists. REGISTRATION decides whether
 * strangers may sign up.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrateDatabase } from '#platform/database/migrate.js';
import { issueSetupToken } from '#domain/people/setup.js';
import { createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';
import { callAs, createTestPerson } from '../../support/people.js';
import { testEnv } from '../../support/env.js';
import { freshDatabase } from '../../support/migration-db.js';
import { collect, freePort, runEntry, startEntry, stopProcess } from '../../support/processes.js';

// Starting `npm start` compiles TypeScript as it starts; the limits bound a hang, they time nothing.
vi.setConfig({ testTimeout: 300_000, hookTimeout: 240_000 });

const PASSWORD = 'a long enough test password';
const emptyDatabase = (suffix: string) => {
  const url = new URL(testEnv.DATABASE_URL);
  url.pathname = `${url.pathname}_${suffix}`;
  return url;
};
const tokenOf = (link: string) => new URL(link.replace('/#/', '/')).searchParams.get('token')!;
const cookieOf = (res: { headers: Record<string, unknown> }) => String(res.headers['set-cookie']).split(';')[0]!;

describe('first start', () => {
  let api: TestApi;
  const url = emptyDatabase('setup');

  beforeAll(async () => {
    await freshDatabase(url);
    await migrateDatabase(url.toString());
    api = await startTestApi({ DATABASE_URL: url.toString() });
  });
  afterAll(async () => {
    await api?.close();
    await freshDatabase(url, false);
  });

  const setup = (body: Record<string, unknown>) => api.app.inject({ method: 'POST', url: '/api/v1/setup', payload: body });
  const owner = { email: 'Owner@Example.com', password: PASSWORD, name: 'Olga', accountName: 'Aroma' };

  it('works once, only while nobody exists; the CLI prints the link and then says setup is done', async () => {
    expect((await api.app.inject({ method: 'GET', url: '/api/v1/setup' })).json()).toEqual({ needed: true });
    const unknown = await setup({ ...owner, token: 'A'.repeat(43) });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('setup_link_invalid');

    // A link printed earlier stops working when a new one is printed.
    const older = (await issueSetupToken(api.ctx.db))!;
    const cli = await runEntry('cli/index.ts', ['setup-link'], { DATABASE_URL: url.toString() });
    expect(cli.code).toBe(0);
    const { link } = JSON.parse(cli.stdout);
    expect(link).toMatch(/^http:\/\/localhost:3000\/#\/setup\?token=[A-Za-z0-9_-]{43}$/);
    expect((await setup({ ...owner, token: older })).json().code).toBe('setup_link_invalid');

    // Two at once with the link: one makes the owner, the other finds it done.
    const [a, b] = await Promise.all([setup({ ...owner, token: tokenOf(link) }), setup({ ...owner, token: tokenOf(link) })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const done = a.statusCode === 200 ? a : b;
    const me = (await callAs(api.app, cookieOf(done), 'GET', '/api/v1/me')).json();
    expect(me).toMatchObject({
      role: 'owner',
      account: { name: 'Aroma', plan: 'business' },
      user: { email: 'Owner@Example.com', name: 'Olga' },
    });

    expect((await api.app.inject({ method: 'GET', url: '/api/v1/setup' })).json()).toEqual({ needed: false });
    expect(await issueSetupToken(api.ctx.db)).toBeNull();
    const again = await setup({ ...owner, email: 'another@example.com', token: tokenOf(link) });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('setup_done');
    const after = JSON.parse((await runEntry('cli/index.ts', ['setup-link'], { DATABASE_URL: url.toString() })).stdout);
    expect(after).toMatchObject({ setupDone: true });
  });
});

describe('npm start on an empty database', () => {
  const url = emptyDatabase('start');
  beforeAll(() => freshDatabase(url));
  afterAll(() => freshDatabase(url, false));

  it('prints the setup link once; the link makes the owner over HTTP', async () => {
    const [port, redirectPort] = [await freePort(), await freePort()];
    const main = startEntry('main.ts', [], {
      DATABASE_URL: url.toString(),
      PORT: String(port),
      REDIRECT_PORT: String(redirectPort),
      SHORT_URL_BASE: `http://127.0.0.1:${redirectPort}`,
      PUBLIC_API_URL: `http://127.0.0.1:${port}/api/v1`,
    });
    const exited = collect(main, 290_000);
    let stdout = '';
    main.stdout!.on('data', (d) => (stdout += d));
    try {
      // The api answers once its role is up; by then the preparation that prints the link is over.
      await vi.waitFor(async () => expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200), {
        timeout: 220_000,
        interval: 250,
      });
      const links = stdout.match(/http:\/\/127\.0\.0\.1:\d+\/#\/setup\?token=[A-Za-z0-9_-]{43}/g) ?? [];
      expect(links).toHaveLength(1);
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: tokenOf(links[0]!), email: 'first@example.com', password: PASSWORD, accountName: 'First' }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('set-cookie')).toMatch(/^qrlinks_session=/);
    } finally {
      await stopProcess(main);
    }
    expect((await exited).code).toBe(0);
  });
});

describe('registration', () => {
  const apis: TestApi[] = [];
  const start = async (registration?: string) => {
    const api = await startTestApi(registration ? { REGISTRATION: registration } : {});
    apis.push(api);
    return api;
  };
  afterAll(() => Promise.all(apis.map((a) => a.close())));
  const signUp = (api: TestApi, email: string) =>
    api.app.inject({ method: 'POST', url: '/api/v1/users', payload: { email, password: PASSWORD, accountName: 'My Cafe' } });

  it('open: sign-up makes a person with an account of their own, once per address whatever its case or width', async () => {
    const api = await start('open');
    const email = `fay-${process.pid}-${Date.now()}@example.com`;
    const res = await signUp(api, email);
    expect(res.statusCode).toBe(200);
    const me = (await callAs(api.app, cookieOf(res), 'GET', '/api/v1/me')).json();
    expect(me).toMatchObject({ role: 'owner', account: { name: 'My Cafe', plan: 'starter' }, user: { email } });
    for (const again of [email.toUpperCase(), email.replace('fay', 'ＦＡＹ')]) {
      const twice = await signUp(api, again);
      expect(twice.statusCode, again).toBe(409);
      expect(twice.json().code).toBe('email_taken');
    }
  });

  it.each([undefined, 'invite', 'closed'])('%s: sign-up is a 403 registration_closed', async (registration) => {
    const api = await start(registration);
    const res = await signUp(api, `gus-${process.pid}-${Date.now()}@example.com`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('registration_closed');
  });

  it('closed: an invitation adds only someone who already signs in here', async () => {
    const api = await start('closed');
    const account = await createTestAccount(api.ctx);
    const other = await createTestAccount(api.ctx);
    const known = await createTestPerson(api.ctx, other.accountId, 'viewer');
    const invite = (email: string) =>
      api.app.inject({
        method: 'POST',
        url: '/api/v1/invitations',
        headers: { authorization: `Basic ${account.key}` },
        payload: { email, role: 'viewer' },
      });
    const stranger = await invite(`hal-${process.pid}-${Date.now()}@example.com`);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json().code).toBe('registration_closed');
    expect((await invite(known.email)).statusCode).toBe(200);
  });
});
