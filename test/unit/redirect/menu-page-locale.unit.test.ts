/**
 * The menu page's words in each catalogue language: every key in every language (with the same
 * parameters), and pages in Portuguese, German and French whose prices, times and weekday names
 * come from Intl for the page's locale; the locale a page gets from a cafe's language or a
 * guest's Accept-Language (by catalogue language alone, so at most five pages per cafe).
 */
import { describe, expect, it } from 'vitest';
import type { PublishedItem, PublishedMenu } from '#domain/cafes/published-menu.js';
import { CATALOGUE_LANGUAGES } from '#redirect/pages/common/locale.js';
import { menuText } from '#redirect/pages/menu/menu-messages.js';
import { renderMenuPage } from '#redirect/pages/menu/menu-page.js';
import { menuLocale } from '#redirect/pages/menu/words.js';

const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

// 2026-11-23 is a Monday; Lisbon is on UTC in November.
const MONDAY_0700 = new Date('2026-11-23T07:00:00Z');

function item(name: string, extra: Partial<PublishedItem> = {}): PublishedItem {
  return {
    id: name,
    name,
    description: null,
    price: '1.200',
    currency: 'EUR',
    isFeatured: false,
    isNew: false,
    isRecommended: false,
    spiceLevel: 'none',
    ingredients: [],
    allergens: [],
    tags: [],
    image: null,
    ...extra,
  };
}

const MENU: PublishedMenu = {
  cafeId: 'c1',
  version: '1',
  name: 'Café',
  description: null,
  title: null,
  subtitle: null,
  timezone: 'Europe/Lisbon',
  operatingHours: [
    { day: 'monday', enabled: true, ranges: [{ from: '08:00', to: '19:00' }] },
    {
      day: 'wednesday',
      enabled: true,
      ranges: [
        { from: '08:00', to: '12:00' },
        { from: '14:00', to: '19:00' },
      ],
    },
  ],
  facilities: [],
  socialLinks: [],
  address: 'Rua Augusta 27',
  phone: '+351 21 000 0000',
  email: null,
  website: null,
  logo: null,
  cover: null,
  imageVariants: {},
  theme: 'classic',
  primaryColor: null,
  secondaryColor: null,
  showDietarySection: true,
  groups: [
    {
      id: 'g1',
      name: 'Café',
      image: null,
      categories: [
        {
          id: 'k1',
          name: 'Bebidas',
          description: null,
          image: null,
          items: [
            item('Galão', { tags: ['vegetarian'], allergens: ['milk', 'Egg'], isNew: true, spiceLevel: 'mild' }),
            item('Mocha', { description: 'Espresso with chocolate', ingredients: ['cocoa'], allergens: ['sulfites', 'celery salt'] }),
          ],
        },
      ],
    },
  ],
};

const page = (language: string | null, acceptLanguage?: string) =>
  renderMenuPage(MENU, { now: MONDAY_0700, urls: { file: (id) => `/files/${id}` }, locale: menuLocale(language, acceptLanguage) });

describe('a menu page in the cafe’s language', () => {
  it('Portuguese (Portugal): words, "1,20 €", 24-hour times, weekday names from Intl, a readable hours table', () => {
    const { body, headers } = page('pt-PT');
    expect(body).toContain('<html lang="pt-PT">');
    expect(body).toContain('<span class="price">1,20\u00a0€</span>');
    expect(body).toContain('Fechado · abre às 08:00');
    expect(body).toContain('<th scope="row">segunda-feira</th><td><span class="range">08:00 – 19:00</span></td>');
    expect(body).toContain(
      '<th scope="row">quarta-feira</th><td><span class="range">08:00 – 12:00</span>, <span class="range">14:00 – 19:00</span></td>',
    );
    expect(body).toContain('<th scope="row">terça-feira</th><td>Fechado</td>');
    for (const text of [
      'Procurar pratos',
      'Filtros',
      'Mostrar só',
      'Esconder pratos com',
      'Horário',
      'Visite-nos',
      'Ligar',
      'Direções',
      'Novo',
      'Vegetariano',
      'Alergénios:',
      'Nível de picante: Suave',
    ]) {
      expect(body, text).toContain(text);
    }
    // The EU allergens by their names in the language, one chip whatever the spelling; others capitalised as written.
    expect(body).toContain('value="eggs" id="avoid-eggs"><span>Ovos</span>');
    expect(body).toContain('value="milk" id="avoid-milk"><span>Leite</span>');
    expect(body).toContain('value="celery-salt" id="avoid-celery-salt"><span>Celery salt</span>');
    expect(body).not.toMatch(/>(Search dishes|Filters|Opening hours|Visit us|Call|New|Vegetarian)</);
    // The cafe's language is every guest's: the page does not vary by Accept-Language.
    expect(headers?.Vary).toBeUndefined();
  });

  it('German and French: their words, times and weekdays', () => {
    const de = page('de').body;
    expect(de).toContain('Geschlossen · öffnet um 08:00');
    expect(de).toContain('<th scope="row">Montag</th><td><span class="range">08:00 – 19:00</span></td>');
    expect(de).toContain('1,20\u00a0€');
    const fr = page('fr').body;
    expect(fr).toContain('Fermé · ouvre à 08:00');
    expect(fr).toContain('<th scope="row">lundi</th>');
  });

  it('a language the catalogue lacks: its lang, Intl formats, English words', () => {
    const { body } = page('ja');
    expect(body).toContain('<html lang="ja">');
    expect(body).toContain('Opening hours');
    expect(body).toContain('€1.20');
  });
});

describe('a cafe without a language', () => {
  it('speaks the guest’s best catalogue language, keyed by that language alone, and varies by Accept-Language', () => {
    expect(menuLocale(null, 'pt-BR,pt;q=0.9,en;q=0.5')).toEqual({ tag: 'pt', language: 'pt', negotiated: true });
    expect(menuLocale(null, 'da, de-AT;q=0.8')).toEqual({ tag: 'de', language: 'de', negotiated: true });
    expect(menuLocale(null, 'da')).toEqual({ tag: 'en', language: 'en', negotiated: true });
    expect(menuLocale(null, undefined)).toEqual({ tag: 'en', language: 'en', negotiated: true });
    expect(menuLocale(null, `${'x'.repeat(1_000_000)}\u0000`)).toEqual({ tag: 'en', language: 'en', negotiated: true });
    expect(menuLocale('pt-PT', 'de')).toEqual({ tag: 'pt-PT', language: 'pt', negotiated: false });
    const es = page(null, 'es-MX,es;q=0.9');
    expect(es.body).toContain('<html lang="es">');
    expect(es.body).toContain('Buscar platos');
    expect(es.headers?.Vary).toBe('Accept-Language');
  });
});

describe('search', () => {
  it('covers names, descriptions and ingredients, and nothing else of an item', () => {
    const { body } = page('en');
    expect(body).toContain('<h4 class="s">Mocha</h4>');
    expect(body).toContain('<p class="desc text s">Espresso with chocolate</p>');
    expect(body).toContain('<b>Ingredients:</b> <span class="s">cocoa</span>');
    expect(body).not.toMatch(/class="[^"]*\bs\b[^"]*">[^<]*sulfites/);
  });
});
