/** The console's brand-domain helpers: which domains a link may go to, the default, the short URL base, the records' state. */
import { describe, expect, it } from 'vitest';
import { agoText, baseOn, defaultChoice, domainChoices, recordStatus, recordsToShow, type Domain } from '#console/src/domains/domains.js';

const BASE = 'https://qr.example/';

const domain = (hostname: string, state: Domain['state'], extra: Partial<Domain> = {}): Domain => ({
  id: hostname,
  hostname,
  state,
  token: 'qrlinks-0',
  records: [
    { purpose: 'ownership', type: 'TXT', name: `_qrlinks-challenge.${hostname}`, value: 'qrlinks-0', found: ['qrlinks-0'], ok: true },
    { purpose: 'routing', type: 'A', name: hostname, value: '203.0.113.10', found: ['198.51.100.1'], ok: false },
    { purpose: 'routing', type: 'CNAME', name: hostname, value: 'qr.example', found: null, ok: null },
  ],
  errors: {},
  is_default: false,
  root_url: null,
  not_found_url: null,
  expired_url: null,
  verified_at: null,
  checked_at: null,
  created_at: '2026-11-30T00:00:00.000Z',
  updated_at: '2026-11-30T00:00:00.000Z',
  ...extra,
});

describe('domain choices', () => {
  const domains = [domain('menu.aroma.pt', 'verified'), domain('go.aroma.pt', 'pending'), domain('old.aroma.pt', 'disabled')];

  it('lists the service’s host first, then every domain not turned off, a waiting one marked', () => {
    expect(domainChoices(BASE, domains)).toEqual([
      { host: 'qr.example', label: 'qr.example (the service’s)' },
      { host: 'menu.aroma.pt', label: 'menu.aroma.pt' },
      { host: 'go.aroma.pt', label: 'go.aroma.pt (waiting for dns)' },
    ]);
  });

  it('keeps a link’s own domain even when it is off, so an edit shows where the link is', () => {
    expect(domainChoices(BASE, domains, 'old.aroma.pt').map((c) => c.host)).toContain('old.aroma.pt');
  });

  it('starts new links on the account’s default domain, else the service’s', () => {
    expect(defaultChoice(BASE, domains)).toBe('qr.example');
    expect(defaultChoice(BASE, [...domains, domain('x.aroma.pt', 'verified', { is_default: true })])).toBe('x.aroma.pt');
    expect(defaultChoice(BASE, [domain('y.aroma.pt', 'disabled', { is_default: true })])).toBe('qr.example');
  });
});

describe('short URLs and records', () => {
  it('puts a brand domain under the service’s scheme; the service’s own host keeps its base', () => {
    expect(baseOn(BASE, 'menu.aroma.pt')).toBe('https://menu.aroma.pt');
    expect(baseOn('http://localhost:3001', 'localhost')).toBe('http://localhost:3001');
  });

  it('groups the records to set and says what each check found', () => {
    const { ownership, addresses, cname } = recordsToShow(domain('menu.aroma.pt', 'pending'));
    expect([ownership.length, addresses.length, cname.length]).toEqual([1, 1, 1]);
    expect([recordStatus(ownership[0]!), recordStatus(addresses[0]!), recordStatus(cname[0]!)]).toEqual(['ok', 'missing', 'unchecked']);
  });

  it('says how long ago a check was in words', () => {
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(agoText(null, now)).toBe('not checked yet');
    expect(agoText('2026-11-30T11:59:30Z', now)).toBe('checked just now');
    expect(agoText('2026-11-30T11:59:00Z', now)).toBe('checked 1 minute ago');
    expect(agoText('2026-11-30T09:00:00Z', now)).toBe('checked 3 hours ago');
  });
});
