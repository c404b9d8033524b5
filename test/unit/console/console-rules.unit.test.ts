/** Smart-url rules in the link editor: data <-> form (exact round trip), summaries in words, errors by field. */
import { describe, expect, it } from 'vitest';
import {
  countryOptions,
  dataWithRules,
  defaultSummary,
  newRule,
  ruleFieldErrors,
  rulesFromData,
  rulesToData,
  ruleSummary,
  searchCountries,
  withConditionType,
  type RuleForm,
} from '#console/src/links/rules.js';
import { smartUrlDataSchema } from '#domain/links/data/schemas.js';

const STORED_RULES = [
  { conditionType: 'location', operator: 'is', countries: ['PT', 'es'], url: 'https://example.pt/' },
  { conditionType: 'location', operator: 'is_not', countries: ['PT'], url: 'https://example.com/world' },
  { conditionType: 'device', operator: 'is', devices: ['ios', 'android'], url: 'https://example.com/app' },
  { conditionType: 'device', operator: 'is_not', devices: ['desktop'], url: 'https://example.com/m' },
  {
    conditionType: 'time',
    operator: 'between',
    timezone: 'Europe/Lisbon',
    timeFrom: '09:00',
    timeTo: '17:00',
    url: 'https://example.com/open',
  },
  {
    conditionType: 'time',
    operator: 'not_between',
    timezone: 'Europe/Lisbon',
    timeFrom: '22:00',
    timeTo: '06:00',
    url: 'https://example.com/day',
  },
  { conditionType: 'date', operator: 'after', timezone: 'Europe/Lisbon', dateFrom: '2026-12-01', url: 'https://example.com/xmas' },
  { conditionType: 'date', operator: 'before', timezone: 'Asia/Tokyo', dateTo: '2026-12-01', url: 'https://example.com/early' },
  {
    conditionType: 'date',
    operator: 'between',
    timezone: 'UTC',
    dateFrom: '2026-12-01',
    dateTo: '2026-12-24',
    url: 'https://example.com/advent',
  },
  {
    conditionType: 'date',
    operator: 'not_between',
    timezone: 'America/New_York',
    dateFrom: '2026-12-01',
    dateTo: '2026-12-24',
    url: 'https://example.com/rest',
  },
];

const rule = (change: Partial<RuleForm>): RuleForm => ({ ...newRule('Europe/Lisbon'), url: 'https://example.com/', ...change });

describe('rules <-> data.rules', () => {
  it('the round trip is exact for every kind of rule and operator, in order', () => {
    // The fixture is what the API stores: it passes the server's schema unchanged.
    expect(smartUrlDataSchema.parse({ defaultUrl: 'https://example.com/', rules: STORED_RULES }).rules).toEqual(STORED_RULES);
    const forms = rulesFromData({ defaultUrl: 'https://example.com/', rules: STORED_RULES }, 'Europe/Lisbon');
    expect(forms.map((r) => r.conditionType)).toEqual(STORED_RULES.map((r) => r.conditionType));
    expect(rulesToData(forms)).toEqual(STORED_RULES);
  });

  it('keeps members it does not know, as they came', () => {
    const rules = [{ conditionType: 'location', operator: 'is', countries: ['PT'], url: 'https://example.pt/', note: { by: 'ops' } }];
    expect(rulesToData(rulesFromData({ rules }))).toEqual(rules);
  });

  it('no rules, or no data, is an empty list', () => {
    expect(rulesFromData({ defaultUrl: 'https://example.com/' })).toEqual([]);
    expect(rulesFromData(null)).toEqual([]);
    expect(rulesToData([])).toEqual([]);
  });

  it("writes only what the rule's kind and operator take, so switching kinds loses nothing and sends nothing stray", () => {
    const location = rule({ countries: ['PT'] });
    const asTime = withConditionType(location, 'time');
    expect(asTime.operator).toBe('between');
    expect(rulesToData([asTime])).toEqual([
      {
        conditionType: 'time',
        operator: 'between',
        timezone: 'Europe/Lisbon',
        timeFrom: '09:00',
        timeTo: '17:00',
        url: 'https://example.com/',
      },
    ]);
    expect(rulesToData([withConditionType(asTime, 'location')])).toEqual([
      { conditionType: 'location', operator: 'is', countries: ['PT'], url: 'https://example.com/' },
    ]);
    const after = rule({ conditionType: 'date', operator: 'after', dateFrom: '2026-12-01', dateTo: '2026-12-24' });
    expect(rulesToData([after])[0]).toEqual({
      conditionType: 'date',
      operator: 'after',
      timezone: 'Europe/Lisbon',
      dateFrom: '2026-12-01',
      url: 'https://example.com/',
    });
    expect(rulesToData([{ ...after, operator: 'before' }])[0]).toEqual({
      conditionType: 'date',
      operator: 'before',
      timezone: 'Europe/Lisbon',
      dateTo: '2026-12-24',
      url: 'https://example.com/',
    });
    // Each is a rule the server takes.
    const data = {
      defaultUrl: 'https://example.com/',
      rules: rulesToData([
        asTime,
        after,
        { ...after, operator: 'between' },
        rule({ conditionType: 'device', operator: 'is', devices: ['mobile'] }),
      ]),
    };
    expect(smartUrlDataSchema.safeParse(data).success).toBe(true);
  });

  it('puts the rules into the data: none on data without rules leaves it as it was, all removed is an empty list', () => {
    expect(dataWithRules({ defaultUrl: 'https://example.com/' }, [])).toEqual({ defaultUrl: 'https://example.com/' });
    expect(dataWithRules({ defaultUrl: 'https://example.com/', rules: STORED_RULES }, [])).toEqual({
      defaultUrl: 'https://example.com/',
      rules: [],
    });
    const forms = rulesFromData({ rules: STORED_RULES });
    expect(dataWithRules({ defaultUrl: 'https://example.com/' }, forms.slice(0, 2))).toEqual({
      defaultUrl: 'https://example.com/',
      rules: STORED_RULES.slice(0, 2),
    });
  });
});

describe('summaries in plain words', () => {
  const summaries = () => rulesFromData({ rules: STORED_RULES }, 'Europe/Lisbon').map(ruleSummary);

  it('one for every kind of rule and operator', () => {
    expect(summaries()).toEqual([
      'Visitors in Portugal or Spain → https://example.pt/',
      'Visitors outside Portugal → https://example.com/world',
      'Visitors on iPhone/iPad or Android → https://example.com/app',
      'Visitors not on a computer → https://example.com/m',
      'Between 09:00 and 17:00 (Lisbon time) → https://example.com/open',
      'Outside 22:00–06:00, overnight (Lisbon time) → https://example.com/day',
      'After 1 Dec 2026 (Lisbon time) → https://example.com/xmas',
      'Before 1 Dec 2026 (Tokyo time) → https://example.com/early',
      'From 1 Dec 2026 through 24 Dec 2026 (UTC) → https://example.com/advent',
      'Before 1 Dec 2026 or after 24 Dec 2026 (New York time) → https://example.com/rest',
    ]);
  });

  it('lists join with "or" for one of, "and" for outside; times say overnight and the whole day', () => {
    expect(ruleSummary(rule({ operator: 'is_not', countries: ['PT', 'ES', 'FR'] }))).toBe(
      'Visitors outside Portugal, Spain and France → https://example.com/',
    );
    expect(ruleSummary(rule({ conditionType: 'device', operator: 'is_not', devices: ['windows', 'macos', 'linux'] }))).toBe(
      'Visitors not on Windows, macOS or Linux → https://example.com/',
    );
    expect(ruleSummary(rule({ conditionType: 'device', devices: ['mobile'] }))).toBe(
      'Visitors on a phone or tablet → https://example.com/',
    );
    expect(ruleSummary(rule({ conditionType: 'time', operator: 'between', timeFrom: '22:00', timeTo: '06:00' }))).toBe(
      'Between 22:00 and 06:00, overnight (Lisbon time) → https://example.com/',
    );
    expect(ruleSummary(rule({ conditionType: 'time', operator: 'between', timeFrom: '08:00', timeTo: '08:00', timezone: 'UTC' }))).toBe(
      'Between 08:00 and 08:00, the whole day (UTC) → https://example.com/',
    );
  });

  it('what is still missing is said, not left blank', () => {
    expect(ruleSummary(rule({ url: '' }))).toBe('Visitors in (no country chosen yet) → (no destination yet)');
    expect(ruleSummary(rule({ conditionType: 'device' }))).toBe('Visitors on (no device chosen yet) → https://example.com/');
    expect(ruleSummary(rule({ conditionType: 'date', operator: 'between' }))).toBe(
      'From (no date yet) through (no date yet) (Lisbon time) → https://example.com/',
    );
  });

  it('the default destination closes the list', () => {
    expect(defaultSummary('https://example.com/', 2)).toBe('Everyone else → https://example.com/');
    expect(defaultSummary('https://example.com/', 0)).toBe('Everyone → https://example.com/');
    expect(defaultSummary(' ', 1)).toBe('Everyone else → (no default destination yet)');
  });
});

describe('countries', () => {
  it('offers the codes the API takes, by name', () => {
    const options = countryOptions();
    const codes = options.map((c) => c.code);
    expect(options).toContainEqual({ code: 'PT', name: 'Portugal' });
    expect(codes).toContain('XK');
    for (const notACountry of ['UK', 'EU', 'ZZ', 'UN']) expect(codes).not.toContain(notACountry);
    expect(options.length).toBeGreaterThan(240);
    expect(options[0]!.name.localeCompare(options[1]!.name)).toBeLessThan(0);
  });

  it('finds countries by part of the name or by code', () => {
    expect(searchCountries('portu').map((c) => c.code)).toEqual(['PT']);
    expect(searchCountries('de').map((c) => c.code)).toContain('DE');
    expect(searchCountries('  ')).toEqual([]);
  });
});

describe('API errors at the rule fields', () => {
  it("keys a rule's errors by its fields' paths and names the item an item error is about", () => {
    const errors = {
      'data.rules.1.url': 'Must be a valid URL',
      'data.rules.1.countries.1': 'Must be a country code (ISO 3166-1 alpha-2, e.g. US)',
      'data.rules.1.countries.2': 'Duplicate value',
      'data.rules.1.note': 'Unknown field',
      'data.rules.0.url': 'Required',
      'data.defaultUrl': 'Required',
    };
    expect(ruleFieldErrors(errors, 1, rule({ countries: ['PT', 'QQ', 'PT'] }))).toEqual({
      'data.rules.1.url': 'Must be a valid URL',
      'data.rules.1.countries': 'QQ: Must be a country code (ISO 3166-1 alpha-2, e.g. US) PT: Duplicate value',
      'data.rules.1.note': 'Unknown field',
    });
    expect(ruleFieldErrors(errors, 0, rule({}))).toEqual({ 'data.rules.0.url': 'Required' });
  });
});
