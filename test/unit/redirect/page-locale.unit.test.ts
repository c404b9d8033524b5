import { describe, expect, it } from 'vitest';
import { catalogue, pluralOf, weekdayName } from '#redirect/pages/common/catalogue.js';
import { acceptedLanguages, formatPrice, localeHeaders, pageLocale, zoneCity } from '#redirect/pages/common/locale.js';

describe('page locale', () => {
  it('takes the owner language first, then the best Accept-Language the catalogue has, then English', () => {
    expect(pageLocale('pt-pt', 'de-DE,de;q=0.9')).toEqual({ tag: 'pt-PT', language: 'pt', negotiated: false });
    expect(pageLocale('it', 'de')).toEqual({ tag: 'it', language: 'en', negotiated: false });
    expect(pageLocale(undefined, 'it-IT,it;q=0.9,fr;q=0.8,de;q=0.7')).toEqual({ tag: 'fr', language: 'fr', negotiated: true });
    expect(pageLocale(undefined, 'es;q=0.5, pt-BR')).toEqual({ tag: 'pt-BR', language: 'pt', negotiated: true });
    expect(pageLocale(undefined, 'ja')).toEqual({ tag: 'en', language: 'en', negotiated: true });
    expect(pageLocale(undefined, undefined)).toEqual({ tag: 'en', language: 'en', negotiated: false });
    expect(localeHeaders(pageLocale(undefined, 'fr'))).toEqual({ Vary: 'Accept-Language' });
    expect(localeHeaders(pageLocale('fr', 'de'))).toEqual({});
  });

  it('reads a hostile Accept-Language in bounded work, skipping what is malformed', () => {
    expect(acceptedLanguages('fr;q=0, *, de;q=abc, \u0000es, en-GB;q=0.3')).toEqual(['de', 'en-GB']);
    const huge = 'xx,'.repeat(1_000_000) + 'fr';
    expect(acceptedLanguages(huge)).toHaveLength(16);
    expect(pageLocale(undefined, huge).language).toBe('en');
  });

  it('formats prices through Intl for the page language, and the bare amount for an unknown code', () => {
    expect(formatPrice(pageLocale('en', undefined), 1.2, 'EUR')).toBe('€1.20');
    expect(formatPrice(pageLocale('pt-PT', undefined), 1.2, 'EUR')).toBe('1,20\u00a0€');
    expect(formatPrice(pageLocale('de', undefined), 1234.5, 'eur')).toBe('1.234,50\u00a0€');
    expect(formatPrice(pageLocale('fr', undefined), 3, null)).toBe('3,00');
    expect(formatPrice(pageLocale('en', undefined), 3, 'XX1')).toBe('3.00 XX1');
    expect(zoneCity('America/Argentina/Buenos_Aires')).toBe('Buenos Aires');
    expect(weekdayName(pageLocale('de', undefined), 3)).toBe('Mittwoch');
    expect(pluralOf(pageLocale('fr', undefined), 1)).toBe('one');
  });

  it('falls back to English string by string, and fills parameters', () => {
    const t = catalogue(
      { open: 'Open now', until: 'Until {time}', other: 'Other' },
      { pt: { open: 'Aberto agora', until: 'Até às {time}' }, es: {}, fr: {}, de: {} },
    );
    expect(t(pageLocale('pt', undefined), 'open')).toBe('Aberto agora');
    expect(t(pageLocale('pt', undefined), 'until', { time: '19:00' })).toBe('Até às 19:00');
    expect(t(pageLocale('pt', undefined), 'other')).toBe('Other');
    expect(t(pageLocale('es', undefined), 'until', { time: '19:00' })).toBe('Until 19:00');
  });
});
