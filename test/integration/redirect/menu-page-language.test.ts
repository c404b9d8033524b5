/**
 * A cafe's language through the real api and redirect: stored canonical, refused when it is no
 * BCP 47 tag, listed in the OpenAPI document; the menu page in the cafe's language for every guest,
 * or, without one, in each guest's catalogue language, kept once per catalogue language (never per
 * raw Accept-Language header) and sent with Vary: Accept-Language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
import { cafeUrl, createCafe, createMenu } from '../../support/cafe-menus.js';
import { call } from '../../support/harness.js';
import { startScanStack, type ScanStack } from '../../support/redirect.js';
import { pollUntil } from '../../support/until.js';

const TOKEN = 'metrics-token-for-menu-language-0123';
let stack: ScanStack;

beforeAll(async () => {
  stack = await startScanStack({ METRICS_TOKEN: TOKEN });
}, 60_000);
afterAll(() => stack?.close());

/** Menu pages the redirect has made in its render thread so far. */
async function menusRendered(): Promise<number> {
  const text = await (await stack.redirect.get('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith('qrlinks_pages_rendered_total{') && l.includes('kind="menu"'));
  return line ? Number(line.split(' ').pop()) : 0;
}

async function scan(slug: string, acceptLanguage?: string) {
  const res = await stack.redirect.get(`/${slug}`, { headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage } });
  expect(res.status).toBe(200);
  return { vary: res.headers.get('vary'), body: await res.text() };
}

async function menuCafe(name: string) {
  const cafe = await createCafe(stack.api.app, stack.me.key, name);
  await createMenu(stack.api.app, stack.me.key, cafe.id, [
    { name: 'Drinks', categories: [{ name: 'Coffee', items: [{ name: 'Galão', price: '1.2', currency: 'EUR' }] }] },
  ]);
  return { id: cafe.id, slug: cafe.link.dynamic_link_id };
}

describe('a cafe’s language', () => {
  it('is stored canonical, cleared by null, refused when it is no language tag, and documented', async () => {
    const created = await call(stack.api.app, stack.me.key, 'POST', `${API_PREFIX}/cafes`, { name: 'Tasca', language: 'pt-pt' });
    expect(created.statusCode, created.body).toBe(200);
    const cafe = created.json().data;
    expect(cafe.language).toBe('pt-PT');
    const put = await call(stack.api.app, stack.me.key, 'PUT', cafeUrl(cafe.id), { language: 'DE-at' });
    expect(put.json().data.language).toBe('de-AT');
    expect((await call(stack.api.app, stack.me.key, 'PUT', cafeUrl(cafe.id), { name: 'Tasca do Zé' })).json().data.language).toBe('de-AT');
    for (const bad of ['not a tag', 'x'.repeat(36), 'en\u0000', 42]) {
      const res = await call(stack.api.app, stack.me.key, 'PUT', cafeUrl(cafe.id), { language: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(JSON.stringify(res.json()), String(bad)).toContain('language');
    }
    expect((await call(stack.api.app, stack.me.key, 'PUT', cafeUrl(cafe.id), { language: null })).json().data.language).toBeNull();
    const doc = (await stack.api.app.inject({ method: 'GET', url: `${API_PREFIX}/docs/json` })).json();
    for (const [path, method] of [
      ['/cafes/{id}', 'put'],
      ['/cafes', 'post'],
    ] as const) {
      const schema = doc.paths[`${API_PREFIX}${path}`][method].requestBody.content['application/json'].schema;
      expect(schema.properties.language, `${method} ${path}`).toMatchObject({ type: 'string' });
    }
  });

  it('speaks to every guest in the cafe’s language, without varying by Accept-Language', async () => {
    const { id, slug } = await menuCafe('Pastelaria');
    expect((await call(stack.api.app, stack.me.key, 'PUT', cafeUrl(id), { language: 'pt-PT' })).statusCode).toBe(200);
    const before = await menusRendered();
    for (const header of ['de', 'en-US,en;q=0.9', undefined]) {
      const { vary, body } = await pollUntil(
        () => scan(slug, header),
        (p) => p.body.includes('lang="pt-PT"'),
      );
      expect(vary).toBe('Accept-Encoding');
      expect(body).toContain('<span class="price">1,20\u00a0€</span>');
      expect(body).toContain('Procurar pratos');
    }
    expect(await menusRendered()).toBe(before + 1);
  });

  it('without one, speaks each guest’s catalogue language, one kept page per language, never per header', async () => {
    const { slug } = await menuCafe('Bistro');
    const before = await menusRendered();
    const guests: Array<[string | undefined, string, string]> = [
      ['de-DE,de;q=0.9', 'de', 'Gerichte suchen'],
      ['de-AT', 'de', 'Gerichte suchen'],
      ['fr-CA, en;q=0.5', 'fr', 'Rechercher un plat'],
      ['es', 'es', 'Buscar platos'],
      ['pt-BR', 'pt', 'Procurar pratos'],
      ['da, sv;q=0.9', 'en', 'Search dishes'],
      [undefined, 'en', 'Search dishes'],
      [`${'zz-'.repeat(400)}de;q=0.1`, 'en', 'Search dishes'],
    ];
    for (const [header, lang, words] of guests) {
      const { vary, body } = await scan(slug, header);
      expect(vary, header).toBe('Accept-Encoding, Accept-Language');
      expect(body, header).toContain(`<html lang="${lang}">`);
      expect(body, header).toContain(words);
    }
    // de, fr, es, pt, en: five pages, however many headers asked.
    expect(await menusRendered()).toBe(before + 5);
    for (const [header] of guests) await scan(slug, header);
    expect(await menusRendered()).toBe(before + 5);
  });
});
