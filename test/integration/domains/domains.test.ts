/**
 * Brand domains through the api, checked against a real DNS server on loopback (dns2): adding
 * (one stored form, one owner across the service, the plan's count), the records to set beside
 * what was found, proof by TXT record, routing to the service's addresses (directly or by
 * CNAME), a verified domain that stops routing here, a DNS server that never answers, and
 * turning a domain off and on.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.js';
import { startSmtpServer, type RunningSmtp } from '../../support/smtp.js';
import { createTestPerson } from '../../support/people.js';
import { dueDomains, RECHECK, recheckDomains } from '#domain/domains/recheck.js';
import { scheduleMaintenance } from '#workers/processors/maintenance.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';
import { freePort } from '../../support/processes.js';

const V4 = '203.0.113.10';
const V6 = '2001:db8::10';
const DNS_TIMEOUT_MS = 400;
const TLS_TOKEN = 'a-long-enough-tls-ask-token';

let dns: TestDnsServer;
let smtp: RunningSmtp;
let api: TestApi;
let me: TestAccount;
let other: TestAccount;

let redirect: TestRedirect;

beforeAll(async () => {
  dns = await startDnsServer();
  smtp = await startSmtpServer();
  // The redirect answers brand domains' HTTP challenge; the check asks it on its port, on loopback.
  const redirectPort = await freePort();
  api = await startTestApi({
    DOMAIN_HTTP_PORT: String(redirectPort),
    DOMAIN_CHECK_ALLOW_CIDRS: '127.0.0.0/8',
    SMTP_URL: smtp.url,
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: String(DNS_TIMEOUT_MS),
    DOMAIN_TARGET_ADDRESSES: `${V4},${V6}`,
    SHORT_URL_BASE: 'https://qr.example.net',
    // The TLS asks below come through a proxy on loopback, for a client it names.
    TRUSTED_PROXIES: '127.0.0.1',
    TLS_ASK_TOKEN: TLS_TOKEN,
  });
  me = await createTestAccount(api.ctx, { plan: 'enterprise' });
  other = await createTestAccount(api.ctx, { plan: 'enterprise' });
  redirect = await startTestRedirect(api.ctx, redirectPort);
});
afterAll(async () => {
  await redirect?.close();
  await api?.close();
  await dns?.close();
  await smtp?.close();
});

interface DomainBody {
  id: string;
  hostname: string;
  state: string;
  token: string;
  records: Array<{ purpose: string; type: string; name: string; value: string; found: string[] | null; ok: boolean | null }>;
  errors: Record<string, string>;
  verified_at: string | null;
  checked_at: string | null;
}

let n = 0;
/** A name no other test uses. */
const fresh = (label = 'links') => `${label}.brand${++n}-${process.pid}.example`;

async function add(acct: TestAccount, hostname: string, extra: Record<string, unknown> = {}) {
  const res = await call(api.app, acct.key, 'POST', '/api/v1/domains', { hostname, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<DomainBody>();
}
async function verify(acct: TestAccount, id: string) {
  const res = await call(api.app, acct.key, 'POST', `/api/v1/domains/${id}/verify`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: DomainBody }>().data;
}

describe('adding a domain', () => {
  it('stores one form of the name, whatever spelling it came in, and lists it with the records to set', async () => {
    const base = `brand${++n}-${process.pid}.example`;
    const domain = await add(me, `MENU.Café.${base}.:443`);
    expect(domain).toMatchObject({ hostname: `menu.xn--caf-dma.${base}`, state: 'pending', verified_at: null, checked_at: null });
    expect(domain.token).toMatch(/^qrlinks-[0-9a-f]{32}$/);
    expect(domain.records).toEqual([
      {
        purpose: 'ownership',
        type: 'TXT',
        name: `_qrlinks-challenge.menu.xn--caf-dma.${base}`,
        value: domain.token,
        found: null,
        ok: null,
      },
      { purpose: 'routing', type: 'A', name: `menu.xn--caf-dma.${base}`, value: V4, found: null, ok: null },
      { purpose: 'routing', type: 'AAAA', name: `menu.xn--caf-dma.${base}`, value: V6, found: null, ok: null },
      { purpose: 'routing', type: 'CNAME', name: `menu.xn--caf-dma.${base}`, value: 'qr.example.net', found: null, ok: null },
    ]);
    const list = (await call(api.app, me.key, 'GET', '/api/v1/domains')).json<{ data: DomainBody[] }>().data;
    expect(list.map((d) => d.id)).toContain(domain.id);
    expect((await call(api.app, me.key, 'GET', `/api/v1/domains/${domain.id}`)).json().data).toMatchObject({ id: domain.id });
  });

  it('has one owner across the service: another spelling, or another account, is a 409 that names no one', async () => {
    const hostname = fresh();
    await add(me, hostname);
    for (const [acct, spelling] of [
      [me, hostname.toUpperCase()],
      [other, `${hostname}.`],
      [other, `${hostname}:8443`],
    ] as const) {
      const res = await call(api.app, acct.key, 'POST', '/api/v1/domains', { hostname: spelling });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        code: 'domain_taken',
        message: 'This domain is already in use on this service',
        errors: [{ path: 'hostname', message: 'This domain is already in use on this service' }],
      });
    }
  });

  it('refuses names that cannot be an account’s, saying why', async () => {
    for (const [hostname, message] of [
      ['203.0.113.5', 'An IP address cannot be a domain; use a name that points at it'],
      ['[2001:db8::5]', 'An IP address cannot be a domain; use a name that points at it'],
      ['localhost', 'localhost names only reach the machine they are typed on'],
      ['*.example.org', 'Wildcard names cannot be added; add each name on its own'],
      ['menu.qr.example.net', 'This name belongs to the service itself'],
    ]) {
      const res = await call(api.app, me.key, 'POST', '/api/v1/domains', { hostname });
      expect(res.statusCode, hostname).toBe(400);
      expect(res.json(), hostname).toMatchObject({ code: 'validation_failed', errors: [{ path: 'hostname', message }] });
    }
  });

  it('stops at the plan’s count (one on starter)', async () => {
    const starter = await createTestAccount(api.ctx, { plan: 'starter' });
    await add(starter, fresh());
    const res = await call(api.app, starter.key, 'POST', '/api/v1/domains', { hostname: fresh() });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'domain_limit_reached', message: 'The starter plan allows 1 domain; remove one to add another' });
  });

  it('another account’s domain, or an id that is not one, is a 404 like a missing one', async () => {
    const mine = await add(me, fresh());
    for (const path of [
      `/api/v1/domains/${mine.id}`,
      '/api/v1/domains/not-an-id',
      '/api/v1/domains/00000000-0000-4000-8000-000000000000',
    ]) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { root_url: 'https://example.org/' }],
        ['DELETE', undefined],
      ] as const) {
        const res = await call(api.app, other.key, method, path, body);
        expect(res.statusCode, `${method} ${path}`).toBe(404);
        expect(res.json()).toEqual({ code: 'domain_not_found', message: 'Domain not found' });
      }
      const check = await call(api.app, other.key, 'POST', `${path}/verify`);
      expect(check.statusCode).toBe(404);
    }
    expect((await call(api.app, me.key, 'GET', `/api/v1/domains/${mine.id}`)).statusCode).toBe(200);
  });
});

describe('checking a domain', () => {
  it('is verified once its TXT record holds its token and it resolves to the service only; the answer shows what was found', async () => {
    const domain = await add(me, fresh());
    const host = domain.hostname;

    let seen = await verify(me, domain.id);
    expect(seen.state).toBe('pending');
    expect(seen.checked_at).not.toBeNull();
    expect(seen.records.map((r) => [r.type, r.found, r.ok])).toEqual([
      ['TXT', [], false],
      ['A', [], false],
      ['AAAA', [], false],
      ['CNAME', [], false],
    ]);

    // Proved, but pointing elsewhere: still pending, and the answer says where it points.
    dns.zone.set(`_qrlinks-challenge.${host}`, { TXT: ['v=spf1 -all', domain.token] });
    dns.zone.set(host, { A: ['198.51.100.7'] });
    seen = await verify(me, domain.id);
    expect(seen.state).toBe('pending');
    expect(seen.records[0]).toMatchObject({ type: 'TXT', found: ['v=spf1 -all', domain.token], ok: true });
    expect(seen.records[1]).toMatchObject({ type: 'A', value: V4, found: ['198.51.100.7'], ok: false });

    // One of ours and one stray address: some visitors would land elsewhere, so not yet.
    dns.zone.set(host, { A: [V4, '198.51.100.7'] });
    expect((await verify(me, domain.id)).state).toBe('pending');

    dns.zone.set(host, { A: [V4], AAAA: [V6] });
    seen = await verify(me, domain.id);
    expect(seen.state).toBe('verified');
    expect(seen.verified_at).not.toBeNull();
    expect(seen.records.slice(0, 3).map((r) => [r.type, r.found, r.ok])).toEqual([
      ['TXT', ['v=spf1 -all', domain.token], true],
      ['A', [V4], true],
      ['AAAA', [V6], true],
    ]);
    const verifiedAt = seen.verified_at;

    // The TXT record may go once proved; pointing away makes it misconfigured, not removed.
    dns.zone.delete(`_qrlinks-challenge.${host}`);
    dns.zone.set(host, { A: ['198.51.100.7'] });
    seen = await verify(me, domain.id);
    expect(seen.state).toBe('misconfigured');
    dns.zone.set(host, { A: [V4] });
    seen = await verify(me, domain.id);
    expect(seen.state).toBe('verified');
    expect(seen.verified_at).toBe(verifiedAt);
  });

  it('a subdomain may point at the service by CNAME', async () => {
    const domain = await add(me, fresh('menu'));
    dns.zone.set('qr.example.net', { A: [V4] });
    dns.zone.set(`_qrlinks-challenge.${domain.hostname}`, { TXT: [domain.token] });
    dns.zone.set(domain.hostname, { CNAME: 'qr.example.net' });
    const seen = await verify(me, domain.id);
    expect(seen.state).toBe('verified');
    expect(seen.records.find((r) => r.type === 'CNAME')).toMatchObject({ found: ['qr.example.net'], ok: true });
  });

  it('a TXT record holding another account’s token proves nothing', async () => {
    const theirs = await add(other, fresh());
    const mine = await add(me, fresh());
    dns.zone.set(`_qrlinks-challenge.${mine.hostname}`, { TXT: [theirs.token] });
    dns.zone.set(mine.hostname, { A: [V4] });
    const seen = await verify(me, mine.id);
    expect(seen.state).toBe('pending');
    expect(seen.records[0]).toMatchObject({ found: [theirs.token], ok: false });
  });

  it('a DNS server that never answers costs the check its timeout, and the answer says so', async () => {
    const domain = await add(me, fresh());
    dns.silence(domain.hostname);
    dns.silence(`_qrlinks-challenge.${domain.hostname}`);
    const started = Date.now();
    const seen = await verify(me, domain.id);
    // Bounded by the timeout (asked in parallel), not hung: a generous ceiling for a slow machine.
    expect(Date.now() - started).toBeLessThan(DNS_TIMEOUT_MS * 10);
    expect(seen.state).toBe('pending');
    expect(seen.errors).toEqual({
      txt: 'no answer in time',
      addresses: 'no answer in time',
      cname: 'no answer in time',
      http: 'URL host could not be resolved',
    });
  });

  it('a domain turned off is not checked, and turned on again must be proved again', async () => {
    const domain = await add(me, fresh());
    dns.zone.set(`_qrlinks-challenge.${domain.hostname}`, { TXT: [domain.token] });
    dns.zone.set(domain.hostname, { A: [V4] });
    expect((await verify(me, domain.id)).state).toBe('verified');

    const off = await call(api.app, me.key, 'PATCH', `/api/v1/domains/${domain.id}`, {
      disabled: true,
      root_url: 'https://brand.example/',
    });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ state: 'disabled', root_url: 'https://brand.example/' });
    const refused = await call(api.app, me.key, 'POST', `/api/v1/domains/${domain.id}/verify`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ code: 'domain_disabled', message: 'This domain is turned off; turn it on to check it again' });

    const on = await call(api.app, me.key, 'PATCH', `/api/v1/domains/${domain.id}`, { disabled: false });
    expect(on.json().data).toMatchObject({ state: 'pending', verified_at: null });
    expect((await verify(me, domain.id)).state).toBe('verified');
  });

  it('a released name can be added by another account, with a new token to prove', async () => {
    const first = await add(me, fresh());
    expect((await call(api.app, me.key, 'DELETE', `/api/v1/domains/${first.id}`)).json()).toEqual({ message: 'Domain deleted' });
    const second = await add(other, first.hostname);
    expect(second.token).not.toBe(first.token);
    dns.zone.set(`_qrlinks-challenge.${first.hostname}`, { TXT: [first.token] });
    dns.zone.set(first.hostname, { A: [V4] });
    expect((await verify(other, second.id)).state).toBe('pending');
  });
});

describe('where a domain sends people', () => {
  it('takes http(s) URLs or null, and refuses anything else at its field', async () => {
    const domain = await add(me, fresh(), { not_found_url: 'https://brand.example/404' });
    const bad = await call(api.app, me.key, 'PATCH', `/api/v1/domains/${domain.id}`, { expired_url: 'javascript:alert(1)' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'expired_url' }] });
    const cleared = await call(api.app, me.key, 'PATCH', `/api/v1/domains/${domain.id}`, { not_found_url: null });
    expect(cleared.json().data).toMatchObject({ not_found_url: null, root_url: null, expired_url: null });
  });
});

describe('re-checks by the worker', () => {
  const minutes = (n: number) => n * 60_000;

  it('look at a new domain every minute for its first hour, a misconfigured one every ten minutes, the rest hourly', async () => {
    const domain = await add(me, fresh());
    const createdAt = Date.parse((await call(api.app, me.key, 'GET', `/api/v1/domains/${domain.id}`)).json().data.created_at);
    const isDue = async (when: Date) => (await dueDomains(api.ctx.db, when)).some((d) => d.id === domain.id);
    // Never checked: due at once.
    expect(await isDue(new Date(createdAt))).toBe(true);
    await verify(me, domain.id);
    const checked = Date.parse((await call(api.app, me.key, 'GET', `/api/v1/domains/${domain.id}`)).json().data.checked_at);
    const after = (ms: number) => new Date(checked + ms);
    expect(await isDue(after(RECHECK.freshEveryMs - 1000))).toBe(false);
    expect(await isDue(after(RECHECK.freshEveryMs + 1000))).toBe(true);
    // Checked again past its first hour, still pending: from then on it is looked at hourly.
    const late = createdAt + RECHECK.freshForMs + minutes(1);
    await recheckDomains(api.ctx, new Date(late));
    expect(await isDue(new Date(late + minutes(2)))).toBe(false);
    expect(await isDue(new Date(late + RECHECK.settledEveryMs + 1000))).toBe(true);
  });

  it('turn a verified domain that stopped pointing here misconfigured, mail its owners what to fix, and back again', async () => {
    const acct = await createTestAccount(api.ctx, { plan: 'enterprise', name: 'Aroma Lisboa' });
    const owner = await createTestPerson(api.ctx, acct.accountId, 'owner');
    const viewer = await createTestPerson(api.ctx, acct.accountId, 'viewer');
    const domain = await add(acct, fresh('menu'));
    dns.zone.set(`_qrlinks-challenge.${domain.hostname}`, { TXT: [domain.token] });
    dns.zone.set(domain.hostname, { A: [V4] });
    expect((await verify(acct, domain.id)).state).toBe('verified');
    const checkedAt = Date.parse((await call(api.app, acct.key, 'GET', `/api/v1/domains/${domain.id}`)).json().data.checked_at);

    // The DNS record now points at another host; an hour on, the re-check sees it.
    dns.zone.set(domain.hostname, { A: ['198.51.100.7'] });
    const broken = await recheckDomains(api.ctx, new Date(checkedAt + RECHECK.settledEveryMs + 1000));
    expect(broken.moved).toBeGreaterThanOrEqual(1);
    const seen = (await call(api.app, acct.key, 'GET', `/api/v1/domains/${domain.id}`)).json().data;
    expect(seen.state).toBe('misconfigured');
    const mail = await smtp.waitForMail((m) => m.to === owner.email && m.subject.includes(domain.hostname));
    expect(mail.subject).toBe(`${domain.hostname} no longer points at qrlinks (Aroma Lisboa)`);
    expect(mail.text).toContain(`A ${domain.hostname} → ${V4} (found: 198.51.100.7)`);
    expect(smtp.received.some((m) => m.to === viewer.email)).toBe(false);

    // Fixed: ten minutes on it is verified again, and the owner is told.
    dns.zone.set(domain.hostname, { A: [V4] });
    const fixed = await recheckDomains(api.ctx, new Date(checkedAt + RECHECK.settledEveryMs + RECHECK.misconfiguredEveryMs + 2000));
    expect(fixed.moved).toBeGreaterThanOrEqual(1);
    expect((await call(api.app, acct.key, 'GET', `/api/v1/domains/${domain.id}`)).json().data.state).toBe('verified');
    await smtp.waitForMail((m) => m.to === owner.email && m.subject === `${domain.hostname} points at qrlinks again (Aroma Lisboa)`);
  });

  it('run every minute on the maintenance queue', async () => {
    await scheduleMaintenance(api.ctx);
    const schedulers = await api.ctx.queues.maintenance.getJobSchedulers();
    expect(schedulers.find((s) => s.key === 'check-domains')).toMatchObject({ every: RECHECK.freshEveryMs });
  });
});

describe('TLS on demand: GET /internal/tls-ask on the redirect', () => {
  const ask = async (name: string, headers: Record<string, string> = {}, token?: string) => {
    const query = new URLSearchParams({ domain: name, ...(token ? { token } : {}) });
    const res = await redirect.get(`/internal/tls-ask?${query}`, { headers });
    return res.status;
  };

  it('says yes for the service’s own host and for domains that serve links, in any spelling; no for the rest', async () => {
    const domain = await add(me, fresh());
    dns.zone.set(`_qrlinks-challenge.${domain.hostname}`, { TXT: [domain.token] });
    dns.zone.set(domain.hostname, { A: [V4] });
    expect(await ask('qr.example.net')).toBe(200);
    expect(await ask(domain.hostname)).toBe(404);
    await verify(me, domain.id);
    // Announced over Redis: every redirect process hears of it.
    await expect.poll(() => ask(domain.hostname)).toBe(200);
    expect(await ask(`${domain.hostname.toUpperCase()}.`)).toBe(200);
    expect(await ask(`${domain.hostname}:443`)).toBe(200);
    // Misconfigured keeps serving its links, so its certificate still renews.
    dns.zone.set(domain.hostname, { A: ['198.51.100.7'] });
    expect((await verify(me, domain.id)).state).toBe('misconfigured');
    expect(await ask(domain.hostname)).toBe(200);

    const off = await call(api.app, me.key, 'PATCH', `/api/v1/domains/${domain.id}`, { disabled: true });
    expect(off.statusCode).toBe(200);
    await expect.poll(() => ask(domain.hostname)).toBe(404);
    expect(await ask('unknown.example')).toBe(404);
    expect(await ask('')).toBe(404);
  });

  it('stops saying yes once a verified domain is removed', async () => {
    const domain = await add(me, fresh());
    dns.zone.set(`_qrlinks-challenge.${domain.hostname}`, { TXT: [domain.token] });
    dns.zone.set(domain.hostname, { A: [V4] });
    await verify(me, domain.id);
    await expect.poll(() => ask(domain.hostname)).toBe(200);
    await call(api.app, me.key, 'DELETE', `/api/v1/domains/${domain.id}`);
    await expect.poll(() => ask(domain.hostname)).toBe(404);
  });

  it('answers a flood of random names from memory: no DNS question, every one a 404', async () => {
    const asked = dns.asked.length;
    const statuses = await Promise.all(Array.from({ length: 500 }, (_, i) => ask(`r${i}-${Math.random().toString(36).slice(2)}.example`)));
    expect(new Set(statuses)).toEqual(new Set([404]));
    expect(dns.asked.length).toBe(asked);
  });

  it('is refused to a client on a public address, unless it brings the token', async () => {
    // A public address (the documentation ranges count as private here).
    const fromOutside = { 'x-forwarded-for': '9.9.9.9' };
    expect(await ask('qr.example.net', fromOutside)).toBe(403);
    expect(await ask('qr.example.net', fromOutside, 'not-the-token-at-all-no')).toBe(403);
    expect(await ask('qr.example.net', fromOutside, TLS_TOKEN)).toBe(200);
    expect(await ask('qr.example.net', { 'x-forwarded-for': '10.1.2.3' })).toBe(200);
  });
});

describe('the HTTP challenge', () => {
  it('proves a domain that answers its token over HTTP, through whatever stands in front (a CDN’s addresses)', async () => {
    const domain = await add(me, fresh('cdn'));
    // No TXT record, and an address that is not the service's: as behind a CDN that hides DNS.
    dns.zone.set(domain.hostname, { A: ['127.0.0.1'] });
    const seen = await verify(me, domain.id);
    expect(seen.state).toBe('verified');
    expect(seen.records[0]).toMatchObject({ type: 'TXT', found: [], ok: false });
    expect(seen.errors).toEqual({});
  });

  it('is answered by the redirect for its own domain’s token only, whatever the spelling of the host', async () => {
    const mine = await add(me, fresh());
    const theirs = await add(other, fresh());
    // node:http, since fetch sends no Host header of ours.
    const ask = (host: string, token: string) =>
      new Promise<[number, string]>((resolve, reject) => {
        const req = httpRequest(`${redirect.base}/.well-known/qrlinks-challenge/${token}`, { headers: { host } }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve([res.statusCode!, body]));
        });
        req.on('error', reject);
        req.end();
      });
    await expect.poll(() => ask(mine.hostname, mine.token)).toEqual([200, mine.token]);
    expect(await ask(`${mine.hostname.toUpperCase()}.:8080`, mine.token)).toEqual([200, mine.token]);
    expect((await ask(mine.hostname, theirs.token))[0]).toBe(404);
    expect((await ask('qr.example.net', mine.token))[0]).toBe(404);
    // Turned off: it answers nothing, so nobody proves it meanwhile.
    await call(api.app, me.key, 'PATCH', `/api/v1/domains/${mine.id}`, { disabled: true });
    await expect.poll(async () => (await ask(mine.hostname, mine.token))[0]).toBe(404);
  });

  it('is not proved by an answer that lacks the token, nor reached on a private address nobody allowed', async () => {
    const domain = await add(me, fresh());
    // 10.0.0.1 is private and outside DOMAIN_CHECK_ALLOW_CIDRS: never asked.
    dns.zone.set(domain.hostname, { A: ['10.0.0.1'] });
    const seen = await verify(me, domain.id);
    expect(seen.state).toBe('pending');
    expect(seen.errors.http).toBe('URL must resolve to a public address');
  });
});
