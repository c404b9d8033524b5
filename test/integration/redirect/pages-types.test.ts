/**
 * The event, location, files, contact and product pages: their words in every catalogue language,
 * times and prices through Intl in the page's locale, actions chosen by the scanner's platform,
 * and the data fields they show (validated and stored through the real API).
 */
import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, draftOf, newItem, type ListSpec } from '#console/src/links/link-form.js';
import { loadResolvedLink } from '#domain/links/resolve/load.js';
import { renderLinkPage, renderVcard, type Scanner } from '#redirect/pages/index.js';
import type { LinkType } from '#domain/links/data/index.js';
import type { ResolvedLinkFile } from '#domain/links/resolve/resolved-link.js';
import { pdfBytes, pngBytes, uploadFile } from '../../support/fixtures.js';
import { call, createLinkVia, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { exampleData, resolvedLink } from '../../support/link-examples.js';

const IMAGES = ['6f1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e01', '6f1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e02', '6f1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e03'];
const FILES: ResolvedLinkFile[] = IMAGES.map((id) => ({ id, contentType: 'image/png', size: 1000, originalName: null, variants: null }));
const URLS = { file: (id: string) => `/files/${id}`, vcard: '/abc1234.vcf', ics: '/abc1234.ics' };
const JANUARY = Date.parse('2026-01-01T00:00:00Z');
const on = (platform: Scanner['platform'], acceptLanguage?: string): Scanner => ({
  platform,
  now: JANUARY,
  ...(acceptLanguage ? { acceptLanguage } : {}),
});

function page(type: LinkType, data: Record<string, unknown>, scanner: Scanner = on('other'), language?: string): string {
  const link = { ...resolvedLink(type, data, FILES), name: 'Cafe Aroma', ...(language ? { pageStyle: { language } } : {}) };
  return renderLinkPage(link, URLS, scanner).body;
}

const text = (body: string) =>
  body
    .slice(body.indexOf('<main>'), body.indexOf('</main>'))
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/[\s\u202f\u2009\u00a0]+/g, ' ');
const hrefs = (body: string) => [...body.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
const buttons = (body: string) =>
  [...body.matchAll(/<a class="button( secondary)?" href="([^"]*)">([^<]*)<\/a>/g)].map((m) => ({
    main: !m[1],
    href: m[2]!.replace(/&amp;/g, '&'),
    label: m[3]!,
  }));

describe('event page', () => {
  const jazz = {
    ...exampleData('event', { images: IMAGES, pdfs: [] }),
    startDateTime: '2026-06-12T19:00',
    endDateTime: '2026-06-12T22:30',
    timezone: 'Europe/Lisbon',
  };

  it('times in the event’s zone, named by its city, in the page’s language; never a GMT offset or a zone id', () => {
    expect(text(page('event', jazz, on('other'), 'en-GB'))).toContain('Friday, 12 June 2026 19:00–22:30, Lisbon time');
    expect(text(page('event', jazz, on('other'), 'en'))).toContain('Friday, June 12, 2026 7:00 – 10:30 PM, Lisbon time');
    const pt = text(page('event', jazz, on('other'), 'pt-PT'));
    expect(pt).toContain('sexta-feira, 12 de junho de 2026 19:00 – 22:30, hora de Lisbon');
    expect(pt).toContain('Quando');
    expect(pt).toContain('Onde');
    expect(text(page('event', jazz, on('other', 'de-DE,de;q=0.9')))).toContain('Freitag, 12. Juni 2026 19:00–22:30 Uhr, Ortszeit Lisbon');
    for (const language of ['en', 'pt', 'es', 'fr', 'de']) {
      const body = text(page('event', jazz, on('other'), language));
      expect(body).not.toMatch(/GMT|UTC|Europe\/Lisbon/);
    }
    // Over several days: one range with its dates.
    const festival = text(page('event', { ...jazz, endDateTime: '2026-06-14T18:00' }, on('other'), 'en-GB'));
    expect(festival).toContain('Fri, 12 Jun 2026, 19:00 – Sun, 14 Jun 2026, 18:00, Lisbon time');
  });

  it('the photo on top; Register the main action; the Where a link to the phone’s maps', () => {
    const body = page('event', jazz, on('ios'));
    expect(body.indexOf('<img')).toBeLessThan(body.indexOf('<h1>'));
    expect(buttons(body)[0]).toEqual({ main: true, href: 'https://example.com/register', label: 'Register' });
    expect(
      buttons(body)
        .slice(1)
        .every((b) => !b.main),
    ).toBe(true);
    expect(hrefs(body)).toContain('https://maps.apple.com/?q=Main%20hall');
    expect(hrefs(page('event', jazz, on('android')))).toContain('geo:0,0?q=Main%20hall');
    expect(hrefs(page('event', jazz, on('other')))).toContain('https://www.google.com/maps/search/?api=1&query=Main%20hall');
    const pt = buttons(page('event', jazz, on('ios'), 'pt'));
    expect(pt.map((b) => b.label)).toEqual([
      'Inscrever-se',
      'Adicionar ao Calendário da Apple',
      'Adicionar ao Google Calendar',
      'Adicionar ao Outlook',
    ]);
  });

  it('without registration the phone’s own calendar is the main button: the .ics on iOS, Google on Android', () => {
    const noRegistration = { ...jazz, registrationUrl: undefined };
    expect(buttons(page('event', noRegistration, on('ios')))[0]).toEqual({
      main: true,
      href: '/abc1234.ics',
      label: 'Add to Apple Calendar',
    });
    expect(buttons(page('event', noRegistration, on('android')))[0]).toMatchObject({
      main: true,
      label: 'Add to Google Calendar',
      href: expect.stringMatching(/^https:\/\/calendar\.google\.com\//),
    });
    expect(buttons(page('event', noRegistration, on('other')))[0]).toEqual({ main: true, href: '/abc1234.ics', label: 'Add to calendar' });
    expect(buttons(page('event', noRegistration, on('android'))).filter((b) => b.main)).toHaveLength(1);
  });

  it('Google and Outlook entries carry the organizer and the registration link, as the .ics does', () => {
    const links = hrefs(page('event', jazz, on('other')));
    const google = new URL(links.find((h) => h.startsWith('https://calendar.google.com'))!);
    const outlook = new URL(links.find((h) => h.startsWith('https://outlook.live.com'))!);
    const expected = 'Live jazz night\n\nOrganizer: Cafe Aroma\n\nRegistration: https://example.com/register';
    expect(google.searchParams.get('details')).toBe(expected);
    expect(outlook.searchParams.get('body')).toBe(expected);
    expect(google.searchParams.get('dates')).toBe('20260612T180000Z/20260612T213000Z');
    const fr = new URL(hrefs(page('event', jazz, on('other'), 'fr')).find((h) => h.startsWith('https://calendar.google.com'))!);
    expect(fr.searchParams.get('details')).toContain('Organisateur : Cafe Aroma');
  });
});

describe('location page', () => {
  const place = { latitude: 38.7139, longitude: -9.1334, name: 'Miradouro da Graça', address: 'Largo da Graça\n1170-165 Lisboa' };

  it('the place’s name and address, the pins titled with it', () => {
    const body = page('location', place, on('ios'));
    expect(body).toContain('<h1>Miradouro da Graça</h1>');
    expect(text(body)).toContain('Largo da Graça 1170-165 Lisboa');
    expect(buttons(body)[0]).toEqual({
      main: true,
      href: 'https://maps.apple.com/?ll=38.7139,-9.1334&q=Miradouro%20da%20Gra%C3%A7a',
      label: 'Open in Apple Maps',
    });
    expect(buttons(page('location', place, on('android')))[0]).toEqual({
      main: true,
      href: 'geo:38.7139,-9.1334?q=38.7139,-9.1334(Miradouro%20da%20Gra%C3%A7a)',
      label: 'Open in maps app',
    });
    // Without a place name, the page style's title titles the pin (never the link's own name); never the coordinates when there is a title.
    const { name: _n, ...unnamed } = place;
    expect(page('location', unnamed, on('ios'))).not.toContain('Cafe Aroma');
    const linkNamed = renderLinkPage(
      { ...resolvedLink('location', unnamed, FILES), name: 'Table flyer', pageStyle: { title: 'Cafe Aroma' } },
      URLS,
      on('ios'),
    ).body;
    expect(linkNamed).toContain('<h1>Cafe Aroma</h1>');
    expect(buttons(linkNamed)[0]!.href).toBe('https://maps.apple.com/?ll=38.7139,-9.1334&q=Cafe%20Aroma');
  });

  it('one main button that suits the phone; no Apple Maps on Android, no geo: on iOS', () => {
    const android = buttons(page('location', place, on('android')));
    expect(android.filter((b) => b.main)).toHaveLength(1);
    expect(android.some((b) => b.href.startsWith('https://maps.apple.com'))).toBe(false);
    const ios = buttons(page('location', place, on('ios')));
    expect(ios.filter((b) => b.main)).toHaveLength(1);
    expect(ios.some((b) => b.href.startsWith('geo:'))).toBe(false);
    expect(buttons(page('location', place, on('other'), 'de')).map((b) => b.label)).toEqual([
      'In Google Maps öffnen',
      'Apple Karten',
      'OpenStreetMap',
      'Andere Karten-App',
    ]);
  });

  it('coordinates in the locale’s numbers', () => {
    expect(text(page('location', place, on('other'), 'pt'))).toContain('38,7139° N, 9,1334° W');
  });
});

describe('gallery and images', () => {
  it('each viewer counts "2 / 3", closes and moves; its script is allowed by hash', () => {
    const page3 = renderLinkPage(
      { ...resolvedLink('gallery', { files: IMAGES.map((fileId) => ({ fileId })) }, FILES), name: 'Terrace' },
      URLS,
      on('other'),
    );
    expect(page3.body).toMatch(/<div class="viewer" id="view-2"[^>]*>\s*<p class="viewer-count" aria-hidden="true">2 \/ 3<\/p>/);
    const script = page3.body.match(/<script>([\s\S]*?)<\/script>/)![1]!;
    const hash = `sha256-${createHash('sha256').update(script).digest('base64')}`;
    expect(page3.headers!['Content-Security-Policy']).toContain(`'${hash}'`);
    expect(script).toContain("'Escape'");
    expect(script).toContain('location.replace');
    const de = renderLinkPage(
      {
        ...resolvedLink('gallery', { files: IMAGES.map((fileId) => ({ fileId })) }, FILES),
        name: 'Terrace flyer',
        pageStyle: { language: 'de', title: 'Terrasse' },
      },
      URLS,
      on('other'),
    ).body;
    expect(text(de)).toContain('Weiter');
    expect(de).toContain('alt="Terrasse, Bild 2 von 3"');
  });
});

describe('contact page', () => {
  const ada = {
    ...exampleData('vcard', { images: [], pdfs: [] }),
    jobTitle: 'Chief Engineer',
    photo: { fileId: IMAGES[1] },
    socialLinks: [{ url: 'https://www.linkedin.com/in/ada' }, { url: 'https://github.com/ada' }, { url: 'https://ada.example.org/blog' }],
  };

  it('the photo, the job title apart from the department, the social profiles', () => {
    const body = page('vcard', ada);
    expect(body).toMatch(new RegExp(`<img class="contact-photo" src="/files/${IMAGES[1]}" alt="Photo of Ada Lovelace"`));
    expect(body).toContain('<dt>Job title</dt><dd>Chief Engineer</dd>');
    expect(body).toContain('<dt>Department</dt><dd>Research</dd>');
    expect(text(body)).toContain('Chief Engineer · Analytical Engines');
    expect(hrefs(body)).toEqual(
      expect.arrayContaining(['https://www.linkedin.com/in/ada', 'https://github.com/ada', 'https://ada.example.org/blog']),
    );
    expect(text(body)).toMatch(/LinkedIn .*GitHub .*ada\.example\.org/);
    // A photo the link does not have is left out.
    expect(page('vcard', { ...ada, photo: { fileId: '00000000-0000-4000-8000-000000000000' } })).not.toContain(
      '<img class="contact-photo"',
    );
  });

  it('every label in the page’s language', () => {
    const de = text(page('vcard', ada, on('other'), 'de'));
    for (const word of ['Kontakt speichern', 'Anrufen', 'Route', 'Position', 'Abteilung', 'Firma', 'Adresse']) expect(de).toContain(word);
  });

  it('.vcf: the job title as TITLE, each profile as a URL', () => {
    const card = new ICAL.Component(ICAL.parse(renderVcard(ada as never)));
    expect(card.getFirstPropertyValue('title')).toBe('Chief Engineer');
    expect(card.getAllProperties('url').map((p) => p.getFirstValue())).toEqual([
      'https://ada.example.com/',
      'https://www.linkedin.com/in/ada',
      'https://github.com/ada',
      'https://ada.example.org/blog',
    ]);
  });
});

describe('product page', () => {
  const blend = {
    ...exampleData('product', { images: IMAGES, pdfs: [] }),
    images: { files: IMAGES.slice(0, 2).map((fileId) => ({ fileId })) },
    buyUrl: 'https://shop.example.com/blend',
  };

  it('Buy is the main button; each image opens large', () => {
    const body = page('product', blend);
    expect(buttons(body)[0]).toEqual({ main: true, href: 'https://shop.example.com/blend', label: 'Buy' });
    expect(hrefs(body)).toEqual(expect.arrayContaining(['#view-1', '#view-2']));
    expect(body).toMatch(/<div class="viewer" id="view-2"[^>]*>\s*<p class="viewer-count" aria-hidden="true">2 \/ 2<\/p>/);
    expect(page('product', { ...blend, buyUrl: undefined })).not.toContain('class="button"');
  });

  it('prices as the locale writes them', () => {
    expect(text(page('product', blend, on('other'), 'de'))).toContain(
      'Preis in EUR Zwischensumme 12,50 € Rabatt (10 %) −1,25 € Steuer 2,50 € Gesamt 15,00 €',
    );
    expect(text(page('product', blend, on('other'), 'pt-PT'))).toContain('Comprar');
  });
});

describe('the new fields through POST /links', () => {
  let api: TestApi;
  let me: TestAccount;
  let image: string;
  let pdf: string;

  beforeAll(async () => {
    api = await startTestApi();
    me = await createTestAccount(api.ctx);
    image = (await uploadFile(api.app, me.key, pngBytes(8, 8), 'ada.png')).fileId;
    pdf = (await uploadFile(api.app, me.key, pdfBytes(), 'cv.pdf')).fileId;
  });
  afterAll(() => api?.close());

  const post = (type: string, data: unknown) => call(api.app, me.key, 'POST', '/api/v1/links', { name: 'n', type, data });
  const vcard = () => exampleData('vcard', { images: [], pdfs: [] });

  it.each([
    ['location', () => ({ latitude: 1, longitude: 2, name: 7 }), 'data.name', 'Must be a string'],
    ['location', () => ({ latitude: 1, longitude: 2, name: 'n'.repeat(256) }), 'data.name', 'Must be at most 255 characters'],
    ['location', () => ({ latitude: 1, longitude: 2, address: 'a'.repeat(1_000_000) }), 'data.address', 'Must be at most 500 characters'],
    ['vcard', () => ({ ...vcard(), jobTitle: null }), 'data.jobTitle', 'Must be a string'],
    ['vcard', () => ({ ...vcard(), photo: { fileId: 'me.png' } }), 'data.photo.fileId', 'Must be a file id (UUID)'],
    ['vcard', () => ({ ...vcard(), socialLinks: [{ url: 'javascript:alert(1)' }] }), 'data.socialLinks[0].url', 'Must be a valid URL'],
    ['vcard', () => ({ ...vcard(), socialLinks: ['https://github.com/ada'] }), 'data.socialLinks[0]', 'Must be an object'],
    [
      'vcard',
      () => ({ ...vcard(), socialLinks: Array.from({ length: 11 }, () => ({ url: 'https://example.com/' })) }),
      'data.socialLinks',
      'Must have at most 10 items',
    ],
    [
      'product',
      () => ({ ...exampleData('product', { images: [], pdfs: [] }), images: undefined, buyUrl: 'https://shop.example.com/\u0000' }),
      'data.buyUrl',
      'Must not contain NUL characters (\\u0000) or unpaired UTF-16 surrogates',
    ],
    [
      'product',
      () => ({ ...exampleData('product', { images: [], pdfs: [] }), images: undefined, buyUrl: 'javascript:alert(1)' }),
      'data.buyUrl',
      'Must be a valid URL',
    ],
  ])('%s: %o → 400 at %s', async (type, data, path, message) => {
    const res = await post(type, data());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual(expect.arrayContaining([expect.objectContaining({ path, message })]));
  });

  it('a PDF or an unknown file as the photo → 400 at data.photo.fileId', async () => {
    for (const fileId of [pdf, '00000000-0000-4000-8000-000000000000']) {
      const res = await post('vcard', { ...vcard(), photo: { fileId } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain('data.photo.fileId');
    }
  });

  it('the photo is attached to the link like every file its data names, and shown on its page', async () => {
    const { slug } = await createLinkVia(api.app, me.key, {
      name: 'Ada',
      type: 'vcard',
      data: { ...vcard(), jobTitle: 'Engineer', photo: { fileId: image }, socialLinks: [{ url: 'https://github.com/ada' }] },
    });
    const link = (await loadResolvedLink(api.ctx.database.pool, slug))!;
    const photoId = (link.data as { photo: { fileId: string } }).photo.fileId;
    expect(link.files.map((f) => f.id.toLowerCase())).toContain(photoId.toLowerCase());
    expect(renderLinkPage(link, URLS, on('other')).body).toContain(`src="/files/${photoId}"`);
  });

  it('location name and address, product buyUrl: stored as sent (the URL serialised)', async () => {
    const located = await post('location', { latitude: 1, longitude: 2, name: 'Pier', address: 'Dock 4\nLisbon' });
    expect(located.statusCode, located.body).toBe(200);
    const bought = await post('product', {
      ...exampleData('product', { images: [], pdfs: [] }),
      images: undefined,
      buyUrl: 'https://Shop.example.com',
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const stored = await call(api.app, me.key, 'GET', `/api/v1/links/${bought.json().id}`);
    expect(stored.json().data.meta_data.buyUrl).toBe('https://shop.example.com/');
  });

  it('the console’s forms send the new members, and the API takes them', async () => {
    const place = draftOf('location', null, 'Europe/Lisbon');
    Object.assign(place.values, { latitude: '38.7', longitude: '-9.1', name: 'Pier', address: 'Dock 4' });
    expect(dataOf('location', place)).toEqual({ latitude: 38.7, longitude: -9.1, name: 'Pier', address: 'Dock 4' });
    const contact = draftOf('vcard', null, 'Europe/Lisbon');
    Object.assign(contact.values, {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      jobTitle: 'Engineer',
      'photo.fileId': image,
    });
    const profile = newItem({
      kind: 'list',
      key: 'socialLinks',
      label: '',
      itemLabel: '',
      min: 0,
      max: 10,
      fields: [{ kind: 'url', key: 'url', label: '' }],
    } satisfies ListSpec);
    profile.values.url = 'https://github.com/ada';
    contact.lists.socialLinks = [profile];
    const data = dataOf('vcard', contact);
    expect(data).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      jobTitle: 'Engineer',
      photo: { fileId: image },
      socialLinks: [{ url: 'https://github.com/ada' }],
    });
    expect((await post('vcard', data)).statusCode).toBe(200);
    // Left empty, the optional list is left out.
    expect(dataOf('vcard', { ...contact, lists: { socialLinks: [] } })).not.toHaveProperty('socialLinks');
  });

  it('the OpenAPI document names the new members', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/api/v1/docs/json' })).json();
    const description = JSON.stringify(doc.paths['/api/v1/links'].post.requestBody);
    for (const member of ['`name`', '`address`', '`jobTitle`', '`photo`', '`socialLinks`', '`buyUrl`'])
      expect(description).toContain(member);
  });
});
