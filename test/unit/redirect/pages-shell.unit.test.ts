/**
 * What every page's shell adds: link-preview tags and the favicon from the owner's brand, the
 * owner's title instead of the link's own name, a landing that keeps its owner's colours light,
 * and status pages in the owner's or the visitor's language (with Vary when the visitor chose).
 */
import { describe, expect, it } from 'vitest';
import {
  notFoundPage,
  renderClientErrorPage,
  renderLinkPage,
  renderPasswordPage,
  renderUnavailablePage,
  statusBrand,
} from '#redirect/pages/index.js';
import { LIGHT_ONLY_STYLES } from '#redirect/pages/common/layout.js';
import { resolvedLink } from '../../support/link-examples.js';

const LOGO = '6f1c4b8e-1d2a-4c3b-9e8f-0a1b2c3d4e01';
const FILES = [{ id: LOGO, contentType: 'image/png', size: 100, originalName: null, variants: null }];
const URLS = {
  file: (id: string) => `/files/${id}`,
  vcard: '/abc1234/contact.vcf',
  ics: '/abc1234/event.ics',
  page: 'https://qr.example/abc1234',
};

describe('page shell', () => {
  it('previews a shared link with the owner’s words and logo, by absolute address; the logo is the favicon', () => {
    const link = {
      ...resolvedLink('wifi', { ssid: 'Aroma', encryption: 'nopass' }, FILES),
      name: 'Flyer 12',
      pageStyle: { title: 'Café Aroma', description: 'Free Wi-Fi for guests.', logo: { fileId: LOGO } },
    };
    const body = renderLinkPage(link, URLS).body;
    expect(body).toContain(`<link rel="icon" href="/files/${LOGO}">`);
    expect(body).toContain('<meta name="description" content="Free Wi-Fi for guests.">');
    expect(body).toContain('<meta property="og:url" content="https://qr.example/abc1234">');
    expect(body).toContain(`<meta property="og:image" content="https://qr.example/files/${LOGO}">`);
    expect(body).toContain('<meta name="twitter:card" content="summary">');
    expect(body).toContain('<meta property="og:site_name" content="Café Aroma">');
    expect(body).not.toContain('Flyer 12');
    // Without a brand: a description from the page's title, no image, the empty icon.
    const plain = renderLinkPage(resolvedLink('wifi', { ssid: 'Aroma', encryption: 'nopass' }, []), URLS).body;
    expect(plain).toContain('<meta name="description" content="Wi-Fi: Aroma: opened from a QR code or short link.">');
    expect(plain).toContain('<link rel="icon" href="data:,">');
    expect(plain).not.toContain('og:image');
  });

  it('a protected link’s password page names whose it is, and shows neither its files nor its description', () => {
    const brand = statusBrand({
      passwordHash: 'x',
      files: FILES,
      pageStyle: { title: 'Café Aroma', description: 'Tonight: the secret menu', logo: { fileId: LOGO } },
    });
    const body = renderPasswordPage({ action: '/abc1234', brand }).body;
    expect(body).toContain('Café Aroma');
    expect(body).not.toContain('secret menu');
    expect(body).not.toContain(LOGO);
  });

  it('a landing with the owner’s colours stays light in dark mode; one without follows the visitor', () => {
    const coloured = renderLinkPage(resolvedLink('landing', { landingHTML: '<h1 style="color:#222">Hi</h1><p>Text</p>' }, []), URLS).body;
    expect(coloured).toContain(LIGHT_ONLY_STYLES);
    const plain = renderLinkPage(
      resolvedLink('landing', { landingHTML: '<h1>Hi</h1><p style="text-align:center">Text</p>' }, []),
      URLS,
    ).body;
    expect(plain).not.toContain(LIGHT_ONLY_STYLES);
  });

  it('status pages speak the owner’s language, else the visitor’s, and say when the visitor chose', () => {
    const german = notFoundPage('de-CH,de;q=0.9');
    expect(german.body).toContain('<html lang="de-CH">');
    expect(german.body).toContain('Link nicht gefunden');
    expect(german.headers!.Vary).toBe('Accept-Language');
    expect(notFoundPage('ja').body).toContain('Link not found');
    const owned = renderUnavailablePage(
      'paused',
      { startDate: null, endDate: null, scheduleTimezone: null, pageStyle: { language: 'fr' } },
      'de',
    );
    expect(owned.body).toContain('Ce lien est en pause');
    expect(owned.headers!.Vary).toBeUndefined();
    expect(renderClientErrorPage(414, undefined, 'es').body).toContain('Esta dirección es demasiado larga');
    // An unknown status is told as a 400, with its own status kept.
    const odd = renderClientErrorPage(418, undefined, 'pt');
    expect(odd.status).toBe(418);
    expect(odd.body).toContain('Não foi possível ler este pedido');
  });
});
