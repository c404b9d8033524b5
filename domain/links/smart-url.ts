/**
 * Where a smart-url link sends a scan: the url of the first rule (in the order stored) whose
 * condition holds, else `defaultUrl`. Runs on the redirect's hot path, so it does no I/O and reads
 * each time zone's wall clock at most once a minute (`wallClock`).
 *
 * What each condition means (docs/decisions/README.md, "Smart-url rules"):
 * - **location**: the visitor's country (ISO 3166-1 alpha-2) compared case-insensitively with the
 *   rule's. An unknown country (the geo database had no answer) matches neither `is` nor
 *   `is_not`: the visitor may well be in one of the listed countries, so neither statement is
 *   known to hold and the scan falls through to the next rule.
 * - **device**: the set `visitorDevices` derives from the user agent; `is` holds when the visitor
 *   is any of the listed devices, `is_not` when it is none of them (so a user agent that names no
 *   known OS or device matches `is_not`).
 * - **time**: the wall-clock time in the rule's zone lies in [timeFrom, timeTo), to the minute.
 *   When timeTo is not after timeFrom the window ends on the next day (22:00–06:00 is the night;
 *   equal ends are the whole day). Wall-clock means DST-aware: on a spring-forward day a window
 *   inside the skipped hour never occurs, on a fall-back day a window in the repeated hour occurs
 *   twice. `not_between` is the complement.
 * - **date**: the calendar day in the rule's zone; `after` is strictly after dateFrom (from the
 *   next midnight on), `before` strictly before dateTo, `between` dateFrom..dateTo with both days
 *   included, `not_between` the complement. So `before D`, `between D D` and `after D` split
 *   time in three with no gap and no overlap.
 * - A time or date rule whose zone this runtime's Intl does not know (stored under another ICU)
 *   does not hold, for either operator, rather than failing the redirect.
 */
import type { Visitor } from '../scans/types.js';
import type { Device, LinkDataByType, SmartUrlRule } from './data/schemas.js';

export type SmartUrlVisitor = Pick<Visitor, 'countryCode' | 'osName' | 'deviceType'>;

export function smartUrlDestination(data: LinkDataByType['smart-url'], visitor: SmartUrlVisitor, now: Date): string {
  return data.rules?.find((rule) => conditionHolds(rule, visitor, now))?.url ?? data.defaultUrl;
}

function conditionHolds(rule: SmartUrlRule, visitor: SmartUrlVisitor, now: Date): boolean {
  if (rule.conditionType === 'location') {
    const country = visitor.countryCode?.toUpperCase();
    if (!country) return false;
    const isListed = rule.countries.some((code) => code.toUpperCase() === country);
    return rule.operator === 'is' ? isListed : !isListed;
  }
  if (rule.conditionType === 'device') {
    const devices = visitorDevices(visitor);
    const isListed = rule.devices.some((device) => devices.has(device));
    return rule.operator === 'is' ? isListed : !isListed;
  }
  const clock = wallClock(rule.timezone, now);
  if (!clock) return false;
  if (rule.conditionType === 'time') {
    const inWindow = isInTimeWindow(clock.minuteOfDay, minuteOfDay(rule.timeFrom), minuteOfDay(rule.timeTo));
    return rule.operator === 'between' ? inWindow : !inWindow;
  }
  // YYYY-MM-DD strings compare as dates.
  switch (rule.operator) {
    case 'after':
      return clock.date > rule.dateFrom;
    case 'before':
      return clock.date < rule.dateTo;
    case 'between':
      return rule.dateFrom <= clock.date && clock.date <= rule.dateTo;
    case 'not_between':
      return clock.date < rule.dateFrom || clock.date > rule.dateTo;
  }
}

/** [from, to) in minutes since midnight; a `to` not after `from` wraps past midnight. */
function isInTimeWindow(minute: number, from: number, to: number): boolean {
  return from < to ? from <= minute && minute < to : minute >= from || minute < to;
}

/** `HH:MM` (validated by the schema) as minutes since midnight. */
function minuteOfDay(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

// ---------------------------------------------------------------------------------------------
// Devices

/** OS names ua-parser-js v1 reports for Linux distributions (lower-cased). Android and Chromium OS are not here. */
const LINUX_OS_NAMES: ReadonlySet<string> = new Set([
  'linux',
  'ubuntu',
  'kubuntu',
  'xubuntu',
  'lubuntu',
  'debian',
  'mint',
  'fedora',
  'redhat',
  'red hat',
  'centos',
  'suse',
  'opensuse',
  'gentoo',
  'arch',
  'slackware',
  'mandriva',
  'mageia',
  'pclinuxos',
  'zenwalk',
  'linpus',
  'raspbian',
  'deepin',
  'manjaro',
  'elementary os',
  'sabayon',
  'linspire',
  'vectorlinux',
]);

/** Lower-cased ua-parser-js v1 OS name → the device it makes the visitor. */
const OS_DEVICES: ReadonlyMap<string, Device> = new Map<string, Device>([
  ['ios', 'ios'],
  ['android', 'android'],
  ['android-x86', 'android'],
  ['windows', 'windows'],
  ['mac os', 'macos'],
  ...[...LINUX_OS_NAMES].map((name): [string, Device] => [name, 'linux']),
]);

/** ua-parser-js device types of hand-held and worn devices. */
const MOBILE_DEVICE_TYPES: ReadonlySet<string> = new Set(['mobile', 'tablet', 'wearable']);

/**
 * The smart-url devices a visitor is, from ua-parser-js v1's reading of the user agent: at most
 * one OS device and at most one of mobile/desktop.
 * - ios: OS "iOS" (iPhone, and iPad in its mobile user agent; an iPad asking for the desktop site
 *   sends a Mac user agent and is macos + desktop, which no server can tell apart).
 * - android: "Android" (also Android-x86); not HarmonyOS.
 * - windows: "Windows" (desktop Windows); not "Windows Phone" or "Windows Mobile", nor Xbox.
 * - macos: "Mac OS".
 * - linux: desktop Linux distributions (`LINUX_OS_NAMES`); not Android, not Chromium OS (a Chromebook
 *   runs web and Android apps, not the Linux downloads a "linux" rule points to).
 * - mobile: device type mobile (phones), tablet or wearable.
 * - desktop: device type 'desktop', i.e. ua-parser found no device type (computers, Chromebooks).
 *   Smart TVs, consoles, XR headsets and embedded devices are neither mobile nor desktop.
 */
export function visitorDevices(visitor: Pick<Visitor, 'osName' | 'deviceType'>): Set<Device> {
  const devices = new Set<Device>();
  const osDevice = visitor.osName ? OS_DEVICES.get(visitor.osName.toLowerCase()) : undefined;
  if (osDevice) devices.add(osDevice);
  if (visitor.deviceType === 'desktop') devices.add('desktop');
  else if (visitor.deviceType && MOBILE_DEVICE_TYPES.has(visitor.deviceType)) devices.add('mobile');
  return devices;
}

// ---------------------------------------------------------------------------------------------
// Wall clock

interface WallClock {
  /** YYYY-MM-DD */
  date: string;
  minuteOfDay: number;
}

/** A zone's formatter and the wall clock it showed for the UTC minute `minute` (epoch ms / 60 000). */
interface ZoneClock {
  formatter: Intl.DateTimeFormat;
  minute: number;
  clock: WallClock;
}

/** Lower-cased zone name → its clock, or null when Intl does not know the zone. */
const zoneClocks = new Map<string, ZoneClock | null>();

/**
 * The date and time of day `now` shows on a wall clock in `timeZone`; null for a zone Intl does
 * not know. Reading a formatter costs a few µs, so each zone keeps its answer for the current
 * minute: every offset in use today is a whole number of minutes, so the wall-clock minute changes
 * exactly when the UTC minute does.
 */
function wallClock(timeZone: string, now: Date): WallClock | null {
  const key = timeZone.toLowerCase();
  let zone = zoneClocks.get(key);
  if (zone === undefined) {
    zone = createZoneClock(timeZone);
    zoneClocks.set(key, zone);
  }
  if (!zone) return null;
  const minute = Math.floor(now.getTime() / 60_000);
  if (zone.minute !== minute) {
    zone.clock = readClock(zone.formatter, now);
    zone.minute = minute;
  }
  return zone.clock;
}

function createZoneClock(timeZone: string): ZoneClock | null {
  let formatter: Intl.DateTimeFormat;
  try {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
  } catch {
    return null;
  }
  return { formatter, minute: NaN, clock: { date: '', minuteOfDay: 0 } };
}

function readClock(formatter: Intl.DateTimeFormat, now: Date): WallClock {
  let year = '';
  let month = '';
  let day = '';
  let hour = 0;
  let minute = 0;
  for (const part of formatter.formatToParts(now)) {
    if (part.type === 'year') year = part.value.padStart(4, '0');
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  return { date: `${year}-${month}-${day}`, minuteOfDay: hour * 60 + minute };
}
