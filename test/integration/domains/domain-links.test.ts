/**
 * Links on brand domains, through the api and the real redirect: a link chooses its domain (any
 * spelling of the name), its short URL and QR data follow it, the redirect answers by Host and
 * slug, the same slug lives on two domains, a move needs the slug free where it goes, a domain
 * that does not serve answers nothing, a domain's own root, not-found and expired addresses, the
 * account's default domain, a domain with links that cannot be removed, and everything that
 * prints a short URL (the QR image, a bulk batch's codes and manifest, a cafe's menu link, the
 * scans export) and analytics by domain. Domains are proved against a real DNS server on
 * loopback, as in domains.test.ts.
 */
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { unzip } from '../../support/images.js';
import { decodesAll } from '../../support/qr-reference.js';
import { pollUntil, until } from '../../support/until.js';
import { startReceiver } from '../../support/webhook-receiver.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.js';
import { SCAN_USER_AGENTS, startTestRedirect, type TestRedirect } from '../../support/redirect.js';

const V4 = '203.0.113.10';
/**
 * The service's own short URL base and host: the test environment's, which every process of the
 * run has (a worker of another file in this namespace must print the same URLs).
 */
let BASE: string;
let DEFAULT_HOST: string;
/** The scheme of SHORT_URL_BASE, which brand domains' short URLs share. */
let SCHEME: string;

let dns: TestDnsServer;
let api: TestApi;
let redirect: TestRedirect;
let workers: RunningWorkers;
let me: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  dns = await startDnsServer();
  api = await startTestApi({
    DNS_SERVERS: dns.address,
    DNS_TIMEOUT_MS: '400',
    DOMAIN_TARGET_ADDRESSES: V4,
  });
  BASE = api.ctx.config.SHORT_URL_BASE.replace(/\/+$/, '');
  DEFAULT_HOST = new URL(BASE).hostname;
  SCHEME = new URL(BASE).protocol;
  me = await createTestAccount(api.ctx, { plan: 'enterprise' });
  other = await createTestAccount(api.ctx, { plan: 'enterprise' });
  redirect = await startTestRedirect(api.ctx);
  workers = await startWorkers(api.ctx);
});
afterAll(async () => {
  await workers?.close();
  await redirect?.close();
  await api?.close();
  await dns?.close();
});

interface LinkBody {
  id: string;
  dynamic_link_id: string;
  full_dynamic_url: string;
  domain: string;
  qr_options: { data: string };
}

let n = 0;
/** A name no other test uses. */
const fresh = (label = 'go') => `${label}.brand${++n}-${process.pid}.example`;

async function addDomain(acct: TestAccount, hostname = fresh()): Promise<{ id: string; hostname: string; token: string }> {
  const res = await call(api.app, acct.key, 'POST', '/api/v1/domains', { hostname });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A domain of `acct`, proved by TXT and pointing at the service, and served by the redirect. */
async function verifiedDomain(acct: TestAccount, hostname = fresh()) {
  const domain = await addDomain(acct, hostname);
  dns.zone.set(`_qrlinks-challenge.${domain.hostname}`, { TXT: [domain.token] });
  dns.zone.set(domain.hostname, { A: [V4] });
  const res = await call(api.app, acct.key, 'POST', `/api/v1/domains/${domain.id}/verify`);
  expect(res.json().data.state).toBe('verified');
  // The redirect hears of it over pub/sub: it says yes to a certificate for the name once it serves it.
  await expect.poll(async () => (await redirect.app.inject({ url: `/internal/tls-ask?domain=${domain.hostname}` })).statusCode).toBe(200);
  return domain;
}

async function createLink(acct: TestAccount, extra: Record<string, unknown> = {}, url = 'https://example.com/dest') {
  const res = await call(api.app, acct.key, 'POST', '/api/v1/links', { name: 'Table code', type: 'website', data: { url }, ...extra });
  return res;
}

async function linkOf(acct: TestAccount, slug: string): Promise<LinkBody> {
  const res = await call(api.app, acct.key, 'GET', `/api/v1/links/${slug}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: LinkBody }>().data;
}

/** A scan by a phone through the redirect process's routes with `host` as the Host header. */
function scan(host: string, path: string) {
  return redirect.app.inject({ method: 'GET', url: path, headers: { host, 'user-agent': SCAN_USER_AGENTS.iosSafari } });
}

describe('a link on a brand domain', () => {
  it('is printed and answered on its domain, chosen in any spelling; the default domain does not answer for it', async () => {
    const domain = await verifiedDomain(me);
    const created = await createLink(me, { domain: `${domain.hostname.toUpperCase()}.` });
    expect(created.statusCode, created.body).toBe(200);
    const slug = created.json<{ id: string }>().id;
    const link = await linkOf(me, slug);
    expect(link).toMatchObject({ domain: domain.hostname, full_dynamic_url: `${SCHEME}//${domain.hostname}/${slug}` });
    expect(link.qr_options.data).toBe(`${SCHEME}//${domain.hostname}/${slug}`);

    for (const host of [domain.hostname, `${domain.hostname.toUpperCase()}:443`, `${domain.hostname}.`]) {
      const res = await scan(host, `/${slug}`);
      expect(res.statusCode, host).toBe(302);
      expect(res.headers.location).toBe('https://example.com/dest');
    }
    expect((await scan(DEFAULT_HOST, `/${slug}`)).statusCode).toBe(404);
  });

  it('shares its slug with a link of another account on another domain; within one account a slug is one link', async () => {
    const domain = await verifiedDomain(me);
    const slug = `menu${++n}x${process.pid}`;
    const mine = await createLink(
      me,
      { domain: domain.hostname, linkConfigurations: { urlActive: true, customUrl: slug } },
      'https://mine.example/',
    );
    expect(mine.statusCode, mine.body).toBe(200);
    const theirs = await createLink(other, { linkConfigurations: { urlActive: true, customUrl: slug } }, 'https://theirs.example/');
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect((await linkOf(other, slug)).full_dynamic_url).toBe(`${BASE}/${slug}`);

    expect((await scan(domain.hostname, `/${slug}`)).headers.location).toBe('https://mine.example/');
    expect((await scan(DEFAULT_HOST, `/${slug}`)).headers.location).toBe('https://theirs.example/');

    // The account's own second link under the slug (on the default domain) would make /links/<slug> two links.
    const again = await createLink(me, { domain: null, linkConfigurations: { urlActive: true, customUrl: slug } });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'slug_taken' });
    // Nor may its look-alike share the brand domain.
    const lookAlike = await createLink(me, {
      domain: domain.hostname,
      linkConfigurations: { urlActive: true, customUrl: slug.toUpperCase() },
    });
    expect(lookAlike.statusCode).toBe(409);
  });

  it('moves to another domain when its slug is free there, and its old address stops answering at once', async () => {
    const domain = await verifiedDomain(me);
    const slug = (await createLink(me)).json<{ id: string }>().id;
    expect((await scan(DEFAULT_HOST, `/${slug}`)).statusCode).toBe(302);
    const body = { name: 'Table code', type: 'website', data: { url: 'https://example.com/dest' } };

    const moved = await call(api.app, me.key, 'PUT', `/api/v1/links/${slug}`, { ...body, domain: domain.hostname });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ domain: domain.hostname, full_dynamic_url: `${SCHEME}//${domain.hostname}/${slug}` });
    expect(moved.json().data.qr_options.data).toBe(`${SCHEME}//${domain.hostname}/${slug}`);
    expect((await scan(DEFAULT_HOST, `/${slug}`)).statusCode).toBe(404);
    expect((await scan(domain.hostname, `/${slug}`)).statusCode).toBe(302);

    // An edit that names no domain leaves it where it is.
    const kept = await call(api.app, me.key, 'PUT', `/api/v1/links/${slug}`, { ...body, name: 'Renamed' });
    expect(kept.json().data.domain).toBe(domain.hostname);

    // Back to the default domain, where another account has taken the slug meanwhile: refused, nothing moves.
    const theirs = await createLink(other, { linkConfigurations: { urlActive: true, customUrl: `${slug}-x` } });
    expect(theirs.statusCode).toBe(200);
    const custom = await call(api.app, me.key, 'PUT', `/api/v1/links/${slug}`, {
      ...body,
      linkConfigurations: { urlActive: true, customUrl: `${slug}-x` },
    });
    expect(custom.statusCode).toBe(200); // free on the brand domain and in the account
    const back = await call(api.app, me.key, 'PUT', `/api/v1/links/${slug}-x`, { ...body, domain: null });
    expect(back.statusCode).toBe(409);
    expect(back.json()).toMatchObject({ code: 'slug_taken', errors: [{ path: 'domain' }] });
    expect((await linkOf(me, `${slug}-x`)).domain).toBe(domain.hostname);
  });

  it('refuses a name that is not the account’s, the same whether another account holds it or nobody does', async () => {
    const theirs = await verifiedDomain(other);
    for (const domain of [theirs.hostname, fresh('nobody'), '', 'not a name']) {
      const res = await createLink(me, { domain });
      expect(res.statusCode, domain).toBe(400);
      expect(res.json(), domain).toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'domain', message: 'Not one of this account’s domains' }],
      });
    }
  });
});

describe('hosts that do not serve', () => {
  it('a pending or turned-off domain answers no slug, not even the default domain’s; an unknown name answers the default domain’s', async () => {
    const slug = (await createLink(other)).json<{ id: string }>().id;
    const pending = await addDomain(me);
    const off = await verifiedDomain(me);
    const onIt = (await createLink(me, { domain: off.hostname })).json<{ id: string }>().id;
    const turnedOff = await call(api.app, me.key, 'PATCH', `/api/v1/domains/${off.id}`, { disabled: true });
    expect(turnedOff.statusCode).toBe(200);
    await expect.poll(async () => (await scan(off.hostname, `/${onIt}`)).statusCode).toBe(404);
    for (const host of [pending.hostname, off.hostname]) {
      const res = await scan(host, `/${slug}`);
      expect(res.statusCode, host).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
    }
    expect((await scan(fresh('unknown'), `/${slug}`)).statusCode).toBe(302);
    expect((await scan('127.0.0.1', `/${slug}`)).statusCode).toBe(302);
    // No link is put on a domain that is turned off.
    const refused = await createLink(me, { domain: off.hostname });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'domain_disabled', errors: [{ path: 'domain' }] });
  });
});

describe('a domain’s own addresses', () => {
  it('sends its root, unknown slugs and paused or expired links where its owner chose; the pages otherwise', async () => {
    const domain = await verifiedDomain(me);
    const slug = (await createLink(me, { domain: domain.hostname })).json<{ id: string }>().id;
    expect((await call(api.app, me.key, 'POST', `/api/v1/links/${slug}/pause`)).statusCode).toBe(200);

    expect((await scan(domain.hostname, '/')).statusCode).toBe(404);
    expect((await scan(domain.hostname, '/nosuchslug1')).statusCode).toBe(404);
    expect((await scan(domain.hostname, `/${slug}`)).statusCode).toBe(410);

    const set = await call(api.app, me.key, 'PATCH', `/api/v1/domains/${domain.id}`, {
      root_url: 'https://aroma.example/',
      not_found_url: 'https://aroma.example/lost',
      expired_url: 'https://aroma.example/over',
    });
    expect(set.statusCode, set.body).toBe(200);
    await expect.poll(async () => (await scan(domain.hostname, '/')).headers.location).toBe('https://aroma.example/');
    expect((await scan(domain.hostname, '/nosuchslug1')).headers.location).toBe('https://aroma.example/lost');
    expect((await scan(domain.hostname, `/${slug}`)).headers.location).toBe('https://aroma.example/over');
    // The default domain keeps its own pages.
    expect((await scan(DEFAULT_HOST, '/nosuchslug1')).statusCode).toBe(404);
  });
});

describe('the account’s default domain', () => {
  it('is where new links go when they name none, until it is turned off', async () => {
    const acct = await createTestAccount(api.ctx, { plan: 'enterprise' });
    const first = await verifiedDomain(acct);
    const second = await verifiedDomain(acct);
    const setDefault = (id: string) => call(api.app, acct.key, 'PATCH', `/api/v1/domains/${id}`, { is_default: true });
    expect((await setDefault(first.id)).json().data.is_default).toBe(true);
    expect((await setDefault(second.id)).json().data.is_default).toBe(true);
    const list = (await call(api.app, acct.key, 'GET', '/api/v1/domains')).json<{ data: Array<{ id: string; is_default: boolean }> }>()
      .data;
    expect(list.filter((d) => d.is_default).map((d) => d.id)).toEqual([second.id]);

    const slug = (await createLink(acct)).json<{ id: string }>().id;
    expect((await linkOf(acct, slug)).domain).toBe(second.hostname);
    const onDefault = (await createLink(acct, { domain: DEFAULT_HOST })).json<{ id: string }>().id;
    expect((await linkOf(acct, onDefault)).full_dynamic_url).toBe(`${BASE}/${onDefault}`);

    const off = await call(api.app, acct.key, 'PATCH', `/api/v1/domains/${second.id}`, { disabled: true });
    expect(off.json().data).toMatchObject({ state: 'disabled', is_default: false });
    const after = (await createLink(acct)).json<{ id: string }>().id;
    expect((await linkOf(acct, after)).domain).toBe(DEFAULT_HOST);
  });
});

describe('removing a domain', () => {
  it('is refused while links are on it, and done once they are gone', async () => {
    const domain = await verifiedDomain(me);
    const slug = (await createLink(me, { domain: domain.hostname })).json<{ id: string }>().id;
    const refused = await call(api.app, me.key, 'DELETE', `/api/v1/domains/${domain.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'domain_in_use',
      message: '1 link is on this domain; move or delete it before removing the domain',
    });
    expect((await scan(domain.hostname, `/${slug}`)).statusCode).toBe(302);
    expect((await call(api.app, me.key, 'DELETE', `/api/v1/links/${slug}`)).statusCode).toBe(200);
    expect((await call(api.app, me.key, 'DELETE', `/api/v1/domains/${domain.id}`)).statusCode).toBe(200);
  });
});

describe('everything that prints a short URL', () => {
  /** A job of `acct` once it is done. */
  const finished = (acct: TestAccount, jobId: string) =>
    pollUntil(
      async () => (await call(api.app, acct.key, 'GET', `/api/v1/jobs/${jobId}`)).json(),
      (j) => j.state === 'completed' || j.state === 'failed',
      60_000,
      100,
    );
  const download = async (acct: TestAccount, jobId: string) =>
    (await api.app.inject({ url: `/api/v1/jobs/${jobId}/download`, headers: { authorization: `Basic ${acct.key}` } })).rawPayload;

  it('the QR image encodes the link on its domain', async () => {
    const domain = await verifiedDomain(me);
    const slug = (await createLink(me, { domain: domain.hostname })).json<{ id: string }>().id;
    const png = await api.app.inject({ url: `/api/v1/links/${slug}/qr`, headers: { authorization: `Basic ${me.key}` } });
    expect(png.statusCode).toBe(200);
    expect(await decodesAll([png.rawPayload], `${SCHEME}//${domain.hostname}/${slug}?q`)).toEqual([true]);
  });

  it('a bulk batch on a domain: its links, codes and manifest are on it; the account default applies when it names none', async () => {
    const acct = await createTestAccount(api.ctx, { plan: 'enterprise' });
    const domain = await verifiedDomain(acct);
    const data = [0, 1, 2].map((i) => ({ name: `Table ${i}`, url: `https://example.com/t${i}` }));
    const res = await call(api.app, acct.key, 'POST', '/api/v1/bulk-generate', { type: 'website', data, domain: domain.hostname });
    expect(res.statusCode, res.body).toBe(200);
    const { jobId, links } = res.json<{ jobId: string; links: Array<{ dynamicLinkId: string }> }>();
    expect((await finished(acct, jobId)).state).toBe('completed');
    const entries = await unzip(await download(acct, jobId));
    const manifest = parse(entries.get('manifest.csv')!) satisfies string[][];
    for (const [i, link] of links.entries()) {
      const url = `${SCHEME}//${domain.hostname}/${link.dynamicLinkId}`;
      expect(manifest[i + 1]![3]).toBe(url);
      expect(await decodesAll([entries.get(manifest[i + 1]![4]!)!], `${url}?q`), `code ${i}`).toEqual([true]);
      expect((await linkOf(acct, link.dynamicLinkId)).full_dynamic_url).toBe(url);
      expect((await scan(domain.hostname, `/${link.dynamicLinkId}`)).headers.location).toBe(`https://example.com/t${i}`);
    }

    const refused = await call(api.app, acct.key, 'POST', '/api/v1/bulk-generate', { type: 'website', data, domain: fresh('nobody') });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([{ path: 'domain', message: 'Not one of this account’s domains' }]);

    await call(api.app, acct.key, 'PATCH', `/api/v1/domains/${domain.id}`, { is_default: true });
    const byDefault = await call(api.app, acct.key, 'POST', '/api/v1/bulk-generate', { type: 'website', data: data.slice(0, 1) });
    const made = byDefault.json<{ links: Array<{ dynamicLinkId: string }> }>().links[0]!.dynamicLinkId;
    expect((await linkOf(acct, made)).domain).toBe(domain.hostname);
  });

  it('a cafe made while a domain is the default has its menu link there', async () => {
    const acct = await createTestAccount(api.ctx, { plan: 'enterprise' });
    const domain = await verifiedDomain(acct);
    await call(api.app, acct.key, 'PATCH', `/api/v1/domains/${domain.id}`, { is_default: true });
    const cafe = await call(api.app, acct.key, 'POST', '/api/v1/cafes', { name: 'Aroma Lisboa' });
    expect(cafe.statusCode, cafe.body).toBe(200);
    const link = cafe.json().data.link as { dynamic_link_id: string; full_dynamic_url: string; qr_options: { data: string } };
    expect(link.full_dynamic_url).toBe(`${SCHEME}//${domain.hostname}/${link.dynamic_link_id}`);
    expect(link.qr_options.data).toBe(link.full_dynamic_url);
    expect((await scan(domain.hostname, `/${link.dynamic_link_id}`)).statusCode).toBe(200);

    // The console frames previews from the default domain only: a brand link's preview is found from there.
    const cafeId = cafe.json().data.id as string;
    const preview = await call(api.app, acct.key, 'POST', `/api/v1/cafes/${cafeId}/theme/preview`, { themeImage: 'rustic' });
    expect(preview.statusCode, preview.body).toBe(200);
    const url = new URL(preview.json().url as string);
    expect(url.hostname).toBe(DEFAULT_HOST);
    const page = await scan(DEFAULT_HOST, `${url.pathname}${url.search}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect(page.body).toContain('Aroma Lisboa');
  });

  it('the scans export names each scan’s domain, and analytics count scans by domain', async () => {
    const acct = await createTestAccount(api.ctx, { plan: 'enterprise' });
    const domain = await verifiedDomain(acct);
    const branded = (await createLink(acct, { domain: domain.hostname })).json<{ id: string }>().id;
    const plain = (await createLink(acct)).json<{ id: string }>().id;
    for (const [host, slug, times] of [
      [domain.hostname, branded, 3],
      [DEFAULT_HOST, plain, 1],
    ] as const)
      for (let i = 0; i < times; i++) expect((await scan(host, `/${slug}`)).statusCode).toBe(302);
    await pollUntil(
      async () => (await call(api.app, acct.key, 'GET', '/api/v1/analytics/general?duration=48_hours')).json().data.numberOfScans,
      (n) => n === 4,
      30_000,
      100,
    );
    const byDomain = await call(api.app, acct.key, 'GET', '/api/v1/analytics/domain?duration=48_hours');
    expect(byDomain.statusCode, byDomain.body).toBe(200);
    expect(byDomain.json().data).toEqual([
      { number: 1, name: domain.hostname, scans: 3, percentage: '75.00' },
      { number: 2, name: DEFAULT_HOST, scans: 1, percentage: '25.00' },
    ]);

    // Filtered by domain, in any spelling of its name; the default domain by its host.
    const scansOn = async (domain: string) =>
      (await call(api.app, acct.key, 'GET', `/api/v1/analytics/general?duration=48_hours&domain=${encodeURIComponent(domain)}`)).json().data
        .numberOfScans as number;
    expect([await scansOn(`${domain.hostname.toUpperCase()}.`), await scansOn(DEFAULT_HOST), await scansOn(fresh('other'))]).toEqual([
      3, 1, 0,
    ]);

    // Answered with the file when it is made within JOB_WAIT_MS, else with its job.
    const exported = await call(api.app, acct.key, 'POST', '/api/v1/analytics/export', {});
    expect([200, 202], exported.body).toContain(exported.statusCode);
    let csv = exported.body;
    if (exported.statusCode === 202) {
      const jobId = exported.json().jobId as string;
      expect((await finished(acct, jobId)).state).toBe('completed');
      csv = (await download(acct, jobId)).toString('utf8');
    }
    const rows = parse(csv) satisfies string[][];
    // `domain` after the contract's columns (then where each scan came from).
    const domainAt = rows[0]!.indexOf('domain');
    expect(domainAt).toBe(9);
    expect(
      rows
        .slice(1)
        .map((r) => `${r[0]} ${r[domainAt]}`)
        .sort(),
    ).toEqual([...Array(3).fill(`${branded} ${domain.hostname}`), `${plain} ${DEFAULT_HOST}`].sort());
    const onDefault = await call(api.app, acct.key, 'POST', '/api/v1/analytics/export', { domain: DEFAULT_HOST });
    expect(onDefault.statusCode, onDefault.body).toBe(200);
    expect((parse(onDefault.body) satisfies string[][]).slice(1).map((r) => r[0])).toEqual([plain]);
  });
});

describe('webhooks of a domain', () => {
  it('tell when a domain is verified and when it stops pointing here', async () => {
    const acct = await createTestAccount(api.ctx, { plan: 'enterprise' });
    const r = await startReceiver();
    try {
      const hook = await call(api.app, acct.key, 'POST', '/api/v1/webhooks', {
        url: r.url,
        events: ['domain.verified', 'domain.misconfigured'],
      });
      expect(hook.statusCode, hook.body).toBe(201);
      r.secrets = [hook.json().secret];
      const domain = await verifiedDomain(acct);
      dns.zone.set(domain.hostname, { A: ['198.51.100.77'] });
      const moved = await call(api.app, acct.key, 'POST', `/api/v1/domains/${domain.id}/verify`);
      expect(moved.json().data.state).toBe('misconfigured');
      await until(() => r.acceptedIds().length === 2);
      const told = r.received.map((x) => [x.payload.type, x.payload.data.hostname, x.payload.data.previous_state]);
      expect(told.sort()).toEqual(
        [
          ['domain.misconfigured', domain.hostname, 'verified'],
          ['domain.verified', domain.hostname, 'pending'],
        ].sort(),
      );
      expect(r.received.every((x) => x.verifiedBy.length === 1)).toBe(true);
    } finally {
      await r.close();
    }
  });
});
