/**
 * Whether a cafe is open at an instant and until when, or when it opens next: read in the cafe's
 * own time zone from its weekly operating hours (the menu page puts it in words).
 *
 * Hours are wall-clock times: a range whose `to` is not after its `from` runs past midnight into
 * the next day (a bar open 18:00-02:00), and `24:00` ends a day. A day that is not listed, or is
 * not enabled, is closed. The arithmetic is in local minutes of the week, so a range keeps its wall
 * times across a daylight-saving change (the hour that does not exist is simply skipped).
 */
import type { WEEKDAYS } from './schemas.js';

export type Weekday = (typeof WEEKDAYS)[number];

export interface DayHours {
  day: Weekday;
  enabled: boolean;
  ranges: ReadonlyArray<{ from: string; to: string }>;
}

export type OpenState =
  | { open: true; /** "23:00"; null when the cafe never closes within the week. */ closesAt: string | null }
  | {
      open: false;
      /** The next opening (in 0 days: today); null when no opening is coming. */ opensAt: {
        inDays: number;
        day: Weekday;
        time: string;
      } | null;
    };

const DAY_ORDER: readonly Weekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const DAY_MINUTES = 1440;

const localFormatters = new Map<string, Intl.DateTimeFormat>();

/** Weekday (0 = Sunday) and minute of the day at `at` in `timeZone`. */
function localTime(at: Date, timeZone: string): { weekday: number; minute: number } {
  let format = localFormatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    localFormatters.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  return { weekday: DAY_ORDER.indexOf(parts.weekday!.toLowerCase() as Weekday), minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const clock = (minute: number) => {
  const m = ((minute % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/**
 * Open intervals in minutes relative to the start of today (local), from yesterday (whose ranges
 * may run past midnight into today) to a week ahead, merged where they touch.
 */
function openIntervals(hours: readonly DayHours[], today: number): Array<[number, number]> {
  const intervals: Array<[number, number]> = [];
  for (let offset = -1; offset <= 7; offset++) {
    const day = DAY_ORDER[(((today + offset) % 7) + 7) % 7]!;
    const entry = hours.find((h) => h.day === day);
    if (!entry?.enabled) continue;
    for (const range of entry.ranges) {
      const from = minutesOf(range.from);
      const to = minutesOf(range.to);
      const start = offset * DAY_MINUTES + from;
      intervals.push([start, start + (to > from ? to - from : to + DAY_MINUTES - from)]);
    }
  }
  intervals.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of intervals) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

export interface CafeClock {
  /** The cafe's local day at the instant. */
  today: Weekday;
  /** Open or closed, and until when; null when the cafe lists no hours. */
  state: OpenState | null;
}

/** The cafe's local day at `at`, whether it is open, and when it closes or opens next. */
export function cafeClock(hours: readonly DayHours[], timeZone: string, at: Date): CafeClock {
  const { weekday, minute } = localTime(at, timeZone);
  return { today: DAY_ORDER[weekday]!, state: openState(hours, weekday, minute) };
}

function openState(hours: readonly DayHours[], weekday: number, minute: number): OpenState | null {
  if (!hours.some((h) => h.enabled && h.ranges.length > 0)) return null;
  const intervals = openIntervals(hours, weekday);
  const current = intervals.find(([start, end]) => start <= minute && minute < end);
  if (current) return { open: true, closesAt: current[1] - minute >= 7 * DAY_MINUTES ? null : clock(current[1]) };
  const next = intervals.find(([start]) => start > minute);
  if (!next) return { open: false, opensAt: null };
  const days = Math.floor(next[0] / DAY_MINUTES);
  return { open: false, opensAt: { inDays: days, day: DAY_ORDER[(weekday + days) % 7]!, time: clock(next[0]) } };
}
