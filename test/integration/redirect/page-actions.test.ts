/**
 * POST /_/tap/<slug>/<action> on the real redirect process, over real Redis and Postgres: who
 * counts (a browser's beacon, once per visitor, action, link and day), who never does (bots,
 * repeats, floods, actions a page does not offer), what is refused, and the funnel the api
 * answers from the rows, for the caller's links only.
 *
 * Nothing waits a fixed time: a request answers once its tap is counted or not, so after the
 * taps under test, one counted tap of another action is sent, and once its row is written,
 * every earlier count has been written too (the redirect writes them all each second).
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageActionDays } from '#domain/schema.js';
import { call, createLinkVia, createTestAccount } from '../../support/harness.js';
import { exampleData, type ExampleFiles } from '../../support/link-examples.js';
import { pageTap, SCAN_USER_AGENTS, startScanStack, type PageTapOptions, type ScanStack } from '../../support/redirect.js';
import { pollUntil } from '../../support/until.js';

/** The pages under test show no files of the link. */
const NO_FILES: ExampleFiles = { images: [], pdfs: [] };

describe('taps on hosted pages', () => {
  let stack: ScanStack;

  beforeAll(async () => {
    stack = await startScanStack();
  });
  afterAll(async () => {
    await stack?.close();
  });

  const tap = (slug: string, action: string, userAgent: string = SCAN_USER_AGENTS.androidChrome, init: PageTapOptions = {}) =>
    pageTap(stack.redirect, slug, action, userAgent, init);

  const tapsOf = async (linkId: string) => {
    const rows = await stack.api.ctx.db
      .select({ action: pageActionDays.action, taps: pageActionDays.taps })
      .from(pageActionDays)
      .where(eq(pageActionDays.linkId, linkId));
    return Object.fromEntries(rows.map((r) => [r.action, r.taps]));
  };

  /** Sends a counted tap of `action` from a visitor not seen before, and waits until it is written. */
  async function settle(slug: string, linkId: string, action: string) {
    const before = (await tapsOf(linkId))[action] ?? 0;
    const res = await tap(slug, action, `Mozilla/5.0 (Windows NT 10.0; Win64; x64) Settle/${Math.random()}`);
    expect(res.status).toBe(204);
    return pollUntil(
      () => tapsOf(linkId),
      (t) => t[action] === before + 1,
    );
  }

  it('counts a visitor once per action a day, never a bot, a repeat or a flood', async () => {
    const link = await stack.createLink({ name: 'Card', type: 'vcard', data: exampleData('vcard', NO_FILES) });
    // The scan that shows the page puts the link in the caches the tap is looked up in.
    expect((await stack.redirect.get(`/${link.slug}`, { headers: { 'user-agent': SCAN_USER_AGENTS.iosSafari } })).status).toBe(200);

    expect((await tap(link.slug, 'save_contact', SCAN_USER_AGENTS.iosSafari)).status).toBe(204);
    expect((await tap(link.slug, 'save_contact', SCAN_USER_AGENTS.iosSafari)).status).toBe(204);
    // A flood from one visitor, all at once: still one.
    const flood = await Promise.all(Array.from({ length: 200 }, () => tap(link.slug, 'call', SCAN_USER_AGENTS.iosSafari)));
    expect(new Set(flood.map((r) => r.status))).toEqual(new Set([204]));
    // A bot never counts, nor an action a contact page does not offer.
    expect((await tap(link.slug, 'directions', SCAN_USER_AGENTS.googlebot)).status).toBe(204);
    expect((await tap(link.slug, 'directions', 'Mozilla/5.0 (X11; Linux x86_64) HeadlessChrome/124.0 Safari/537.36')).status).toBe(204);
    expect((await tap(link.slug, 'join_wifi')).status).toBe(204);
    // Another visitor (another system from the same address) counts on its own.
    expect((await tap(link.slug, 'save_contact', SCAN_USER_AGENTS.androidChrome)).status).toBe(204);

    expect(await settle(link.slug, link.id, 'website')).toEqual({ save_contact: 2, call: 1, website: 1 });
  });

  it('refuses what is not a page beacon, and ignores slugs it does not know', async () => {
    const link = await stack.createLink({ name: 'Wifi', type: 'wifi', data: exampleData('wifi', NO_FILES) });
    await stack.redirect.get(`/${link.slug}`, { headers: { 'user-agent': SCAN_USER_AGENTS.iosSafari } });

    const refused = async (res: { status: number; json(): Promise<{ code?: string }> }, status: number, code: string) => {
      expect(res.status).toBe(status);
      expect((await res.json()).code).toBe(code);
    };
    // curl, a form or a script on another site: no Fetch Metadata of a same-origin beacon.
    await refused(await stack.redirect.get(`/_/tap/${link.slug}/join_wifi`, { method: 'POST' }), 400, 'not_a_beacon');
    await refused(await tap(link.slug, 'join_wifi', undefined, { headers: { 'sec-fetch-site': '' } }), 400, 'not_a_beacon');
    await refused(await tap(link.slug, 'join_wifi', undefined, { headers: { 'sec-fetch-site': 'cross-site' } }), 400, 'not_a_beacon');
    await refused(await tap(link.slug, 'join_wifi', undefined, { headers: { 'sec-fetch-mode': 'navigate' } }), 400, 'not_a_beacon');
    // Bodies: a ping's alone, and small.
    await refused(
      await tap(link.slug, 'join_wifi', undefined, { headers: { 'content-type': 'application/json' }, body: '{}' }),
      415,
      'unsupported_body',
    );
    await refused(await tap(link.slug, 'join_wifi', undefined, { body: 'P'.repeat(10_000) }), 413, 'body_too_large');
    // Actions are a fixed list: anything else, control characters included, is unknown.
    await refused(await tap(link.slug, 'hack'), 404, 'unknown_action');
    await refused(await tap(link.slug, 'join_wifi%00'), 404, 'unknown_action');
    await refused(await tap(link.slug, '%0Ajoin_wifi'), 404, 'unknown_action');
    // HEAD and GET are no beacons: the redirect's not-found page.
    expect((await stack.redirect.get(`/_/tap/${link.slug}/join_wifi`, { method: 'HEAD' })).status).toBe(404);
    // Slugs no link has (or could have) are answered as any tap is, and nothing is written.
    expect((await tap('no-such-link', 'join_wifi')).status).toBe(204);
    expect((await tap('bad%01slug', 'join_wifi')).status).toBe(204);
    // A dot segment is resolved away: no tap path at all.
    expect((await tap('..', 'join_wifi')).status).toBe(405);

    expect(await settle(link.slug, link.id, 'join_wifi')).toEqual({ join_wifi: 1 });
  });

  it("answers the link's funnel, empty for another account's link, and forgets it with the link", async () => {
    const link = await stack.createLink({ name: 'Spot', type: 'location', data: exampleData('location', NO_FILES) });
    await stack.redirect.get(`/${link.slug}`, { headers: { 'user-agent': SCAN_USER_AGENTS.iosSafari } });
    await stack.redirect.get(`/${link.slug}`, { headers: { 'user-agent': SCAN_USER_AGENTS.androidChrome } });
    await stack.redirect.get(`/${link.slug}`, { headers: { 'user-agent': SCAN_USER_AGENTS.googlebot } });
    await stack.waitForScans(link.id, 3);
    expect((await tap(link.slug, 'directions', SCAN_USER_AGENTS.iosSafari)).status).toBe(204);
    await pollUntil(
      () => tapsOf(link.id),
      (t) => t.directions === 1,
    );

    const funnel = (key: string, slug: string, query = 'duration=today') =>
      call(stack.api.app, key, 'GET', `/api/v1/links/${slug}/analytics/actions?${query}`);
    const mine = await funnel(stack.me.key, link.slug);
    expect(mine.statusCode).toBe(200);
    // Bot scans never stand against taps, whatever exclude_bots says.
    const expected = {
      data: { scans: 2, actions: [{ action: 'directions', name: 'asked for directions', taps: 1, percentage: '50.00' }] },
    };
    expect(mine.json()).toEqual(expected);
    expect((await funnel(stack.me.key, link.slug, 'duration=7_days&exclude_bots=false')).json()).toEqual(expected);
    // A custom range before today has neither.
    expect((await funnel(stack.me.key, link.slug, 'duration=custom&date_from=2020-01-01&date_to=2020-01-31')).json()).toEqual({
      data: { scans: 0, actions: [] },
    });
    expect((await funnel(stack.me.key, link.slug, 'duration=forever')).statusCode).toBe(400);

    const other = await createTestAccount(stack.api.ctx);
    const theirs = await createLinkVia(stack.api.app, other.key, {
      name: 'Theirs',
      type: 'location',
      data: exampleData('location', NO_FILES),
    });
    expect((await funnel(stack.me.key, theirs.slug)).json()).toEqual({ data: { scans: 0, actions: [] } });
    expect((await funnel(other.key, link.slug)).json()).toEqual({ data: { scans: 0, actions: [] } });
    expect((await funnel(stack.me.key, 'no-such-link')).json()).toEqual({ data: { scans: 0, actions: [] } });

    expect((await call(stack.api.app, stack.me.key, 'DELETE', `/api/v1/links/${link.slug}`)).statusCode).toBe(200);
    const left = await stack.api.ctx.db
      .select()
      .from(pageActionDays)
      .where(and(eq(pageActionDays.linkId, link.id)));
    expect(left).toEqual([]);
  });
});
