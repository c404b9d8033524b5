/**
 * Reserved slugs against what the redirect really serves: every path segment the redirect answers
 * at its root (read from its own route table, so a root route added later is covered without
 * being listed here) is reserved, and the API refuses it as a custom slug in any case, as it
 * refuses `preview`, the console's placeholder, on create and on PUT. A link that held `preview`
 * before it was reserved keeps its short URL (docs/decisions/0373).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReservedSlug } from '#domain/links/slug-rules.js';
import { call, createLinkVia, createTestAccount, type TestAccount, type TestApi, startTestApi } from '../../support/harness.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';

let api: TestApi;
let redirect: TestRedirect;
let owner: TestAccount;

beforeAll(async () => {
  api = await startTestApi();
  redirect = await startTestRedirect(api.ctx);
  owner = await createTestAccount(api.ctx);
});
afterAll(async () => {
  await redirect?.close();
  await api?.close();
});

const site = (customUrl: string) => ({
  name: 'Claim',
  type: 'website',
  data: { url: 'https://example.com/claim' },
  linkConfigurations: { urlActive: true, customUrl },
});

/** The API's refusal of `customUrl` on create: its errors, or the status when it was not a 400. */
async function refusal(customUrl: string) {
  const res = await call(api.app, owner.key, 'POST', '/api/v1/links', site(customUrl));
  return res.statusCode === 400 ? res.json().errors : res.statusCode;
}

describe('reserved slugs', () => {
  it('reserves every segment the redirect answers at its root, and the API refuses each as a custom slug in any case', async () => {
    const roots = [
      ...new Set(redirect.app.routeTable.map((r) => r.url.split('/')[1]!).filter((segment) => segment !== '' && !segment.startsWith(':'))),
    ].sort();
    // The table is the real one: today's root paths are in it.
    expect(roots).toEqual(expect.arrayContaining(['files', 'health', 'metrics', 'ready', 'robots.txt']));
    for (const segment of roots) {
      expect(isReservedSlug(segment), `/${segment} is served by the redirect: add it to RESERVED_SLUGS`).toBe(true);
      for (const spelling of [segment, segment.toUpperCase()]) {
        const errors = await refusal(spelling);
        expect(errors, spelling).toHaveLength(1);
        expect(errors[0].path, spelling).toBe('linkConfigurations.customUrl');
      }
    }
  });

  it('refuses `preview` in any case on create and on PUT', async () => {
    for (const customUrl of ['preview', 'Preview', 'pReViEw']) {
      expect(await refusal(customUrl)).toEqual([{ path: 'linkConfigurations.customUrl', message: 'This URL is reserved' }]);
    }
    const { slug } = await createLinkVia(api.app, owner.key);
    const put = await call(api.app, owner.key, 'PUT', `/api/v1/links/${slug}`, site('Preview'));
    expect(put.statusCode).toBe(400);
    expect(put.json().errors).toEqual([{ path: 'linkConfigurations.customUrl', message: 'This URL is reserved' }]);
  });

  it('leaves a link that took `preview` before it was reserved at its short URL; turning its custom URL off keeps it', async () => {
    const { slug, id } = await createLinkVia(api.app, owner.key, {
      name: 'Early preview',
      type: 'website',
      data: { url: 'https://example.com/early' },
    });
    // As a link made before the rule holds it.
    await api.ctx.database.pool.query(`update links set slug = 'preview', custom_url = 'preview', url_active = true where id = $1`, [id]);
    expect(slug).not.toBe('preview');
    const scan = await redirect.get('/preview');
    expect(scan.status).toBe(302);
    expect(scan.headers.get('location')).toBe('https://example.com/early');
    // Sent back as its custom slug it is refused like any other claim; with the custom URL off, the
    // edit is saved and the link keeps its slug (a PUT without a custom slug keeps the current one).
    const body = { name: 'Early preview', type: 'website', data: { url: 'https://example.com/later' } };
    expect(
      (
        await call(api.app, owner.key, 'PUT', '/api/v1/links/preview', {
          ...body,
          linkConfigurations: { urlActive: true, customUrl: 'preview' },
        })
      ).statusCode,
    ).toBe(400);
    const kept = await call(api.app, owner.key, 'PUT', '/api/v1/links/preview', body);
    expect(kept.statusCode).toBe(200);
    expect(kept.json().data.dynamic_link_id).toBe('preview');
  });
});
