/**
 * A link's UTM parameters and query policy: taken and answered by the links api (create, PUT,
 * PATCH, get, list, bulk), and applied by the real redirect to website and smart-url
 * destinations. Real api, redirect and workers on the test database and Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../support/harness.js';
import { pollUntil } from '../../support/until.js';
import { startScanStack, type ScanStack } from '../../support/redirect.js';

let stack: ScanStack;
beforeAll(async () => {
  stack = await startScanStack();
});
afterAll(() => stack?.close());

const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown) =>
  call(stack.api.app, stack.me.key, method, path, body);
const website = (url: string, extra: Record<string, unknown> = {}) => ({ name: 'Site', type: 'website', data: { url }, ...extra });
const linkOf = async (slug: string) => (await api('GET', `/api/v1/links/${slug}`)).json().data;
const locationOf = async (path: string) => {
  const res = await stack.redirect.get(path);
  expect(res.status).toBe(302);
  return res.headers.get('location');
};

describe('the links api', () => {
  it('answers utm null and query_policy drop for a link made without them', async () => {
    const link = await stack.createLink(website('https://example.com/'));
    expect(await linkOf(link.slug)).toMatchObject({ utm: null, query_policy: 'drop' });
  });

  it('stores trimmed UTM and the policy on create; get and the list answer them', async () => {
    const link = await stack.createLink(
      website('https://example.com/', { utm: { source: ' flyer ', campaign: 'spring' }, queryPolicy: 'merge' }),
    );
    expect(await linkOf(link.slug)).toMatchObject({ utm: { source: 'flyer', campaign: 'spring' }, query_policy: 'merge' });
    const list = (await api('GET', `/api/v1/links?q=${link.slug}&fields=utm,query_policy`)).json().data;
    expect(list).toEqual([
      { id: link.id, dynamic_link_id: link.slug, utm: { source: 'flyer', campaign: 'spring' }, query_policy: 'merge' },
    ]);
  });

  it('PUT keeps them when absent, and clears UTM with {} or null', async () => {
    const link = await stack.createLink(website('https://example.com/', { utm: { medium: 'qr' }, queryPolicy: 'merge' }));
    let res = await api('PUT', `/api/v1/links/${link.slug}`, website('https://example.com/b'));
    expect(res.json().data).toMatchObject({ utm: { medium: 'qr' }, query_policy: 'merge' });
    res = await api('PUT', `/api/v1/links/${link.slug}`, website('https://example.com/b', { utm: {}, queryPolicy: 'drop' }));
    expect(res.json().data).toMatchObject({ utm: null, query_policy: 'drop' });
    await api('PUT', `/api/v1/links/${link.slug}`, website('https://example.com/b', { utm: { term: 't' } }));
    res = await api('PUT', `/api/v1/links/${link.slug}`, website('https://example.com/b', { utm: null }));
    expect(res.json().data.utm).toBeNull();
  });

  it('PATCH changes UTM and policy alone, or with the styling; an empty body is a 400', async () => {
    const link = await stack.createLink(website('https://example.com/'));
    let res = await api('PATCH', `/api/v1/links/${link.slug}`, { utm: { content: 'banner' }, queryPolicy: 'merge' });
    expect(res.statusCode).toBe(200);
    // The contract's answer, whatever changed.
    expect(Object.keys(res.json().data).sort()).toEqual(['dynamic_link_id', 'qr_options']);
    expect(await linkOf(link.slug)).toMatchObject({ utm: { content: 'banner' }, query_policy: 'merge' });
    res = await api('PATCH', `/api/v1/links/${link.slug}`, { qrCode: { margin: 4 } });
    expect(res.json().data.qr_options).toMatchObject({ margin: 4 });
    expect(await linkOf(link.slug)).toMatchObject({ utm: { content: 'banner' }, query_policy: 'merge' });
    res = await api('PATCH', `/api/v1/links/${link.slug}`, { utm: null });
    expect((await linkOf(link.slug)).utm).toBeNull();
    res = await api('PATCH', `/api/v1/links/${link.slug}`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'qrCode', message: 'Required (or utm, or queryPolicy)' }]);
  });

  it('refuses bad UTM and policies with a 400 at each field', async () => {
    const res = await api(
      'POST',
      '/api/v1/links',
      website('https://example.com/', {
        utm: { source: '', medium: 'x'.repeat(201), campaign: 'a\u0007b', term: 5, utm_source: 'no' },
        queryPolicy: 'keep',
      }),
    );
    expect(res.statusCode).toBe(400);
    const paths = res.json().errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(
      expect.arrayContaining(['utm.source', 'utm.medium', 'utm.campaign', 'utm.term', 'utm.utm_source', 'queryPolicy']),
    );
    for (const utm of ['flyer', ['flyer'], { source: 'x'.repeat(1_000_000) }]) {
      expect((await api('POST', '/api/v1/links', website('https://example.com/', { utm }))).statusCode).toBe(400);
    }
  });

  it('a bulk batch gives every link its UTM and policy', async () => {
    const res = await api('POST', '/api/v1/bulk-generate', {
      type: 'website',
      data: [{ name: 'One', url: 'https://example.com/1' }],
      utm: { source: 'bulk' },
      queryPolicy: 'merge',
    });
    const body =
      res.statusCode === 202
        ? await pollUntil(
            async () => (await api('GET', `/api/v1/jobs/${res.json().jobId}`)).json(),
            (j) => j.result?.links,
            60_000,
            100,
          )
        : res.json();
    const slug = (body.links ?? body.result.links)[0].dynamicLinkId;
    expect(await linkOf(slug)).toMatchObject({ utm: { source: 'bulk' }, query_policy: 'merge' });
    expect(await locationOf(`/${slug}?ref=a`)).toBe('https://example.com/1?utm_source=bulk&ref=a');
  });
});

describe('the redirect', () => {
  it('sends a link without UTM to its destination as it is, the visitor query dropped', async () => {
    const link = await stack.createLink(website('https://example.com/p?x=1'));
    expect(await locationOf(`/${link.slug}?q&ref=mail`)).toBe('https://example.com/p?x=1');
  });

  it("adds the link's UTM, replacing the destination's own utm_source, and drops the visitor query", async () => {
    const link = await stack.createLink(
      website('https://example.com/p?utm_source=web&x=1#top', { utm: { source: 'qr', campaign: 'spring sale' } }),
    );
    expect(await locationOf(`/${link.slug}?q=shelf&utm_source=mail`)).toBe(
      'https://example.com/p?x=1&utm_source=qr&utm_campaign=spring%20sale#top',
    );
  });

  it("merges the visitor query: the destination's and the link's parameters win, q is never passed on", async () => {
    const link = await stack.createLink(website('https://example.com/p?lang=fr', { utm: { source: 'qr' }, queryPolicy: 'merge' }));
    expect(await locationOf(`/${link.slug}?q=shelf&lang=en&utm_source=mail&utm_campaign=news&gclid=abc`)).toBe(
      'https://example.com/p?lang=fr&utm_source=qr&utm_campaign=news&gclid=abc',
    );
    expect(await locationOf(`/${link.slug}?q`)).toBe('https://example.com/p?lang=fr&utm_source=qr');
  });

  it('falls back to the destination alone when the merge would pass 8 KB', async () => {
    const link = await stack.createLink(website('https://example.com/p', { queryPolicy: 'merge' }));
    expect(await locationOf(`/${link.slug}?big=${'x'.repeat(9000)}`)).toBe('https://example.com/p');
    expect(await locationOf(`/${link.slug}?small=1`)).toBe('https://example.com/p?small=1');
  });

  it('a change of UTM or policy reaches the next scan', async () => {
    const link = await stack.createLink(website('https://example.com/p'));
    expect(await locationOf(`/${link.slug}?a=1`)).toBe('https://example.com/p');
    await api('PATCH', `/api/v1/links/${link.slug}`, { utm: { medium: 'print' }, queryPolicy: 'merge' });
    await pollUntil(
      () => locationOf(`/${link.slug}?a=1`),
      (l) => l === 'https://example.com/p?utm_medium=print&a=1',
      10_000,
      50,
    );
  });

  it('tags every smart-url destination and merges into the one chosen', async () => {
    const link = await stack.createLink({
      name: 'Smart',
      type: 'smart-url',
      data: {
        defaultUrl: 'https://example.com/desktop',
        rules: [{ conditionType: 'device', operator: 'is', devices: ['ios'], url: 'https://apps.example/ios?utm_campaign=own' }],
      },
      utm: { campaign: 'launch' },
      queryPolicy: 'merge',
    });
    const iphone = {
      headers: {
        'user-agent':
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      },
    };
    const ios = await stack.redirect.get(`/${link.slug}?q&ref=x`, iphone);
    expect(ios.headers.get('location')).toBe('https://apps.example/ios?utm_campaign=launch&ref=x');
    expect(await locationOf(`/${link.slug}?ref=y`)).toBe('https://example.com/desktop?utm_campaign=launch&ref=y');
  });

  it('hosted pages are unaffected', async () => {
    const link = await stack.createLink({
      name: 'Mail',
      type: 'email',
      data: { email: 'hello@example.com', subject: 'Hi', body: 'Hello' },
      utm: { source: 'qr' },
      queryPolicy: 'merge',
    });
    const res = await stack.redirect.get(`/${link.slug}?a=1`);
    expect(res.status).toBe(200);
  });
});
