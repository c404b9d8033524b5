/**
 * The cafe's clock on its menu page: open or closed now (in the cafe's time zone), when it opens
 * or closes in the page's language, and the week's hours with today marked.
 */
import { cafeClock, type CafeClock, type DayHours, type OpenState } from '#domain/cafes/opening-hours.js';
import type { PublishedMenu } from '#domain/cafes/published-menu.js';
import { WEEKDAYS } from '#domain/cafes/schemas.js';
import { weekdayName } from '../common/catalogue.js';
import { html, type HtmlValue } from '../common/html.js';
import { dateTimeFormat, type PageLocale } from '../common/locale.js';
import { menuText } from './menu-messages.js';

/** The cafe's clock at `now`, and the key of every page rendered at a moment with the same clock. */
export function menuClock(menu: Pick<PublishedMenu, 'operatingHours' | 'timezone'>, now: Date): CafeClock & { key: string } {
  const clock = cafeClock(menu.operatingHours, menu.timezone, now);
  return { ...clock, key: `${clock.today}|${clock.state ? JSON.stringify(clock.state) : ''}` };
}

/** A stored "HH:MM" as the locale writes a time: "09:00" in de, fr, pt and en-GB, "9:00 AM" in en. */
function timeText(locale: PageLocale, hhmm: string): string {
  const [hours, minutes] = hhmm.split(':').map(Number) as [number, number];
  const numeric = dateTimeFormat(locale, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
  // A 24-hour clock reads with two digits ("09:00"), as timetables print it; a 12-hour one without ("9:00 AM").
  const h24 = numeric.resolvedOptions().hourCycle === 'h23' || numeric.resolvedOptions().hourCycle === 'h24';
  const format = h24 ? dateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }) : numeric;
  return format.format(Date.UTC(2023, 0, 1, hours, minutes));
}

const WEEKDAY_NUMBER: Record<(typeof WEEKDAYS)[number], number> = {
  sunday: 0,
  monday: 1,
  tuesday: 2,
  wednesday: 3,
  thursday: 4,
  friday: 5,
  saturday: 6,
};

/** "Open now · closes at 11:00 PM", "Geschlossen · öffnet morgen um 08:00": the state in the page's language. */
export function openStateText(locale: PageLocale, state: OpenState): string {
  if (state.open)
    return state.closesAt ? menuText(locale, 'openUntil', { time: timeText(locale, state.closesAt) }) : menuText(locale, 'openNow');
  const next = state.opensAt;
  if (!next) return menuText(locale, 'closed');
  const time = timeText(locale, next.time);
  if (next.inDays === 0) return menuText(locale, 'closedOpensToday', { time });
  if (next.inDays === 1) return menuText(locale, 'closedOpensTomorrow', { time });
  return menuText(locale, 'closedOpensOn', { day: weekdayName(locale, WEEKDAY_NUMBER[next.day]), time });
}

export function renderHours(hours: readonly DayHours[], today: string, locale: PageLocale): HtmlValue {
  if (!hours.some((h) => h.enabled && h.ranges.length > 0)) return null;
  const rows = WEEKDAYS.map((day) => {
    const entry = hours.find((h) => h.day === day);
    // A range never breaks inside ("7:00" and "PM" on two lines); a day's ranges break between them.
    const open =
      entry?.enabled && entry.ranges.length > 0
        ? entry.ranges.map(
            (r, i) =>
              html`${i > 0 ? ', ' : ''}<span class="range">${r.from === '00:00' && r.to === '24:00' ? menuText(locale, 'allDay') : `${timeText(locale, r.from)} – ${timeText(locale, r.to)}`}</span>`,
          )
        : menuText(locale, 'closedAllDay');
    return html`<tr${day === today ? html` class="today" aria-current="date"` : ''}><th scope="row">${weekdayName(locale, WEEKDAY_NUMBER[day])}</th><td>${open}</td></tr>`;
  });
  return html`<h3 id="hours-h">${menuText(locale, 'openingHours')}</h3><table class="hours" aria-labelledby="hours-h"><tbody>${rows}</tbody></table>`;
}
