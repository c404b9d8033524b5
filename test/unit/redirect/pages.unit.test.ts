/** The hosted pages as strings: content, escaping, sanitizing, statuses, headers, .vcf and .ics. */
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { LINK_TYPES, type LinkType } from '#domain/links/data/index.js';
import type { ResolvedLink, ResolvedLinkFile } from '#domain/links/resolve/resolved-link.js';
import { checkedUrl, html } from '#redirect/pages/common/html.js';
import { fileUrlOf } from '#redirect/pages/common/file-urls.js';
import { renderedPage } from '#redirect/page-render-task.js';
import {
  attachmentDisposition,
  CONTENT_SECURITY_POLICY,
  DEFAULT_EVENT_DURATION_MINUTES,
  eventFileName,
  REDIRECT_LINK_TYPES,
  renderIcs,
  renderLinkPage,
  renderVcard,
  vcardFileName,
  type Scanner,
} from '#redirect/pages/index.js';
import {
  renderClientErrorPage,
  renderPasswordPage,
  renderServiceUnavailablePage,
  renderTooManyNotFoundPage,
  renderUnavailablePage,
  type Page,
  type UnavailableReason,
} from '#redirect/pages/index.js';
import { exampleData, resolvedLink } from '../../support/link-examples.js';

const XSS = '<img src=x onerror=alert(1)>';
const XSS_TEXT = '&lt;img src=x onerror=alert(1)&gt;';

const IMAGE_IDS = ['6f1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e01', '6f1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e02'];
const PDF_IDS = ['6f1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e03', '6f1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e04'];
const FILES: ResolvedLinkFile[] = [
  { id: IMAGE_IDS[0]!, contentType: 'image/png', size: 48_213, originalName: `terrace ${XSS}.png`, variants: null },
  { id: IMAGE_IDS[1]!, contentType: 'image/jpeg', size: 1_250_000, originalName: null, variants: null },
  { id: PDF_IDS[0]!, contentType: 'application/pdf', size: 123_456, originalName: 'lunch-menu.pdf', variants: null },
  { id: PDF_IDS[1]!, contentType: 'application/pdf', size: 2_400_000, originalName: null, variants: null },
];
const URLS = { file: (id: string) => `/files/${id}`, vcard: '/abc1234.vcf', ics: '/abc1234.ics' };

function link(type: LinkType, data: Record<string, unknown> = exampleData(type, { images: IMAGE_IDS, pdfs: PDF_IDS })): ResolvedLink {
  return resolvedLink(type, data, FILES);
}

function render(type: LinkType, data?: Record<string, unknown>): string {
  return renderLinkPage(link(type, data), URLS).body;
}

/** The text of the document's <main>, tags removed and entities decoded: what a reader sees. */
function visibleText(body: string): string {
  const main = /<main>([\s\S]*)<\/main>/.exec(body)?.[1] ?? '';
  return main
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** The names of every attribute of every tag, whatever the quoting. */
function attributeNames(body: string): string[] {
  const attribute = /\s+([^\s"'=<>/]+)(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]*))?/g;
  return [...body.matchAll(new RegExp(`<[a-z][a-z0-9-]*((?:${attribute.source})*)\\s*/?>`, 'gi'))].flatMap(([, attributes]) =>
    [...attributes!.matchAll(attribute)].map((m) => m[1]!.toLowerCase()),
  );
}

function hrefs(body: string): string[] {
  return [...body.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
}

const PAGE_TYPES = LINK_TYPES.filter((type) => !(REDIRECT_LINK_TYPES as readonly LinkType[]).includes(type));

function expectSecurePage(page: Page) {
  expect(page.headers).toMatchObject({
    'Content-Type': 'text/html; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
  const csp = page.headers!['Content-Security-Policy']!;
  expect(csp).toContain("default-src 'none'");
  // Scripts only by hash, each inline script's own: no unsafe-inline, eval or sources.
  const scripts = [...page.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src '));
  expect(scriptSrc ? scriptSrc.split(' ').slice(1) : []).toEqual(scripts);
  expect(csp).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline/);
  expect(page.body.replace(/<script>[\s\S]*?<\/script>/g, '')).not.toMatch(/<script|<iframe|<object|<embed/i);
  expect(attributeNames(page.body).filter((name) => name.startsWith('on'))).toEqual([]);
  expect(page.body).toMatch(/^<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport"/);
  expect(page.body).toMatch(/<title>[^<]+<\/title>/);
  expect(page.body).toContain('<main>');
  expect(page.body).toMatch(/<h1>/);
  // Nothing is loaded from elsewhere: every src is one of our files or a data: URL.
  for (const [, src] of page.body.matchAll(/src="([^"]*)"/g)) expect(src).toMatch(/^(?:\/files\/|data:image\/)/);
}

describe('html template', () => {
  it('escapes interpolated text and attribute values, not nested templates', () => {
    const title = `"'><b>&`;
    expect(html`<p title="${title}">${title}</p>`.value).toBe('<p title="&quot;&#39;&gt;&lt;b&gt;&amp;">&quot;&#39;&gt;&lt;b&gt;&amp;</p>');
    expect(html`<ul>${['<a>', html`<li>${'<b>'}</li>`]}</ul>`.value).toBe('<ul>&lt;a&gt;<li>&lt;b&gt;</li></ul>');
    expect(html`${null}${undefined}${false}${0}`.value).toBe('0');
  });

  it('accepts a URL only with an allowed scheme, as a browser reads it', () => {
    expect(checkedUrl('https://example.com/a b', ['http', 'https'])).toBe('https://example.com/a%20b');
    expect(checkedUrl('javascript:alert(1)', ['http', 'https'])).toBeUndefined();
    expect(checkedUrl(' java\tscript:alert(1)', ['http', 'https', 'mailto'])).toBeUndefined();
    expect(checkedUrl('data:text/html,<script>', ['http', 'https'])).toBeUndefined();
    expect(checkedUrl('/relative', ['http', 'https'])).toBeUndefined();
    expect(checkedUrl('mailto:a@example.com', ['mailto'])).toBe('mailto:a@example.com');
  });
});

describe('every page type', () => {
  it.each(PAGE_TYPES)('%s: a complete, small page with the security headers, scripts only by hash', (type) => {
    const page = renderLinkPage(link(type), URLS);
    expect(page.status).toBe(200);
    expectSecurePage(page);
    // Small before compression too (inline icons included).
    expect(Buffer.byteLength(page.body)).toBeLessThan(6144);
  });

  it('kept as bytes, a page and its compressed copies each hold memory of their own size only', () => {
    const kept = renderedPage(renderLinkPage(link('vcard'), URLS));
    expect(kept.encoded).not.toBeNull();
    for (const bytes of [kept.body, kept.encoded!.br, kept.encoded!.gzip]) expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    expect(brotliDecompressSync(kept.encoded!.br).equals(Buffer.from(kept.body))).toBe(true);
    expect(gunzipSync(kept.encoded!.gzip).equals(Buffer.from(kept.body))).toBe(true);
  });

  it('has no page for redirecting types', () => {
    for (const type of REDIRECT_LINK_TYPES) expect(() => renderLinkPage(link(type), URLS)).toThrow(TypeError);
  });

  it('the default CSP forbids scripts, frames, plugins and foreign images', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; img-src 'self' data:; connect-src 'self'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
  });
});

describe('email and sms', () => {
  it('email: shows the message and a mailto: button with subject and body encoded', () => {
    const body = render('email', { email: 'hello@example.com', subject: `Table & ${XSS}`, body: 'Line 1\nLine 2 ?&=' });
    expect(body).toContain(XSS_TEXT);
    expect(body).not.toContain(XSS);
    expect(visibleText(body)).toContain('hello@example.com');
    const mailto = hrefs(body).find((h) => h.startsWith('mailto:'))!;
    expect(mailto).toBe(
      `mailto:hello@example.com?subject=${encodeURIComponent(`Table & ${XSS}`)}&body=${encodeURIComponent('Line 1\r\nLine 2 ?&=')}`,
    );
    expect(render('email', { email: 'hello@example.com' })).toContain('href="mailto:hello@example.com"');
  });

  it('sms: shows the number and an sms: button with the body', () => {
    const body = render('sms', { phone: '+1 (555) 010-2030', message: `Hi ${XSS}` });
    expect(body).toContain(XSS_TEXT);
    expect(hrefs(body)).toContain(`sms:+15550102030?&body=${encodeURIComponent(`Hi ${XSS}`)}`);
    expect(hrefs(render('sms', { phone: '555 0100' }))).toContain('sms:5550100');
  });
});

describe('vcard', () => {
  const ada = exampleData('vcard', { images: [], pdfs: [] }) as Record<string, string>;

  it('page: the contact, a Save contact link and tappable details', () => {
    const body = render('vcard', { ...ada, firstName: XSS, contact: '+44 7700 900123', website: 'ada.example.com' });
    expect(body).toContain(`<h1>${XSS_TEXT} Lovelace</h1>`);
    expect(body).toContain(`<a class="button" href="/abc1234.vcf">Save contact</a>`);
    const links = hrefs(body);
    expect(links).toEqual(
      expect.arrayContaining(['mailto:ada@example.com', 'tel:+447700900123', 'tel:+442079460000', 'https://ada.example.com/']),
    );
    const text = visibleText(body);
    for (const value of [
      'Analytical Engines',
      'Research',
      '+44 20 7946 0001',
      '12 St James Square',
      'SW1Y 4JH London',
      'Greater London',
      'United Kingdom',
    ]) {
      expect(text).toContain(value);
    }
  });

  it('page: free-text values that are not numbers or URLs stay text', () => {
    const body = render('vcard', { ...ada, contact: 'Engine Room', website: 'javascript:alert(1)' });
    expect(visibleText(body)).toContain('Engine Room');
    expect(hrefs(body).some((h) => h.includes('Engine') || h.startsWith('javascript'))).toBe(false);
  });

  it('.vcf: a vCard 3.0 that ical.js reads, carrying every field', () => {
    const vcf = renderVcard({ ...ada, company: 'Engines; Ltd, Inc', firstName: 'Ádá' } as never);
    const card = new ICAL.Component(ICAL.parse(vcf));
    expect(card.name).toBe('vcard');
    expect(card.getFirstPropertyValue('version')).toBe('3.0');
    expect(card.getFirstPropertyValue('n')).toEqual(['Lovelace', 'Ádá', '', '', '']);
    expect(card.getFirstPropertyValue('email')).toBe('ada@example.com');
    const phones = card.getAllProperties('tel').map((p) => [p.getParameter('type'), p.getFirstValue()]);
    expect(phones).toEqual([
      ['CELL', 'Engine Room'],
      [['WORK', 'VOICE'], '+44 20 7946 0000'],
      [['WORK', 'FAX'], '+44 20 7946 0001'],
    ]);
    expect(card.getFirstPropertyValue('url')).toBe('https://ada.example.com/');
    expect(card.getFirstPropertyValue('org')).toEqual(['Engines; Ltd, Inc', 'Research']);
    expect(card.getFirstPropertyValue('adr')).toEqual([
      '',
      '',
      '12 St James Square',
      'London',
      'Greater London',
      'SW1Y 4JH',
      'United Kingdom',
    ]);
  });

  it('.vcf: only an http(s) website is written; other schemes and line breaks never make a line', () => {
    const urlsOf = (vcf: string) => new ICAL.Component(ICAL.parse(vcf)).getAllProperties('url').map((p) => p.getFirstValue());
    for (const website of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      ' JavaScript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      'ftp://example.com/x',
      'https://',
    ]) {
      const vcf = renderVcard({ ...ada, website } as never);
      expect(urlsOf(vcf), website).toEqual([]);
      expect(vcf.toLowerCase(), website).not.toMatch(/script:|file:|data:|ftp:/);
    }
    expect(urlsOf(renderVcard({ ...ada, website: 'ada.example.com/about me' } as never))).toEqual(['https://ada.example.com/about%20me']);
    expect(urlsOf(renderVcard({ ...ada, website: 'http://ada.example.com' } as never))).toEqual(['http://ada.example.com/']);
    // Numbers are free text: a line break in one must not start a URL (or any) line of its own.
    const injected = renderVcard({
      ...ada,
      contact: '1\r\nURL:javascript:alert(1)',
      phone: '2\nURL:file:///etc/passwd',
      fax: '3\rX-A:b',
    } as never);
    expect(urlsOf(injected)).toEqual(['https://ada.example.com/']);
    expect(injected.split('\r\n').filter((line) => /^(URL|X-A)/i.test(line))).toEqual(['URL:https://ada.example.com/']);
  });

  it('.vcf: a lone CR, NEL or line separator in any text field never starts a line for a line-based reader', () => {
    const evil = (sep: string) => `x${sep}URL:javascript:alert(1)${sep}END:VCARD${sep}BEGIN:VCARD${sep}FN:Mallory`;
    for (const sep of ['\r', '\r\n', '\n', '\u0085', '\u2028', '\u2029', '\v', '\f']) {
      const fields = ['firstName', 'lastName', 'email', 'company', 'department', 'jobTitle', 'street', 'city', 'state', 'zip', 'country'];
      const vcf = renderVcard({ ...ada, ...Object.fromEntries(fields.map((f) => [f, evil(sep)])) } as never);
      // Android's reader splits on CR, LF or CRLF; others on the Unicode breaks as well.
      const lines = vcf.split(/\r\n|\r|\n|\u0085|\u2028|\u2029|\v|\f/);
      const starts = lines.filter((line) => /^(URL|END|BEGIN|FN)\b/i.test(line)).map((line) => line.split(':')[0]);
      expect(starts, JSON.stringify(sep)).toEqual(['BEGIN', 'FN', 'URL', 'END']);
      expect(
        lines.filter((line) => /^URL/i.test(line)),
        JSON.stringify(sep),
      ).toEqual(['URL:https://ada.example.com/']);
    }
  });

  it('.vcf: blank optional fields are left out', () => {
    const vcf = renderVcard({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '', city: ' ' });
    const card = new ICAL.Component(ICAL.parse(vcf));
    expect(card.getAllProperties('tel')).toHaveLength(0);
    expect(card.getAllProperties('adr')).toHaveLength(0);
    expect(card.getAllProperties('org')).toHaveLength(0);
  });
});

describe('wifi and location', () => {
  it('wifi: network, security, password behind a disclosure, hidden flag', () => {
    const body = render('wifi', { ssid: XSS, encryption: 'WPA', password: 'p<a>ss"w', hidden: true });
    expect(body).toContain(XSS_TEXT);
    expect(body).not.toContain(XSS);
    expect(body).toContain('<details><summary>Show password</summary><code class="secret">p&lt;a&gt;ss&quot;w</code></details>');
    expect(visibleText(body)).toContain('WPA/WPA2/WPA3');
    expect(visibleText(body)).toContain('does not appear in the list');
  });

  it('wifi: an open network has no password', () => {
    const body = render('wifi', { ssid: 'Guest', encryption: 'nopass', password: 'ignored' });
    expect(body).not.toContain('ignored');
    expect(body).not.toContain('Hidden');
    expect(visibleText(body)).toContain('None (open network)');
  });

  it('location: coordinates and links out to maps', () => {
    const body = render('location', { latitude: -33.856784, longitude: 151.215297 });
    expect(visibleText(body)).toContain('33.856784° S, 151.215297° E');
    expect(hrefs(body)).toEqual(
      expect.arrayContaining([
        'geo:-33.856784,151.215297?q=-33.856784,151.215297',
        'https://www.openstreetmap.org/?mlat=-33.856784&mlon=151.215297#map=17/-33.856784/151.215297',
      ]),
    );
  });
});

describe('event', () => {
  const jazz = exampleData('event', { images: IMAGE_IDS, pdfs: [] });

  it('page: title, time in its zone, place, organizer, image, calendar and registration links', () => {
    const body = render('event', { ...jazz, organizerName: XSS });
    const text = visibleText(body);
    expect(body).toContain('<h1>Jazz at the Aroma</h1>');
    expect(text).toContain('Thursday, December 24, 2026 7:00 – 11:00 PM, Paris time');
    expect(text).not.toContain('GMT');
    expect(text).toContain('Main hall');
    expect(body).toContain(XSS_TEXT);
    expect(body).toContain(`src="/files/${IMAGE_IDS[0]}"`);
    expect(hrefs(body)).toEqual(expect.arrayContaining(['/abc1234.ics', 'https://example.com/register']));
  });

  it('page: an offset start, no end, no title', () => {
    const body = render('event', {
      description: 'd',
      location: 'Pier 4',
      startDateTime: '2026-07-04T19:30:00-04:00',
      timezone: 'America/New_York',
    });
    expect(body).toContain('<h1>Event at Pier 4</h1>');
    expect(visibleText(body)).toContain('Saturday, July 4, 2026 7:30 PM, New York time');
    expect(body).not.toContain('Register');
  });

  function parseIcs(ics: string) {
    const calendar = new ICAL.Component(ICAL.parse(ics));
    const vevent = calendar.getFirstSubcomponent('vevent')!;
    return { vevent, event: new ICAL.Event(vevent) };
  }

  it('.ics: a wall-clock time in its zone becomes the right instant', () => {
    const ics = renderIcs(
      { ...jazz, startDateTime: '2026-07-04T19:30', endDateTime: '2026-07-04T22:00', timezone: 'America/New_York' } as never,
      { uid: 'link-1@qrlinks', url: 'http://localhost:3001/abc1234' },
    );
    const { vevent, event } = parseIcs(ics);
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-07-04T23:30:00.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('2026-07-05T02:00:00.000Z');
    expect(event.summary).toBe('Jazz at the Aroma');
    expect(event.location).toBe('Main hall');
    expect(event.uid).toBe('link-1@qrlinks');
    expect(vevent.getFirstPropertyValue('url')).toBe('http://localhost:3001/abc1234');
    expect(event.description).toBe('Live jazz night\n\nOrganizer: Cafe Aroma\n\nRegistration: https://example.com/register');
  });

  it('.ics: an offset time is that instant, whatever the zone; no end means one hour', () => {
    const ics = renderIcs(
      { description: 'd', location: 'Pier 4', startDateTime: '2026-03-08T02:30:00+05:30', timezone: 'America/New_York' },
      { uid: 'u', url: 'http://localhost:3001/x' },
    );
    const { event } = parseIcs(ics);
    expect(event.startDate.toJSDate().toISOString()).toBe('2026-03-07T21:00:00.000Z');
    expect(event.endDate.toJSDate().getTime() - event.startDate.toJSDate().getTime()).toBe(DEFAULT_EVENT_DURATION_MINUTES * 60_000);
    expect(event.summary).toBe('Event at Pier 4');
  });

  it('.ics: an event before 1970 is served as its instant', () => {
    const ics = renderIcs(
      { description: 'd', location: 'Sea of Tranquility', startDateTime: '1969-07-20T20:17:40Z', timezone: 'UTC' },
      { uid: 'u', url: 'http://localhost:3001/x' },
    );
    const { event } = parseIcs(ics);
    expect(event.startDate.toJSDate().toISOString()).toBe('1969-07-20T20:17:40.000Z');
    expect(event.endDate.toJSDate().toISOString()).toBe('1969-07-20T21:17:40.000Z');
    expect(ics).toContain('DTSTART:19690720T201740Z');
  });

  it('.ics: a time skipped by spring-forward moves forward, as the data rules say', () => {
    const ics = renderIcs(
      { description: 'd', location: 'x', startDateTime: '2026-03-08T02:30', timezone: 'America/New_York' },
      { uid: 'u', url: 'http://localhost:3001/x' },
    );
    expect(parseIcs(ics).event.startDate.toJSDate().toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });

  it('.ics: text with line breaks, semicolons and commas cannot add properties', () => {
    const ics = renderIcs(
      {
        description: 'a\r\nATTENDEE:mailto:x@example.com\rb; c, d',
        location: 'Hall; A, 1',
        startDateTime: '2026-01-01T10:00Z',
        timezone: 'UTC',
        eventTitle: 'T\nSTATUS:CANCELLED',
      },
      { uid: 'u', url: 'http://localhost:3001/x' },
    );
    const { vevent, event } = parseIcs(ics);
    expect(vevent.getAllProperties('attendee')).toHaveLength(0);
    expect(vevent.getAllProperties('status')).toHaveLength(0);
    expect(event.description).toBe('a\nATTENDEE:mailto:x@example.com\nb; c, d');
    expect(event.location).toBe('Hall; A, 1');
    expect(event.summary).toBe('T\nSTATUS:CANCELLED');
  });

  it('.ics: NEL, line separators and other control characters in text never start a line', () => {
    for (const sep of ['\u0085', '\u2028', '\u2029', '\v', '\f', '\u0000']) {
      const ics = renderIcs(
        {
          description: `a${sep}ATTENDEE:mailto:x@example.com`,
          location: `Hall${sep}STATUS:CANCELLED`,
          startDateTime: '2026-01-01T10:00Z',
          timezone: 'UTC',
          eventTitle: `T${sep}END:VEVENT`,
        },
        { uid: 'u', url: 'http://localhost:3001/x' },
      );
      const lines = ics.split(/\r\n|\r|\n|\u0085|\u2028|\u2029|\v|\f/);
      expect(
        lines.filter((line) => /^(ATTENDEE|STATUS|END:VEVENT)/.test(line)),
        JSON.stringify(sep),
      ).toEqual(['END:VEVENT']);
    }
  });
});

describe('files', () => {
  it('image: every image from our file URLs, headed and described by the page style title (escaped), never the link or file name', () => {
    const named = (title: string) =>
      renderLinkPage(
        { ...link('image', { files: [{ fileId: IMAGE_IDS[0] }, { fileId: IMAGE_IDS[1] }] }), name: 'flyer 12', pageStyle: { title } },
        URLS,
      ).body;
    const body = named(`Terrace ${XSS}`);
    expect(body).toContain(`<img src="/files/${IMAGE_IDS[0]}" alt="Terrace ${XSS_TEXT}, image 1 of 2">`);
    expect(body).toContain(
      `<img src="/files/${IMAGE_IDS[1]}" alt="Terrace ${XSS_TEXT}, image 2 of 2" loading="lazy">`.replace(' loading="lazy"', ''),
    );
    expect(body).toContain(`<h1>Terrace ${XSS_TEXT}</h1>`);
    expect(body).not.toContain('terrace ');
    // Without a name: what the page is.
    expect(named(' ')).toContain('<h1>Images</h1>');
    expect(named(' ')).toContain('alt="Image 2 of 2"');
  });

  it('gallery: a grid of images, each opening a viewer on the page (no leaving the page); a file the link no longer has is left out', () => {
    const body = render('gallery', { files: [{ fileId: IMAGE_IDS[1] }, { fileId: '6f1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4eff' }] });
    expect(body).toContain('<ul class="gallery">');
    // The thumbnail and the viewer's image, of the one file the link has.
    expect(body.match(/<img /g)).toHaveLength(2);
    expect(body).toContain('<a href="#view-1">');
    expect(body).toMatch(
      /<div class="viewer" id="view-1" role="dialog"[^>]*>\s*<p class="viewer-count"[^>]*>1 \/ 1<\/p>\s*<img src="\/files\/[^"]+" alt="[^"]+" loading="lazy"[^>]*>/,
    );
    expect(hrefs(body).filter((h) => h.startsWith('/files/'))).toEqual([]);
    const three = render('gallery', { files: IMAGE_IDS.slice(0, 2).map((fileId) => ({ fileId })) });
    expect(hrefs(three)).toEqual(expect.arrayContaining(['#view-1', '#view-2', '#image-1', '#image-2']));
    expect(render('image', { files: [{ fileId: '6f1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4eff' }] })).toContain('nothing to show');
  });

  it('photos with web-sized copies: WebP by width in a <picture>, the JPEG copy as the <img>, the size from the copies; under the link when it is protected', () => {
    const variants = [
      { width: 480, height: 360, format: 'webp' as const, size: 30_000 },
      { width: 960, height: 720, format: 'webp' as const, size: 60_000 },
      { width: 1600, height: 1200, format: 'webp' as const, size: 100_000 },
      { width: 960, height: 720, format: 'jpeg' as const, size: 90_000 },
    ];
    const photo = {
      ...link('image', { files: [{ fileId: IMAGE_IDS[1] }] }),
      pageStyle: { title: 'Terrace' },
      files: [{ ...FILES[1]!, variants }],
    };
    const base = `/files/${IMAGE_IDS[1]}`;
    const body = renderLinkPage(photo, URLS).body;
    expect(body).toContain(
      `<picture><source type="image/webp" srcset="${base}/480.webp 480w, ${base}/960.webp 960w, ${base}/1600.webp 1600w" sizes="(min-width: 36rem) 33.5rem, calc(100vw - 2.5rem)">` +
        `<img src="${base}/960.jpg" alt="Terrace" width="1600" height="1200"></picture>`,
    );
    // The original is never what the page loads.
    expect(body).not.toMatch(new RegExp(`"${base}"`));
    const locked = renderLinkPage(
      { ...photo, passwordHash: '$2b$10$x' },
      { ...URLS, file: fileUrlOf({ slug: 'abc1234', passwordHash: '$2b$10$x' }) },
    ).body;
    expect(locked).toContain(`srcset="/abc1234/files/${IMAGE_IDS[1]}/480.webp 480w,`);
    expect(locked).not.toContain(`"/files/`);
  });

  it('pdf: each PDF with its name, size and an open link', () => {
    const text = visibleText(render('pdf', { files: [{ fileId: PDF_IDS[0] }, { fileId: PDF_IDS[1] }] }));
    expect(text).toContain('lunch-menu.pdf PDF · 123.5 kB Open PDF');
    expect(text).toContain('Document 2 PDF · 2.4 MB Open PDF');
    expect(hrefs(render('pdf'))).toContain(`/files/${PDF_IDS[0]}`);
  });

  it('multi-pdf: the page title and each labelled PDF', () => {
    const body = render('multi-pdf', {
      pageTitle: `Menus ${XSS}`,
      pdfs: [
        { label: 'Lunch', fileId: PDF_IDS[0] },
        { label: 'Dinner', fileId: PDF_IDS[1] },
      ],
    });
    expect(body).toContain(`<h1>Menus ${XSS_TEXT}</h1>`);
    expect(visibleText(body)).toContain('Lunch lunch-menu.pdf · PDF · 123.5 kB Open PDF Dinner PDF · 2.4 MB Open PDF');
  });
});

describe('landing', () => {
  const hostile = [
    '<title>Our <b>page</b></title><h1>Hello &amp; welcome</h1>',
    '<script>alert(1)</script><p onclick="alert(2)" style="color:red;background:url(https://evil.example/x.png)">Text</p>',
    '<img src=x onerror="alert(3)"><img src="https://evil.example/track.gif" alt="remote">',
    '<a href="javascript:alert(4)">js</a><a href=" jav&#x09;ascript:alert(5)">js2</a><a href="data:text/html,<script>alert(6)</script>">data</a>',
    '<a href="//evil.example/x">proto-relative</a><a href="https://example.com/ok" target="_blank">ok</a>',
    '<iframe src="https://evil.example"></iframe><object data="x.swf"></object><embed src="x.swf">',
    '<style>body{background:url(https://evil.example/s.png)}</style><link rel=stylesheet href="https://evil.example/s.css">',
    '<form action="https://evil.example"><input name=q><button>Go</button></form>',
    '<svg onload="alert(7)"><circle r=4 /></svg><math><mi xlink:href="javascript:alert(8)">m</mi></math>',
    '<meta http-equiv="refresh" content="0;url=https://evil.example"><base href="https://evil.example/">',
    '<p style="font-size:20px;text-align:center;width:expression(alert(9))">Styled</p>',
    '&lt;script&gt;alert(10)&lt;/script&gt;',
    `<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline"><img src="/files/${IMAGE_IDS[0]}" alt="ours">`,
    '<img src="data:image/svg+xml;base64,PHN2Zy8+" alt="svg"><img src="/files/../admin" alt="traversal">',
  ].join('\n');

  it('removes scripts, handlers, dangerous URLs, frames, plugins, styles, forms and remote loads', () => {
    const page = renderLinkPage(link('landing', { landingHTML: hostile }), URLS);
    expectSecurePage(page);
    const main = /<main>([\s\S]*)<\/main>/.exec(page.body)![1]!;
    expect(main).not.toMatch(/<script|<style|<iframe|<object|<embed|<form|<input|<button|<svg|<math|<meta|<base|<link|<title/i);
    expect(main).not.toMatch(/\son\w+=|javascript:|evil\.example|expression|url\(|target=|data:text/i);
    expect(main).not.toContain('alt="remote"');
    expect(main).not.toContain('alt="svg"');
    expect(main).not.toContain('alt="traversal"');
    expect(main).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="inline" />');
    expect(main).toContain(`<img src="/files/${IMAGE_IDS[0]}" alt="ours" />`);
    expect(main).toContain('<a href="https://example.com/ok">ok</a>');
    expect(main).toContain('<p style="font-size:20px;text-align:center">Styled</p>');
    expect(main).toContain('&lt;script&gt;alert(10)&lt;/script&gt;');
    expect(main).not.toContain('Our page');
    expect(page.body).toContain('<title>Hello &amp; welcome</title>');
  });

  it('keeps ordinary content', () => {
    const body = render('landing');
    expect(body).toContain('<h1>Welcome</h1><p>Our <strong>menu</strong> changes daily.</p>');
  });
});

describe('product', () => {
  it('name, description, images and a price breakdown in its currency', () => {
    const body = render('product', {
      ...exampleData('product', { images: IMAGE_IDS, pdfs: [] }),
      productName: XSS,
      images: { files: [{ fileId: IMAGE_IDS[0] }, { fileId: IMAGE_IDS[1] }] },
    });
    expect(body).toContain(`<h1>${XSS_TEXT}</h1>`);
    // Each image twice: on the page, and in its viewer (loaded when opened).
    expect(body.match(/<img src="\/files\//g)).toHaveLength(4);
    expect(visibleText(body)).toContain('Price in EUR Subtotal €12.50 Discount (10%) −€1.25 Tax €2.50 Total €15.00');
  });

  it('an amount discount, a currency without minor units', () => {
    const text = visibleText(
      render('product', {
        productName: 'Tea',
        productDescription: 'Green',
        currency: 'jpy',
        subTotal: 1200,
        tax: 96,
        totalNet: 1196,
        discount: { type: 'amount', value: 100 },
      }),
    );
    expect(text).toContain('Price in JPY Subtotal ¥1,200 Discount −¥100 Tax ¥96 Total ¥1,196');
  });

  it('a bulk-made product with only a name, or some amounts: the missing parts are left out', () => {
    const bare = render('product', { productName: 'Tea', currency: 'USD' });
    expect(visibleText(bare).trim()).toBe('Tea');
    expect(bare).not.toContain('NaN');
    const some = visibleText(render('product', { productName: 'Tea', currency: 'EUR', totalNet: 4 }));
    expect(some).toContain('Tea Price in EUR Total €4.00');
    expect(some).not.toContain('Subtotal');
  });
});

describe('multi-links', () => {
  const cafe = exampleData('multi-links', { images: [], pdfs: [] });
  const PIXEL = 'data:image/png;base64,iVBORw0KGgo=';

  it('the design as inline styles, round buttons, links with titles and icons', () => {
    const body = render('multi-links', { ...cafe, title: XSS, logo: PIXEL });
    // White text would not read on the white page: the page text turns black, the buttons keep it.
    expect(body).toContain('<body style="background-color:#ffffff;color:#000">');
    expect(body).toContain('<div class="round">');
    // The logo is decoration: the heading beside it names the page.
    expect(body).toContain(`<img class="logo" src="${PIXEL}" alt="">`);
    // A custom link: a full-width button with a link icon; a social one: a round icon named for screen readers.
    expect(body).toMatch(
      /<a class="bio-link" href="https:\/\/example.com\/order" style="background-color:#222222;color:white"><span class="icon" aria-hidden="true"><svg class="icon"[^>]*>[^]*?<\/svg><\/span><span>Order online<\/span><\/a>/,
    );
    expect(body).toMatch(
      /<ul class="socials"><li><a class="social" href="https:\/\/instagram.com\/cafearoma" style="[^"]*" aria-label="Instagram" title="Instagram"><span class="icon" aria-hidden="true"><svg/,
    );
    expect(body).not.toMatch(/aria-hidden="true">[A-Z]</);
  });

  it('knows the common platforms by icon name or host, spelled their own way', () => {
    const body = render('multi-links', {
      ...cafe,
      links: [
        { type: 'social', value: 'https://www.tiktok.com/@cafe', icon: 'tiktok' },
        { type: 'social', value: 'https://youtu.be/x', icon: 'video' },
        { type: 'social', value: 'https://twitter.com/cafe', icon: 'twitter' },
        { type: 'social', value: 'https://wa.me/15550100', icon: 'chat' },
      ],
    });
    for (const name of ['TikTok', 'YouTube', 'X', 'WhatsApp']) expect(body).toContain(`aria-label="${name}"`);
    expect(body).not.toContain('Tiktok');
  });

  it('keeps the design text colour where it reads, else black or white (WCAG AA)', () => {
    const body = render('multi-links', {
      ...cafe,
      design: { backgroundColor: '#1e1e2e', linkBackgroundColor: '#ffd166', textColor: '#f5f5f5' },
    });
    expect(body).toContain('<body style="background-color:#1e1e2e;color:#f5f5f5">');
    expect(body).toContain('style="background-color:#ffd166;color:#000"');
  });

  it('shows a logo only when it is an inline raster image; drops bad colours and URLs', () => {
    for (const logo of ['https://example.com/logo.png', { url: PIXEL }, 'data:image/svg+xml;base64,PHN2Zz4=', 42]) {
      expect(render('multi-links', { ...cafe, logo })).not.toContain('class="logo"');
    }
    const body = render('multi-links', {
      ...cafe,
      isRound: false,
      design: {
        backgroundColor: 'red;background:url(https://evil.example/x)',
        linkBackgroundColor: '"><script>',
        textColor: 'rgb(10 20 30)',
      },
      links: [
        { type: 'custom', value: 'javascript:alert(1)', title: 'bad' },
        { type: 'social', value: 'https://social.example/me', icon: 'https://social.example/icon.png' },
        { type: 'social', value: 'https://x.example/me', icon: PIXEL, title: '' },
      ],
    });
    expect(body).toContain('<body style="background-color:#fff;color:rgb(10 20 30)">');
    expect(body).toContain('style="color:rgb(10 20 30)" aria-label="social.example" title="social.example"><span class="icon"');
    expect(body).not.toMatch(/evil|<script|javascript:|class="round"|icon\.png/);
    expect(body).toContain(
      `aria-label="x.example" title="x.example"><span class="icon" aria-hidden="true"><img src="${PIXEL}" alt=""></span></a>`,
    );
  });
});

describe('menu', () => {
  it('a placeholder until the cafe feature comes', () => {
    expect(visibleText(render('menu'))).toContain('Dinner menu This menu is being prepared.');
    expect(render('menu', {})).toContain('<h1>Menu</h1>');
  });
});

describe('status pages', () => {
  const reasons: Array<[UnavailableReason, number]> = [
    ['not_found', 404],
    ['paused', 410],
    ['scheduled', 410],
    ['expired', 410],
    ['limit_reached', 410],
    ['broken_destination', 502],
  ];

  it.each(reasons)('%s → %i, with its own message', (reason, status) => {
    const page = renderUnavailablePage(reason);
    expect(page.status).toBe(status);
    expectSecurePage(page);
  });

  it('each reason reads differently', () => {
    const texts = reasons.map(([reason]) => visibleText(renderUnavailablePage(reason).body));
    expect(new Set(texts).size).toBe(reasons.length);
    expect(texts[0]).toContain('not found');
    expect(texts[1]).toContain('paused');
    expect(texts[2]).toContain('not active yet');
    expect(texts[3]).toContain('expired');
    expect(texts[4]).toContain('limit');
    expect(texts[5]).toContain('destination is not a valid web address');
  });

  it('a scheduled link says when it opens, and an expired one when it ended, in the schedule’s zone', () => {
    const schedule = {
      startDate: Date.parse('2026-12-24T18:00:00Z'),
      endDate: Date.parse('2026-12-31T23:00:00Z'),
      scheduleTimezone: 'Europe/Paris',
    };
    expect(visibleText(renderUnavailablePage('scheduled', schedule).body)).toContain(
      'Opens on Thursday, December 24, 2026 at 7:00 PM (Paris time)',
    );
    // An end date of 31 December is stored as the next midnight: the page names the last day, not that midnight.
    expect(visibleText(renderUnavailablePage('expired', schedule).body)).toContain('Ended on Thursday, December 31, 2026 (Paris time)');
    expect(visibleText(renderUnavailablePage('expired', { ...schedule, endDate: Date.parse('2026-12-31T13:30:00Z') }).body)).toContain(
      'Ended on Thursday, December 31, 2026 at 2:30 PM (Paris time)',
    );
    expect(visibleText(renderUnavailablePage('scheduled', { ...schedule, scheduleTimezone: null }).body)).toContain(
      'Opens on Thursday, December 24, 2026 at 6:00 PM (UTC)',
    );
    // Each status page is a card with its icon (drawn inline, hidden from screen readers).
    expect(renderUnavailablePage('paused').body).toMatch(/<section class="status-card"><svg class="icon" aria-hidden="true"/);
  });

  it.each([400, 403, 405, 408, 413, 414, 415, 431])('client error %i: its own title, no Retry-After', (status) => {
    const page = renderClientErrorPage(status, status === 405 ? 'GET, HEAD' : undefined);
    expect(page.status).toBe(status);
    expectSecurePage(page);
    expect(page.headers!['Retry-After']).toBeUndefined();
    expect(page.headers!.Allow).toBe(status === 405 ? 'GET, HEAD' : undefined);
    const titles = [400, 403, 405, 408, 413, 414, 415, 431].map((s) => visibleText(renderClientErrorPage(s).body).split('\n')[0]);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('too many unknown links: 429 with Retry-After and the wait in words', () => {
    const page = renderTooManyNotFoundPage(42.2);
    expect(page.status).toBe(429);
    expectSecurePage(page);
    expect(page.headers!['Retry-After']).toBe('43');
    expect(visibleText(page.body)).toContain('Please wait 43 seconds');
  });

  it('password: a form posting `password` to the action; 401 when wrong; 429 with Retry-After', () => {
    const form = renderPasswordPage({ action: '/abc1234?x="&y' });
    expect(form.status).toBe(200);
    expectSecurePage(form);
    expect(form.body).toContain('<form method="post" action="/abc1234?x=&quot;&amp;y">');
    expect(form.body).toMatch(/<input id="password" name="password" type="password"[^>]* required/);
    expect(form.body).not.toContain('role="alert"');
    expect(form.headers!['Content-Security-Policy']).toContain("form-action 'self' http: https:");

    const wrong = renderPasswordPage({ action: '/abc1234', error: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(visibleText(wrong.body)).toContain('That password is not right.');
    expect(wrong.headers!['Retry-After']).toBeUndefined();

    const tooMany = renderPasswordPage({ action: '/abc1234', error: 'too_many', retryAfterSeconds: 90 });
    expect(tooMany.status).toBe(429);
    expect(tooMany.headers!['Retry-After']).toBe('90');
    expect(visibleText(tooMany.body)).toContain('Please wait 2 minutes');
    expect(renderPasswordPage({ action: '/a', error: 'too_many' }).headers!['Retry-After']).toBe('60');
  });

  it('service unavailable: 503 with Retry-After', () => {
    const page = renderServiceUnavailablePage();
    expect(page.status).toBe(503);
    expect(Number(page.headers!['Retry-After'])).toBeGreaterThan(0);
    expectSecurePage(page);
    expect(visibleText(page.body)).toContain('try again in a moment');
  });
});

describe('actions that work on the scanner’s device', () => {
  const on = (platform: Scanner['platform'], now = Date.parse('2026-01-01T00:00:00Z')): Scanner => ({ platform, now });
  const page = (type: LinkType, scanner: Scanner, data?: Record<string, unknown>) => renderLinkPage(link(type, data), URLS, scanner).body;
  const mainButton = (body: string) =>
    body
      .match(/<a class="button" href="([^"]*)">([^<]*)<\/a>/)!
      .slice(1)
      .map((v) => v.replace(/&amp;/g, '&'));

  it('location: the main button opens the platform’s own maps app', () => {
    const point = { latitude: 48.8584, longitude: 2.2945 };
    expect(mainButton(page('location', on('ios'), point))).toEqual([
      'https://maps.apple.com/?ll=48.8584,2.2945&q=48.8584%2C2.2945',
      'Open in Apple Maps',
    ]);
    expect(mainButton(page('location', on('android'), point))).toEqual(['geo:48.8584,2.2945?q=48.8584,2.2945', 'Open in maps app']);
    expect(mainButton(page('location', on('other'), point))).toEqual([
      'https://www.google.com/maps/search/?api=1&query=48.8584%2C2.2945',
      'Open in Google Maps',
    ]);
    // The other maps stay offered, the main one not twice.
    const links = hrefs(page('location', on('ios'), point));
    expect(links.filter((h) => h.startsWith('https://maps.apple.com'))).toHaveLength(1);
    expect(links.some((h) => h.startsWith('https://www.openstreetmap.org'))).toBe(true);
  });

  it('event: Google Calendar and Outlook links with the event’s instants, and "has ended" after its end', () => {
    const jazz = exampleData('event', { images: IMAGE_IDS, pdfs: [] });
    const before = page('event', on('other', Date.parse('2026-12-01T00:00:00Z')), jazz);
    const google = new URL(hrefs(before).find((h) => h.startsWith('https://calendar.google.com'))!);
    expect(google.searchParams.get('action')).toBe('TEMPLATE');
    expect(google.searchParams.get('text')).toBe('Jazz at the Aroma');
    expect(google.searchParams.get('dates')).toBe('20261224T180000Z/20261224T220000Z');
    expect(google.searchParams.get('location')).toBe('Main hall');
    const outlook = new URL(hrefs(before).find((h) => h.startsWith('https://outlook.live.com'))!);
    expect(outlook.pathname).toBe('/calendar/0/action/compose');
    expect(outlook.searchParams.get('startdt')).toBe('2026-12-24T18:00:00.000Z');
    expect(outlook.searchParams.get('enddt')).toBe('2026-12-24T22:00:00.000Z');
    expect(outlook.searchParams.get('subject')).toBe('Jazz at the Aroma');
    // The photo is on top; registering is the main action, the calendars follow.
    expect(before.indexOf('<img')).toBeLessThan(before.indexOf('<h1>'));
    expect(mainButton(before)).toEqual(['https://example.com/register', 'Register']);
    const after = page('event', on('other', Date.parse('2026-12-24T22:00:00Z')), jazz);
    expect(visibleText(after)).toContain('This event has ended.');
    expect(after).not.toContain('Add to calendar');
    expect(after).not.toContain('calendar.google.com');
  });

  it('vcard: a Call / Text / Email / Directions row', () => {
    const ada = exampleData('vcard', { images: [], pdfs: [] }) as Record<string, string>;
    const body = page('vcard', on('ios'), { ...ada, contact: '+44 7700 900123' });
    const row = body.match(/<ul class="actions">([\s\S]*?)<\/ul>/)![1]!;
    expect(visibleText(`<main>${row}</main>`).trim().split(/\s+/)).toEqual(['Call', 'Text', 'Email', 'Directions']);
    expect(hrefs(row)).toEqual([
      'tel:+447700900123',
      'sms:+447700900123',
      'mailto:ada@example.com',
      expect.stringMatching(/^https:\/\/maps\.apple\.com\/\?q=12%20St%20James%20Square/),
    ]);
    // Without a number that reads as one there is nothing to call or text.
    const noPhone = page('vcard', on('android'), { ...ada, contact: 'Engine Room', phone: '' });
    const noPhoneRow = noPhone.match(/<ul class="actions">([\s\S]*?)<\/ul>/)![1]!;
    expect(hrefs(noPhoneRow)).toEqual(['mailto:ada@example.com', expect.stringMatching(/^geo:0,0\?q=/)]);
  });

  it('downloads are named after the person or the event, safely', () => {
    expect(vcardFileName({ firstName: 'Ada', lastName: 'Lovelace', email: 'a@b.c' })).toBe('Ada Lovelace.vcf');
    expect(vcardFileName({ firstName: '../..', lastName: '/etc/passwd', email: 'a@b.c' })).toBe('etc passwd.vcf');
    expect(vcardFileName({ firstName: ' ', lastName: '\u0000', email: 'a@b.c' })).toBe('contact.vcf');
    expect(
      eventFileName({
        eventTitle: 'Jazz: "live" at 8?',
        location: 'x',
        description: 'd',
        startDateTime: '2026-01-01T10:00',
        timezone: 'UTC',
      }),
    ).toBe('Jazz live at 8.ics');
    expect(attachmentDisposition('Zoë Ünal.vcf')).toBe(`attachment; filename="Zoe Unal.vcf"; filename*=UTF-8''Zo%C3%AB%20%C3%9Cnal.vcf`);
    // A long name is cut between characters, never inside a surrogate pair; lone surrogates go.
    expect(vcardFileName({ firstName: 'x'.repeat(78), lastName: '😀😀', email: 'a@b.c' })).toBe(`${'x'.repeat(78)} 😀.vcf`);
    expect(vcardFileName({ firstName: 'Ada\uD800', lastName: 'L', email: 'a@b.c' })).toBe('Ada L.vcf');
    expect(attachmentDisposition('a\uDC00b.vcf')).toContain(`filename*=UTF-8''a%EF%BF%BDb.vcf`);
  });

  it('wifi: a copy button the script reveals (hidden without it), allowed by hash', () => {
    const body = render('wifi', { ssid: 'Cafe', encryption: 'WPA', password: 'secret' });
    expect(body).toContain(
      '<button type="button" id="copy" class="button copy" data-copied="Password copied" data-selected="Password selected: use Copy" hidden>Copy password</button>',
    );
    expect(render('wifi', { ssid: 'Cafe', encryption: 'nopass' })).not.toContain('<script>');
  });
});
