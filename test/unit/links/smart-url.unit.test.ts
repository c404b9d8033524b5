import { UAParser } from 'ua-parser-js';
import { describe, expect, it } from 'vitest';
import { smartUrlDataSchema, type LinkDataByType } from '#domain/links/data/schemas.js';
import { smartUrlDestination, visitorDevices, type SmartUrlVisitor } from '#domain/links/smart-url.js';

const DEFAULT_URL = 'https://example.com/default';
const MATCH_URL = 'https://example.com/match';

/** Rules checked by the real schema, so every shape here is one the API accepts. */
function smartUrl(...rules: Record<string, unknown>[]): LinkDataByType['smart-url'] {
  return smartUrlDataSchema.parse({ defaultUrl: DEFAULT_URL, rules });
}

/** A single rule pointing at MATCH_URL. */
function rule(fields: Record<string, unknown>): LinkDataByType['smart-url'] {
  return smartUrl({ url: MATCH_URL, ...fields });
}

const NOWHERE: SmartUrlVisitor = { countryCode: null, osName: null, deviceType: null };
const AT = new Date('2026-06-15T12:00:00Z');

/** The visitor the redirect builds from a user agent: ua-parser-js v1, 'desktop' when it reports no device type. */
function visitorFromUa(ua: string, countryCode: string | null = null): SmartUrlVisitor {
  const { os, device } = new UAParser(ua).getResult();
  return { countryCode, osName: os.name ?? null, deviceType: device.type ?? 'desktop' };
}

const UA = {
  iphoneSafari:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipadSafari:
    'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  androidPhoneChrome: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  androidTabletChrome: 'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  androidWatch: 'Mozilla/5.0 (Linux; Android 11; SM-R870) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/100.0 Mobile Safari/537.36',
  windowsChrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  windowsPhone:
    'Mozilla/5.0 (Windows Phone 10.0; Android 6.0.1; Microsoft; Lumia 950) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/52.0.2743.116 Mobile Safari/537.36 Edge/15.15063',
  macSafari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15',
  linuxFirefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  ubuntuFirefox: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  fedoraFirefox: 'Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  chromeOs: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  samsungTv:
    'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/4.0 Chrome/76.0.3809.146 TV Safari/537.36',
  xbox: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19041',
};

describe('smartUrlDestination: order and defaults', () => {
  it('answers defaultUrl when there are no rules, absent or empty', () => {
    expect(smartUrlDestination(smartUrlDataSchema.parse({ defaultUrl: DEFAULT_URL }), NOWHERE, AT)).toBe(DEFAULT_URL);
    expect(smartUrlDestination(smartUrl(), NOWHERE, AT)).toBe(DEFAULT_URL);
  });

  it('takes the first rule that holds, in the order stored', () => {
    const visitor = visitorFromUa(UA.iphoneSafari, 'DE');
    const data = smartUrl(
      { conditionType: 'location', operator: 'is', countries: ['FR'], url: 'https://example.com/1' },
      { conditionType: 'device', operator: 'is', devices: ['ios'], url: 'https://example.com/2' },
      { conditionType: 'location', operator: 'is', countries: ['DE'], url: 'https://example.com/3' },
    );
    expect(smartUrlDestination(data, visitor, AT)).toBe('https://example.com/2');
    expect(smartUrlDestination({ ...data, rules: data.rules!.slice().reverse() }, visitor, AT)).toBe('https://example.com/3');
  });

  it('falls back to defaultUrl when no rule holds', () => {
    const data = smartUrl(
      { conditionType: 'location', operator: 'is', countries: ['FR'], url: 'https://example.com/1' },
      { conditionType: 'device', operator: 'is', devices: ['android'], url: 'https://example.com/2' },
    );
    expect(smartUrlDestination(data, visitorFromUa(UA.iphoneSafari, 'DE'), AT)).toBe(DEFAULT_URL);
  });
});

describe('location rules', () => {
  const is = rule({ conditionType: 'location', operator: 'is', countries: ['us', 'CA'] });
  const isNot = rule({ conditionType: 'location', operator: 'is_not', countries: ['us', 'CA'] });
  const at = (countryCode: string | null): SmartUrlVisitor => ({ ...NOWHERE, countryCode });

  it('is: holds for a listed country, compared case-insensitively', () => {
    expect(smartUrlDestination(is, at('US'), AT)).toBe(MATCH_URL);
    expect(smartUrlDestination(is, at('ca'), AT)).toBe(MATCH_URL);
    expect(smartUrlDestination(is, at('MX'), AT)).toBe(DEFAULT_URL);
  });

  it('is_not: holds for a country not listed', () => {
    expect(smartUrlDestination(isNot, at('MX'), AT)).toBe(MATCH_URL);
    expect(smartUrlDestination(isNot, at('US'), AT)).toBe(DEFAULT_URL);
    expect(smartUrlDestination(isNot, at('ca'), AT)).toBe(DEFAULT_URL);
  });

  it('an unknown country matches neither is nor is_not', () => {
    expect(smartUrlDestination(is, at(null), AT)).toBe(DEFAULT_URL);
    expect(smartUrlDestination(isNot, at(null), AT)).toBe(DEFAULT_URL);
  });
});

describe('device rules', () => {
  it.each([
    ['iPhone Safari', UA.iphoneSafari, ['ios', 'mobile']],
    ['iPad Safari', UA.ipadSafari, ['ios', 'mobile']],
    ['Android phone Chrome', UA.androidPhoneChrome, ['android', 'mobile']],
    ['Android tablet Chrome', UA.androidTabletChrome, ['android', 'mobile']],
    ['Android watch', UA.androidWatch, ['android', 'mobile']],
    ['Windows Chrome', UA.windowsChrome, ['windows', 'desktop']],
    ['Windows Phone (not windows)', UA.windowsPhone, ['mobile']],
    ['macOS Safari', UA.macSafari, ['macos', 'desktop']],
    ['Linux Firefox', UA.linuxFirefox, ['linux', 'desktop']],
    ['Ubuntu Firefox', UA.ubuntuFirefox, ['linux', 'desktop']],
    ['Fedora Firefox', UA.fedoraFirefox, ['linux', 'desktop']],
    ['ChromeOS (not linux)', UA.chromeOs, ['desktop']],
    ['smart TV (neither mobile nor desktop)', UA.samsungTv, []],
    ['Xbox (neither windows nor desktop)', UA.xbox, []],
  ])('%s is %j', (_name, ua, devices) => {
    expect([...visitorDevices(visitorFromUa(ua))].sort()).toEqual([...devices].sort());
  });

  it('a visitor with no user agent information is no device', () => {
    expect(visitorDevices(NOWHERE).size).toBe(0);
  });

  // [operator, devices, user agent (null: none), whether the rule holds]
  it.each([
    ['is', ['mobile', 'linux'], 'ipadSafari', true],
    ['is', ['mobile', 'linux'], 'androidPhoneChrome', true],
    ['is', ['mobile', 'linux'], 'linuxFirefox', true],
    ['is', ['mobile', 'linux'], 'chromeOs', false],
    ['is', ['mobile', 'linux'], 'windowsChrome', false],
    ['is', ['ios'], 'iphoneSafari', true],
    ['is', ['ios'], 'macSafari', false],
    ['is', ['desktop'], 'chromeOs', true],
    ['is', ['desktop'], 'macSafari', true],
    ['is', ['desktop'], 'iphoneSafari', false],
    ['is', ['desktop'], null, false],
    ['is_not', ['ios', 'android'], 'macSafari', true],
    ['is_not', ['ios', 'android'], 'windowsChrome', true],
    ['is_not', ['ios', 'android'], 'iphoneSafari', false],
    ['is_not', ['ios', 'android'], 'androidTabletChrome', false],
    ['is_not', ['mobile'], 'windowsChrome', true],
    ['is_not', ['mobile'], 'ipadSafari', false],
    ['is_not', ['mobile'], null, true],
  ] as const)('%s %j for %s: %s', (operator, devices, ua, holds) => {
    const visitor = ua ? visitorFromUa(UA[ua]) : NOWHERE;
    const destination = smartUrlDestination(rule({ conditionType: 'device', operator, devices }), visitor, AT);
    expect(destination).toBe(holds ? MATCH_URL : DEFAULT_URL);
  });
});

/** Whether the one rule of `data` holds at `iso`. */
const holdsAt = (data: LinkDataByType['smart-url'], iso: string) => smartUrlDestination(data, NOWHERE, new Date(iso)) === MATCH_URL;

type Instants = readonly (readonly [iso: string, holds: boolean])[];
const complement = (instants: Instants): Instants => instants.map(([iso, holds]) => [iso, !holds] as const);

/** The rule holds at exactly the instants marked true. */
function expectHolds(data: LinkDataByType['smart-url'], instants: Instants) {
  for (const [iso, holds] of instants) expect(holdsAt(data, iso), iso).toBe(holds);
}

describe('time rules', () => {
  const window = (operator: string, timeFrom: string, timeTo: string, timezone: string) =>
    rule({ conditionType: 'time', operator, timezone, timeFrom, timeTo });

  /** `between` holds at exactly the instants marked inside, `not_between` at exactly the others. */
  function expectWindow(timeFrom: string, timeTo: string, timezone: string, instants: Instants) {
    expectHolds(window('between', timeFrom, timeTo, timezone), instants);
    expectHolds(window('not_between', timeFrom, timeTo, timezone), complement(instants));
  }

  it('between is [timeFrom, timeTo): the start minute is in, the end minute is out', () => {
    expectWindow('09:00', '17:00', 'UTC', [
      ['2026-06-15T08:59:59.999Z', false],
      ['2026-06-15T09:00:00Z', true],
      ['2026-06-15T16:59:59.999Z', true],
      ['2026-06-15T17:00:00Z', false],
    ]);
  });

  it('a timeTo before timeFrom is a window across midnight', () => {
    expectWindow('22:00', '06:00', 'UTC', [
      ['2026-06-15T21:59:59Z', false],
      ['2026-06-15T22:00:00Z', true],
      ['2026-06-15T23:59:59Z', true],
      ['2026-06-16T00:00:00Z', true],
      ['2026-06-16T05:59:59Z', true],
      ['2026-06-16T06:00:00Z', false],
      ['2026-06-16T12:00:00Z', false],
    ]);
  });

  it('equal ends are the whole day', () => {
    expectWindow('09:00', '09:00', 'UTC', [
      ['2026-06-15T00:00:00Z', true],
      ['2026-06-15T08:59:00Z', true],
      ['2026-06-15T09:00:00Z', true],
      ['2026-06-15T23:59:59Z', true],
    ]);
  });

  it("reads the wall clock in the rule's time zone, summer and winter", () => {
    expectWindow('09:00', '17:00', 'America/New_York', [
      ['2026-07-01T12:59:00Z', false], // 08:59 EDT
      ['2026-07-01T13:00:00Z', true], // 09:00 EDT
      ['2026-01-15T13:00:00Z', false], // 08:00 EST
      ['2026-01-15T14:00:00Z', true], // 09:00 EST
      ['2026-01-15T21:59:00Z', true], // 16:59 EST
      ['2026-01-15T22:00:00Z', false], // 17:00 EST
    ]);
    // +05:30, named in any letter case.
    expectWindow('09:00', '09:30', 'asia/kolkata', [
      ['2026-06-15T03:29:00Z', false],
      ['2026-06-15T03:30:00Z', true],
      ['2026-06-15T04:00:00Z', false],
    ]);
  });

  it('a window inside the hour a spring-forward skips never occurs that day', () => {
    // New York, 2026-03-08: at 07:00Z the clocks jump from 02:00 EST to 03:00 EDT.
    expectWindow('02:00', '03:00', 'America/New_York', [
      ['2026-03-08T06:59:59Z', false],
      ['2026-03-08T07:00:00Z', false],
      ['2026-03-08T07:30:00Z', false],
      ['2026-03-07T07:00:00Z', true], // 02:00 EST the day before
      ['2026-03-09T06:00:00Z', true], // 02:00 EDT the day after
    ]);
    expectWindow('01:30', '03:30', 'America/New_York', [
      ['2026-03-08T06:29:00Z', false], // 01:29 EST
      ['2026-03-08T06:30:00Z', true], // 01:30 EST
      ['2026-03-08T07:00:00Z', true], // 03:00 EDT
      ['2026-03-08T07:29:00Z', true], // 03:29 EDT
      ['2026-03-08T07:30:00Z', false], // 03:30 EDT
    ]);
  });

  it('a window in the hour a fall-back repeats occurs twice', () => {
    // New York, 2026-11-01: at 06:00Z the clocks go back from 02:00 EDT to 01:00 EST.
    expectWindow('01:00', '02:00', 'America/New_York', [
      ['2026-11-01T04:59:00Z', false], // 00:59 EDT
      ['2026-11-01T05:00:00Z', true], // 01:00 EDT
      ['2026-11-01T05:59:00Z', true], // 01:59 EDT
      ['2026-11-01T06:00:00Z', true], // 01:00 EST
      ['2026-11-01T06:59:00Z', true], // 01:59 EST
      ['2026-11-01T07:00:00Z', false], // 02:00 EST
    ]);
  });

  it('follows a southern-hemisphere zone, whose DST runs the other way', () => {
    expectWindow('09:00', '10:00', 'Australia/Sydney', [
      ['2026-01-14T22:00:00Z', true], // 09:00 AEDT (+11)
      ['2026-01-14T23:00:00Z', false], // 10:00 AEDT
      ['2026-07-14T23:00:00Z', true], // 09:00 AEST (+10)
      ['2026-07-14T22:00:00Z', false], // 08:00 AEST
    ]);
  });
});

describe('date rules', () => {
  const dates = (operator: string, range: { dateFrom?: string; dateTo?: string }, timezone = 'Asia/Tokyo') =>
    rule({ conditionType: 'date', operator, timezone, ...range });
  // Tokyo is UTC+9 all year: its 2026-05-10 is 2026-05-09T15:00Z up to 2026-05-10T15:00Z.

  it('after is strictly after dateFrom: from the next midnight in the zone', () => {
    expectHolds(dates('after', { dateFrom: '2026-05-10' }), [
      ['2026-05-10T14:59:59.999Z', false], // 05-10 23:59:59 JST
      ['2026-05-10T15:00:00Z', true], // 05-11 00:00 JST
      ['2027-01-01T00:00:00Z', true],
    ]);
  });

  it('before is strictly before dateTo: up to its midnight in the zone', () => {
    expectHolds(dates('before', { dateTo: '2026-05-10' }), [
      ['2020-01-01T00:00:00Z', true],
      ['2026-05-09T14:59:59.999Z', true], // 05-09 23:59:59 JST
      ['2026-05-09T15:00:00Z', false], // 05-10 00:00 JST
    ]);
  });

  it('between includes both whole days; not_between is the complement', () => {
    const instants = [
      ['2026-05-09T14:59:59.999Z', false], // 05-09 23:59:59 JST
      ['2026-05-09T15:00:00Z', true], // 05-10 00:00 JST
      ['2026-05-11T03:00:00Z', true],
      ['2026-05-12T14:59:59.999Z', true], // 05-12 23:59:59 JST
      ['2026-05-12T15:00:00Z', false], // 05-13 00:00 JST
    ] as const satisfies Instants;
    const range = { dateFrom: '2026-05-10', dateTo: '2026-05-12' };
    expectHolds(dates('between', range), instants);
    expectHolds(dates('not_between', range), complement(instants));
  });

  it('before D, between D and D, and after D split time with no gap and no overlap', () => {
    const day = '2026-05-10';
    const rules = [dates('before', { dateTo: day }), dates('between', { dateFrom: day, dateTo: day }), dates('after', { dateFrom: day })];
    for (const iso of ['2026-05-09T14:59:59Z', '2026-05-09T15:00:00Z', '2026-05-10T14:59:59Z', '2026-05-10T15:00:00Z']) {
      expect(
        rules.filter((r) => holdsAt(r, iso)),
        iso,
      ).toHaveLength(1);
    }
  });

  it('whole days follow DST: a spring-forward day is 23 hours, a fall-back day 25', () => {
    const oneDay = (day: string) => dates('between', { dateFrom: day, dateTo: day }, 'America/Los_Angeles');
    // Los Angeles: 2026-03-08 runs from 08:00Z (00:00 PST) to 07:00Z on the 9th (00:00 PDT).
    expectHolds(oneDay('2026-03-08'), [
      ['2026-03-08T07:59:59Z', false],
      ['2026-03-08T08:00:00Z', true],
      ['2026-03-09T06:59:59Z', true],
      ['2026-03-09T07:00:00Z', false],
    ]);
    // 2026-11-01 runs from 07:00Z (00:00 PDT) to 08:00Z on the 2nd (00:00 PST).
    expectHolds(oneDay('2026-11-01'), [
      ['2026-11-01T06:59:59Z', false],
      ['2026-11-01T07:00:00Z', true],
      ['2026-11-02T07:59:59Z', true],
      ['2026-11-02T08:00:00Z', false],
    ]);
  });

  it("the day is the zone's, not UTC's", () => {
    // Kiritimati is UTC+14: its 2027-01-01 starts at 2026-12-31T10:00Z.
    expectHolds(dates('after', { dateFrom: '2026-12-31' }, 'Pacific/Kiritimati'), [
      ['2026-12-31T09:59:59Z', false],
      ['2026-12-31T10:00:00Z', true],
    ]);
  });
});

describe('a zone this runtime does not know', () => {
  it('makes a time or date rule not hold, for either operator, instead of failing', () => {
    const unknownZone = (fields: Record<string, unknown>) =>
      ({ defaultUrl: DEFAULT_URL, rules: [{ url: MATCH_URL, timezone: 'Mars/Olympus_Mons', ...fields }] }) as LinkDataByType['smart-url'];
    for (const fields of [
      { conditionType: 'time', operator: 'between', timeFrom: '00:00', timeTo: '00:00' },
      { conditionType: 'time', operator: 'not_between', timeFrom: '09:00', timeTo: '09:01' },
      { conditionType: 'date', operator: 'after', dateFrom: '2000-01-01' },
      { conditionType: 'date', operator: 'not_between', dateFrom: '2000-01-01', dateTo: '2000-01-02' },
    ]) {
      expect(smartUrlDestination(unknownZone(fields), NOWHERE, AT)).toBe(DEFAULT_URL);
    }
  });
});
