/**
 * Smart-url rules as the link editor edits them: an ordered list, the first rule that matches
 * giving the destination (domain/links/smart-url.ts), each summed up in plain words.
 *
 * The form keeps every field of every kind of rule, so switching a rule from "time" to "device" and
 * back loses nothing, but `rulesToData` writes only the members the rule's kind and operator take
 * (the API refuses the others). Members this console does not know are kept and written back
 * as they were, so `rulesToData(rulesFromData(data))` is `data.rules`, exactly.
 */
import { isCountryCode } from '#domain/links/data/codes.js';
import { CONDITION_TYPES, DEVICES, OPERATORS, SMART_URL_RULES_MAX } from '#domain/links/data/smart-url-values.js';
import { browserTimeZone, formatDay, zoneLabel } from './zones.js';

export type ConditionType = (typeof CONDITION_TYPES)[number];
export type Device = (typeof DEVICES)[number];
type Operator = (typeof OPERATORS)[ConditionType][number];

export { CONDITION_TYPES, DEVICES, OPERATORS, SMART_URL_RULES_MAX };

export interface RuleForm {
  /** The list's key for this rule, never sent. */
  id: number;
  conditionType: ConditionType;
  operator: Operator;
  url: string;
  countries: string[];
  devices: Device[];
  timezone: string;
  timeFrom: string;
  timeTo: string;
  dateFrom: string;
  dateTo: string;
  /** Members this console does not know, written back as they came. */
  unknown: Record<string, unknown>;
}

export type RuleData = Record<string, unknown>;

const KNOWN = new Set(['conditionType', 'operator', 'url', 'countries', 'devices', 'timezone', 'timeFrom', 'timeTo', 'dateFrom', 'dateTo']);

export const CONDITION_LABELS: Record<ConditionType, string> = {
  location: 'Country',
  device: 'Device',
  time: 'Time of day',
  date: 'Date',
};

export const OPERATOR_LABELS: Record<ConditionType, Record<string, string>> = {
  location: { is: 'is one of', is_not: 'is none of' },
  device: { is: 'is one of', is_not: 'is none of' },
  time: { between: 'is between', not_between: 'is not between' },
  date: { after: 'is after', before: 'is before', between: 'is from … through …', not_between: 'is not from … through …' },
};

/** Device checkboxes' labels, in the API's order. */
export const DEVICE_LABELS: Record<Device, string> = {
  ios: 'iPhone or iPad (iOS)',
  android: 'Android',
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  mobile: 'Any phone or tablet',
  desktop: 'Any computer',
};

/** How a summary names each device: "Visitors on iPhone/iPad or a computer". */
const DEVICE_WORDS: Record<Device, string> = {
  ios: 'iPhone/iPad',
  android: 'Android',
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  mobile: 'a phone or tablet',
  desktop: 'a computer',
};

let nextId = 1;

/** A rule to start from: visitors in some country, in the browser's time zone for time and date rules. */
export function newRule(zone = browserTimeZone()): RuleForm {
  return {
    id: nextId++,
    conditionType: 'location',
    operator: 'is',
    url: '',
    countries: [],
    devices: [],
    timezone: zone,
    timeFrom: '09:00',
    timeTo: '17:00',
    dateFrom: '',
    dateTo: '',
    unknown: {},
  };
}

const text = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);
const strings = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

function isConditionType(value: unknown): value is ConditionType {
  return (CONDITION_TYPES as readonly unknown[]).includes(value);
}

/** The operators a kind of rule takes. */
export function operatorsOf(type: ConditionType): readonly Operator[] {
  return OPERATORS[type];
}

/** The rules of a smart-url link's data (none when it has none). */
export function rulesFromData(data: Record<string, unknown> | null | undefined, zone = browserTimeZone()): RuleForm[] {
  const rules = Array.isArray(data?.rules) ? (data.rules as unknown[]) : [];
  return rules.map((raw) => {
    const rule = (raw && typeof raw === 'object' ? raw : {}) as RuleData;
    const base = newRule(zone);
    const unknown: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rule)) if (!KNOWN.has(key)) unknown[key] = value;
    const conditionType = isConditionType(rule.conditionType) ? rule.conditionType : base.conditionType;
    return {
      ...base,
      conditionType,
      operator: (rule.operator as Operator) ?? operatorsOf(conditionType)[0],
      url: text(rule.url, ''),
      countries: strings(rule.countries),
      devices: strings(rule.devices) as Device[],
      timezone: text(rule.timezone, base.timezone),
      timeFrom: text(rule.timeFrom, base.timeFrom),
      timeTo: text(rule.timeTo, base.timeTo),
      dateFrom: text(rule.dateFrom, ''),
      dateTo: text(rule.dateTo, ''),
      unknown,
    };
  });
}

/** Which date fields a date rule's operator takes. */
export function dateFieldsOf(operator: string): { from: boolean; to: boolean } {
  return { from: operator !== 'before', to: operator !== 'after' };
}

/** The rules as `data.rules`: each with the members its kind and operator take, in the list's order. */
export function rulesToData(rules: readonly RuleForm[]): RuleData[] {
  return rules.map((rule) => {
    const out: RuleData = { ...rule.unknown, conditionType: rule.conditionType, operator: rule.operator };
    if (rule.conditionType === 'location') out.countries = [...rule.countries];
    else if (rule.conditionType === 'device') out.devices = [...rule.devices];
    else if (rule.conditionType === 'time') Object.assign(out, { timezone: rule.timezone, timeFrom: rule.timeFrom, timeTo: rule.timeTo });
    else {
      const fields = dateFieldsOf(rule.operator);
      out.timezone = rule.timezone;
      if (fields.from) out.dateFrom = rule.dateFrom;
      if (fields.to) out.dateTo = rule.dateTo;
    }
    out.url = rule.url;
    return out;
  });
}

/**
 * A smart-url link's data with the rules in it. No rules on data that had none leaves `rules` out
 * (the data stays as it was); otherwise the list is written, empty when all were removed.
 */
export function dataWithRules(data: Record<string, unknown>, rules: readonly RuleForm[]): Record<string, unknown> {
  const { rules: before, ...rest } = data;
  return rules.length === 0 && before === undefined ? rest : { ...rest, rules: rulesToData(rules) };
}

/** A rule switched to another kind: the first operator of that kind unless the current one fits. */
export function withConditionType(rule: RuleForm, conditionType: ConditionType): RuleForm {
  const operators = operatorsOf(conditionType);
  return { ...rule, conditionType, operator: operators.includes(rule.operator) ? rule.operator : operators[0]! };
}

let regionNames: Intl.DisplayNames | undefined;

/** A country code's English name (`PT` → "Portugal"), or the code when Intl has none. */
export function countryName(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  return regionNames.of(code.toUpperCase()) ?? code;
}

let countries: readonly { code: string; name: string }[] | undefined;

/** Every country code the API takes, with its name, by name. */
export function countryOptions(): readonly { code: string; name: string }[] {
  if (!countries) {
    const all: { code: string; name: string }[] = [];
    for (let a = 65; a <= 90; a++) {
      for (let b = 65; b <= 90; b++) {
        const code = String.fromCharCode(a, b);
        if (isCountryCode(code)) all.push({ code, name: countryName(code) });
      }
    }
    countries = all.sort((x, y) => x.name.localeCompare(y.name, 'en'));
  }
  return countries;
}

/** Countries whose name or code contains `query` (case-insensitive). */
export function searchCountries(query: string): readonly { code: string; name: string }[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  return countryOptions().filter((c) => c.name.toLowerCase().includes(q) || c.code.toLowerCase() === q);
}

/** "A", "A or B", "A, B or C" (with `and` for "and"). */
function listWords(words: readonly string[], joiner: 'or' | 'and'): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} ${joiner} ${words[words.length - 1]}`;
}

function conditionWords(rule: RuleForm): string {
  const zone = `(${zoneLabel(rule.timezone)})`;
  switch (rule.conditionType) {
    case 'location': {
      if (rule.countries.length === 0) return 'Visitors in (no country chosen yet)';
      const names = rule.countries.map(countryName);
      return rule.operator === 'is_not' ? `Visitors outside ${listWords(names, 'and')}` : `Visitors in ${listWords(names, 'or')}`;
    }
    case 'device': {
      if (rule.devices.length === 0) return 'Visitors on (no device chosen yet)';
      const names = rule.devices.map((d) => DEVICE_WORDS[d] ?? d);
      return `Visitors ${rule.operator === 'is_not' ? 'not on' : 'on'} ${listWords(names, 'or')}`;
    }
    case 'time': {
      const { timeFrom: from, timeTo: to } = rule;
      const span = from === to ? ', the whole day' : to < from ? ', overnight' : '';
      return rule.operator === 'not_between' ? `Outside ${from}–${to}${span} ${zone}` : `Between ${from} and ${to}${span} ${zone}`;
    }
    case 'date': {
      const from = rule.dateFrom ? formatDay(rule.dateFrom) : '(no date yet)';
      const to = rule.dateTo ? formatDay(rule.dateTo) : '(no date yet)';
      if (rule.operator === 'after') return `After ${from} ${zone}`;
      if (rule.operator === 'before') return `Before ${to} ${zone}`;
      if (rule.operator === 'not_between') return `Before ${from} or after ${to} ${zone}`;
      return `From ${from} through ${to} ${zone}`;
    }
  }
}

/** One rule in words: "Visitors in Portugal → https://example.pt/". */
export function ruleSummary(rule: RuleForm): string {
  return `${conditionWords(rule)} → ${rule.url.trim() || '(no destination yet)'}`;
}

/** The line for the default destination, after the rules (or alone when there are none). */
export function defaultSummary(defaultUrl: string, ruleCount: number): string {
  return `${ruleCount > 0 ? 'Everyone else' : 'Everyone'} → ${defaultUrl.trim() || '(no default destination yet)'}`;
}

/** Whether an error path belongs to the rules (`data.rules`, `data.rules.2.url`). */
export function isRulesPath(path: string): boolean {
  return path === 'data.rules' || path.startsWith('data.rules.');
}

/**
 * The errors of rule `index` keyed by its fields' paths (`data.rules.0.url`), an item's error
 * (`data.rules.0.countries.1`) joined to its field's and naming the item, plus the rule's own.
 */
export function ruleFieldErrors(errors: Readonly<Record<string, string>>, index: number, rule: RuleForm): Record<string, string> {
  const at = `data.rules.${index}`;
  const byField: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    if (path !== at && !path.startsWith(`${at}.`)) continue;
    const [field, item] = path.slice(at.length + 1).split('.');
    const key = field ? `${at}.${field}` : at;
    const items: readonly string[] = field === 'countries' ? rule.countries : field === 'devices' ? rule.devices : [];
    const text = item === undefined ? message : `${items[Number(item)] ?? `Item ${Number(item) + 1}`}: ${message}`;
    byField[key] = byField[key] ? `${byField[key]} ${text}` : text;
  }
  return byField;
}
