/**
 * The link editor's settings (custom slug, schedule, scan limit, password) <-> linkConfigurations.
 * The client's body is checked against the API's own schema and date reading, so what the form
 * shows is what the server stores, and its errors land at the paths the server would use.
 */
import { describe, expect, it } from 'vitest';
import {
  linkConfigurationsOf,
  passwordPlan,
  scheduleSummary,
  settingsFromLink,
  shortUrlOf,
  type LinkSettingsForm,
} from '#console/src/links/settings.js';
import type { Link } from '#console/src/links/view.js';
import { parseDateTimeInZone } from '#domain/links/data/timezone.js';
import { linkConfigurationsSchema, scheduleEnd } from '#domain/links/schemas.js';

const link = (overrides: Partial<Link> = {}): Link => ({
  id: 'l1',
  dynamic_link_id: 'abc1234',
  full_dynamic_url: 'https://qr.example/abc1234',
  domain: 'qr.example',
  name: 'Menu',
  type: 'website',
  meta_data: { url: 'https://example.com/' },
  qr_options: {},
  page_style: null,
  folder_id: null,
  menu: null,
  favorite: false,
  paused: false,
  status: 'active',
  url_active: false,
  custom_url: null,
  schedule_active: false,
  start_date: null,
  end_date: null,
  schedule_timezone: null,
  scan_limit_active: false,
  scan_limit: null,
  password_protected_active: false,
  password: null,
  scan_count: 12,
  human_scan_count: 11,
  limit_scan_count: 9,
  last_scanned_at: null,
  files: [],
  created_at: 'Nov 26, 2026',
  updated_at: 'Nov 26, 2026',
  created_by: null,
  updated_by: null,
  utm: null,
  query_policy: 'drop',
  ...overrides,
});

const fresh = (change: Partial<LinkSettingsForm> = {}): LinkSettingsForm => ({ ...settingsFromLink(null, 'Europe/Lisbon'), ...change });

/** The client's errors as {path: message}. */
function clientErrors(form: LinkSettingsForm): Record<string, string> {
  const result = linkConfigurationsOf(form);
  return 'errors' in result ? { ...result.errors } : {};
}
/** The paths at which the server's schema refuses what the form means (checks aside). */
function serverPaths(f: LinkSettingsForm): string[] {
  const body: Record<string, unknown> = {};
  if (f.slugOn) Object.assign(body, { urlActive: true, customUrl: f.slug.trim() });
  if (f.scheduleOn) Object.assign(body, { scheduleActive: true, startDate: f.start, endDate: f.end, scheduleTimezone: f.timezone });
  if (f.scanLimitOn) Object.assign(body, { scanLimitActive: true, scanLimit: f.scanLimit.trim() === '' ? null : Number(f.scanLimit) });
  if (f.passwordOn) Object.assign(body, { passwordProtectedActive: true, password: f.password });
  const result = linkConfigurationsSchema.safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => `linkConfigurations.${i.path.join('.')}`).sort();
}

describe('settings of a new link', () => {
  it('start with every feature off, schedules in the browser zone, and send no linkConfigurations', () => {
    const form = fresh();
    expect(form).toMatchObject({
      slugOn: false,
      scheduleOn: false,
      scanLimitOn: false,
      passwordOn: false,
      passwordSet: false,
      timezone: 'Europe/Lisbon',
      scans: null,
    });
    expect(linkConfigurationsOf(form)).toEqual({ value: undefined });
  });

  it('send each feature that is on, with only its own fields', () => {
    const form = fresh({
      slugOn: true,
      slug: ' spring-menu ',
      scheduleOn: true,
      start: '2026-12-01T09:00',
      end: '2026-12-24T18:00',
      timezone: 'Europe/Lisbon',
      scanLimitOn: true,
      scanLimit: '500',
      passwordOn: true,
      password: 'open sesame',
    });
    const value = {
      urlActive: true,
      customUrl: 'spring-menu',
      scheduleActive: true,
      startDate: '2026-12-01T09:00',
      endDate: '2026-12-24T18:00',
      scheduleTimezone: 'Europe/Lisbon',
      scanLimitActive: true,
      scanLimit: 500,
      passwordProtectedActive: true,
      password: 'open sesame',
    };
    expect(linkConfigurationsOf(form)).toEqual({ value });
    expect(linkConfigurationsSchema.safeParse(value).success).toBe(true);
  });

  it('the short URL a slug makes', () => {
    expect(shortUrlOf('https://qr.example/', 'spring')).toBe('https://qr.example/spring');
  });
});

describe('schedule: what the owner sees is what the server stores', () => {
  it('wall-clock times are sent without an offset and the server reads them in the chosen zone', () => {
    const form = fresh({ scheduleOn: true, start: '2026-07-01T09:00', end: '2026-07-01T18:30', timezone: 'Asia/Tokyo' });
    const sent = linkConfigurationsOf(form);
    if (!('value' in sent) || !sent.value) throw new Error('expected a body');
    // What configColumns stores for this body.
    expect(parseDateTimeInZone(sent.value.startDate!, sent.value.scheduleTimezone!)!.toISOString()).toBe('2026-07-01T00:00:00.000Z');
    expect(scheduleEnd(sent.value.endDate!, sent.value.scheduleTimezone!)!.toISOString()).toBe('2026-07-01T09:30:00.000Z');
  });

  it("a link's stored instants come back as wall-clock times in the link's own zone, whatever the browser's", () => {
    const stored = link({
      schedule_active: true,
      start_date: '2026-07-01T00:00:00.000Z',
      end_date: '2026-07-01T09:30:00.000Z',
      schedule_timezone: 'Asia/Tokyo',
    });
    const form = settingsFromLink(stored, 'America/New_York');
    expect(form).toMatchObject({ scheduleOn: true, start: '2026-07-01T09:00', end: '2026-07-01T18:30', timezone: 'Asia/Tokyo' });
    // Saved again unchanged, the same instants.
    const sent = linkConfigurationsOf(form);
    if (!('value' in sent) || !sent.value) throw new Error('expected a body');
    expect(parseDateTimeInZone(sent.value.startDate!, 'Asia/Tokyo')!.toISOString()).toBe(stored.start_date);
    expect(parseDateTimeInZone(sent.value.endDate!, 'Asia/Tokyo')!.toISOString()).toBe(stored.end_date);
  });

  it('a whole-day end the API stored (next midnight) and seconds sent by another client survive the round trip', () => {
    const stored = link({
      schedule_active: true,
      start_date: '2026-12-01T09:00:15.000Z',
      end_date: '2026-12-25T00:00:00.000Z',
      schedule_timezone: 'Europe/Lisbon',
    });
    const form = settingsFromLink(stored);
    expect(form).toMatchObject({ start: '2026-12-01T09:00:15', end: '2026-12-25T00:00' });
    expect(parseDateTimeInZone(form.start, form.timezone)!.toISOString()).toBe(stored.start_date);
  });

  it('says the window in words, in the zone chosen', () => {
    expect(scheduleSummary({ start: '2026-12-01T09:00', end: '2026-12-24T18:00', timezone: 'Europe/Lisbon' })).toBe(
      'Opens 1 Dec 2026 09:00, closes 24 Dec 2026 18:00, Lisbon time.',
    );
    expect(scheduleSummary({ start: '2026-12-01T09:00', end: '2026-12-02T09:00', timezone: 'America/Argentina/Buenos_Aires' })).toBe(
      'Opens 1 Dec 2026 09:00, closes 2 Dec 2026 09:00, Buenos Aires time.',
    );
    expect(scheduleSummary({ start: '2026-12-01T09:00', end: '2026-12-01T09:00', timezone: 'UTC' })).toBe(
      'Opens 1 Dec 2026 09:00, closes 1 Dec 2026 09:00, UTC: it would close before it opens.',
    );
    expect(scheduleSummary({ start: '', end: '2026-12-01T09:00', timezone: 'UTC' })).toBeNull();
  });

  it('a time a DST change skips is read as the server reads it (moved forward) and said so', () => {
    // Lisbon springs forward 01:00 → 02:00 on 29 Mar 2026.
    expect(scheduleSummary({ start: '2026-03-29T01:30', end: '2026-03-30T09:00', timezone: 'Europe/Lisbon' })).toBe(
      'Opens 29 Mar 2026 02:30, closes 30 Mar 2026 09:00, Lisbon time.',
    );
  });
});

describe('editing a link keeps it as the owner sees it', () => {
  it('custom slug, scan limit with the scans so far, folder', () => {
    const form = settingsFromLink(
      link({
        url_active: true,
        custom_url: 'menu',
        full_dynamic_url: 'https://qr.example/menu',
        scan_limit_active: true,
        scan_limit: 100,
        folder_id: 'f-1',
      }),
    );
    expect(form).toMatchObject({
      slugOn: true,
      slug: 'menu',
      currentUrl: 'https://qr.example/menu',
      scanLimitOn: true,
      scanLimit: '100',
      scans: 9,
      folderId: 'f-1',
    });
    expect(linkConfigurationsOf(form)).toEqual({
      value: { folder_id: 'f-1', urlActive: true, customUrl: 'menu', scanLimitActive: true, scanLimit: 100 },
    });
  });

  it('a password that is set is kept by default: protection on, no password member, never the hash', () => {
    const form = settingsFromLink(link({ password_protected_active: true, password: '$2b$10$abcdefghijklmnopqrstuv' }));
    expect(form).toMatchObject({ passwordOn: true, passwordSet: true, changePassword: false, password: '' });
    expect(linkConfigurationsOf(form)).toEqual({ value: { passwordProtectedActive: true } });
    expect(passwordPlan(form)).toBe('Saving keeps the current password.');
  });

  it('…or changed, or removed', () => {
    const form = settingsFromLink(link({ password_protected_active: true, password: '$2b$10$x' }));
    expect(linkConfigurationsOf({ ...form, changePassword: true, password: 'new one' })).toEqual({
      value: { passwordProtectedActive: true, password: 'new one' },
    });
    expect(passwordPlan({ ...form, changePassword: true })).toMatch(/replaces the password/);
    expect(clientErrors({ ...form, changePassword: true })).toEqual({
      'linkConfigurations.password': 'Enter the new password, or choose to keep the current one.',
    });
    expect(linkConfigurationsOf({ ...form, passwordOn: false })).toEqual({ value: undefined });
    expect(passwordPlan({ ...form, passwordOn: false })).toMatch(/removes the password/);
    expect(passwordPlan(fresh({ passwordOn: true }))).toBeNull();
  });
});

describe('client checks mirror the server, at its paths, in words', () => {
  const cases: [string, Partial<LinkSettingsForm>, Record<string, string>][] = [
    [
      'slug empty',
      { slugOn: true, slug: '  ' },
      { 'linkConfigurations.customUrl': 'Choose the custom part of the short URL, or turn the custom URL off.' },
    ],
    ['slug too long', { slugOn: true, slug: 'a'.repeat(65) }, { 'linkConfigurations.customUrl': 'Use at most 64 characters.' }],
    [
      'slug with a space',
      { slugOn: true, slug: 'spring menu' },
      { 'linkConfigurations.customUrl': 'Use only letters, digits, - and _ (no spaces or other signs).' },
    ],
    [
      'slug reserved',
      { slugOn: true, slug: 'API' },
      { 'linkConfigurations.customUrl': 'This address is reserved for the service itself; choose another.' },
    ],
    [
      'schedule empty',
      { scheduleOn: true },
      {
        'linkConfigurations.startDate': 'Choose when the link starts working.',
        'linkConfigurations.endDate': 'Choose when the link stops working.',
      },
    ],
    [
      'schedule backwards',
      { scheduleOn: true, start: '2026-12-02T09:00', end: '2026-12-01T09:00' },
      { 'linkConfigurations.endDate': 'The end must be after the start.' },
    ],
    [
      'schedule equal ends',
      { scheduleOn: true, start: '2026-12-02T09:00', end: '2026-12-02T09:00' },
      { 'linkConfigurations.endDate': 'The end must be after the start.' },
    ],
    [
      'schedule zone unknown',
      { scheduleOn: true, start: '2026-12-01T09:00', end: '2026-12-02T09:00', timezone: 'Mars/Base' },
      { 'linkConfigurations.scheduleTimezone': 'Choose a time zone from the list.' },
    ],
    [
      'scan limit empty',
      { scanLimitOn: true, scanLimit: '' },
      { 'linkConfigurations.scanLimit': 'Enter how many scans the link allows, or turn the limit off.' },
    ],
    [
      'scan limit zero',
      { scanLimitOn: true, scanLimit: '0' },
      { 'linkConfigurations.scanLimit': 'Enter a whole number of scans, 1 or more.' },
    ],
    [
      'scan limit fraction',
      { scanLimitOn: true, scanLimit: '1.5' },
      { 'linkConfigurations.scanLimit': 'Enter a whole number of scans, 1 or more.' },
    ],
    [
      'scan limit too big',
      { scanLimitOn: true, scanLimit: '2147483648' },
      { 'linkConfigurations.scanLimit': 'Enter a whole number of scans, 1 or more.' },
    ],
    ['password empty', { passwordOn: true }, { 'linkConfigurations.password': 'Enter a password, or turn password protection off.' }],
    [
      'password 33 characters',
      { passwordOn: true, password: 'p'.repeat(33) },
      { 'linkConfigurations.password': 'Use at most 32 characters.' },
    ],
  ];
  it.each(cases)('%s', (_name, change, expected) => {
    const form = fresh(change);
    expect(clientErrors(form)).toEqual(expected);
    // The server refuses the same body at the same paths.
    expect(serverPaths(form)).toEqual(Object.keys(expected).sort());
  });

  it('the limits themselves pass, as on the server', () => {
    for (const change of [
      { slugOn: true, slug: `${'a'.repeat(62)}-_` },
      { scanLimitOn: true, scanLimit: '2147483647' },
      { scanLimitOn: true, scanLimit: '1' },
      { passwordOn: true, password: 'p'.repeat(32) },
    ]) {
      const result = linkConfigurationsOf(fresh(change));
      expect(result).toHaveProperty('value');
      expect(linkConfigurationsSchema.safeParse((result as { value: unknown }).value).success).toBe(true);
    }
  });
});
