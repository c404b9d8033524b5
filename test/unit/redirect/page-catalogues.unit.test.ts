/**
 * Every catalogue of the hosted pages is complete: each key in each catalogue language, with the
 * English text's parameters, so no page shows a half-translated label or a raw `{name}`.
 */
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '#redirect/pages/common/catalogue.js';
import { contactText } from '#redirect/pages/contact/contact-messages.js';
import { emailSmsText } from '#redirect/pages/email-sms/email-sms-messages.js';
import { eventText } from '#redirect/pages/event/event-messages.js';
import { filesText } from '#redirect/pages/files/files-messages.js';
import { layoutText } from '#redirect/pages/common/layout-messages.js';
import { CATALOGUE_LANGUAGES } from '#redirect/pages/common/locale.js';
import { locationText } from '#redirect/pages/location/location-messages.js';
import { menuText } from '#redirect/pages/menu/menu-messages.js';
import { productText } from '#redirect/pages/product/product-messages.js';
import { statusText } from '#redirect/pages/status/status-messages.js';
import { wifiText } from '#redirect/pages/wifi/wifi-messages.js';

type AnyCatalogue = Pick<Catalogue<string>, 'english'> & { translations: Record<string, Partial<Record<string, string>>> };

const CATALOGUES: Record<string, AnyCatalogue> = {
  layout: layoutText,
  status: statusText,
  'email and sms': emailSmsText,
  wifi: wifiText,
  event: eventText,
  location: locationText,
  files: filesText,
  contact: contactText,
  product: productText,
  menu: menuText,
};

const params = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('page catalogues', () => {
  it.each(Object.entries(CATALOGUES))('%s: every key in every language, with the same parameters', (_name, words) => {
    for (const language of CATALOGUE_LANGUAGES.filter((l) => l !== 'en')) {
      const translations = words.translations[language] ?? {};
      expect(Object.keys(translations).sort(), language).toEqual(Object.keys(words.english).sort());
      for (const [key, english] of Object.entries(words.english)) {
        expect(translations[key]?.trim(), `${language}.${key}`).toBeTruthy();
        expect(params(translations[key]!), `${language}.${key}`).toEqual(params(english));
      }
    }
  });
});
