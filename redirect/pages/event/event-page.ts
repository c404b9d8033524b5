/**
 * event links: the event page and its `.ics`.
 *
 * Times are converted to instants with the event's time zone (`parseDateTimeInZone`: a wall-clock
 * time in `timezone`, or the instant an offset names) and written to the calendar file in UTC,
 * which every calendar shows in its user's own zone. The page shows them in the event's zone,
 * named by its city ("19:00–23:00, Paris time"): where the event happens is the time a guest
 * plans by. An event without an end lasts `DEFAULT_EVENT_DURATION_MINUTES`. iCalendar's ORGANIZER
 * must be a calendar address (mailto:), which an event has not, and the file has one URL (the
 * event page), so the organizer and the registration link are written into the description, as
 * they are into the Google and Outlook entries.
 */
import { createEvent } from 'ics';
import { parseDateTimeInZone, type LinkDataByType } from '#domain/links/data/index.js';
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import { downloadName } from '../common/download-name.js';
import { eventText } from './event-messages.js';
import { checkedUrl, html, type SafeHtml } from '../common/html.js';
import type { PageContent } from '../common/layout.js';
import { COLUMN_SIZES, linkFiles } from '../files/files-page.js';
import { imageSources, pictureTag } from '../common/images.js';
import { dateTimeFormat, ENGLISH, zoneCity, type PageLocale } from '../common/locale.js';
import { mapAppFor, mapHref } from '../common/maps.js';
import type { PageUrls, Scanner } from '../common/types.js';
import { pingOf } from '../common/taps.js';

type EventData = LinkDataByType['event'];

export const DEFAULT_EVENT_DURATION_MINUTES = 60;

function eventTitle(data: EventData, locale: PageLocale): string {
  return data.eventTitle?.trim() ? data.eventTitle : eventText(locale, 'eventAt', { location: data.location });
}

/** The event's description, then its organizer and registration link: the text of every calendar entry. */
function calendarDetails(data: EventData, locale: PageLocale): string {
  return [
    data.description,
    data.organizerName?.trim() ? eventText(locale, 'organizerLine', { name: data.organizerName }) : undefined,
    data.registrationUrl ? eventText(locale, 'registrationLine', { url: data.registrationUrl }) : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
}

function eventTimes(data: EventData): { start: Date; end: Date | undefined } {
  const start = parseDateTimeInZone(data.startDateTime, data.timezone);
  if (!start) throw new RangeError(`Unreadable event start: ${data.startDateTime} (${data.timezone})`);
  const end = data.endDateTime ? (parseDateTimeInZone(data.endDateTime, data.timezone) ?? undefined) : undefined;
  return { start, end };
}

/**
 * An iCalendar UTC date-time (`19691231T230000Z`), written by us: the ics library refuses
 * instants before 1970 when given as timestamps, and writes a string as it is.
 */
function icsUtc(at: Date): string {
  return at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/**
 * iCalendar text may not carry a bare CR: it would end the content line; nor NEL or the Unicode
 * line separators, which some readers take as one. Each becomes LF (escaped by ics); other
 * control characters a space.
 */
function calendarText(text: string): string {
  return text.replace(/\r\n?|[\u0085\u2028\u2029]/g, '\n').replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, ' ');
}

/** The calendar file: in English, as it is one file for every scanner (its times are UTC). */
export function renderIcs(data: EventData, opts: { uid: string; url: string }): string {
  const { start, end } = eventTimes(data);
  const description = calendarDetails(data, ENGLISH);
  const { error, value } = createEvent({
    productId: 'qrlinks',
    uid: opts.uid,
    url: opts.url,
    title: calendarText(eventTitle(data, ENGLISH)),
    description: calendarText(description),
    location: calendarText(data.location),
    start: icsUtc(start),
    end: icsUtc(end ?? new Date(start.getTime() + DEFAULT_EVENT_DURATION_MINUTES * 60_000)),
  });
  if (error || !value) throw error ?? new Error('ics produced no calendar');
  return value;
}

/**
 * When, in the event's own zone and the page's language: the day, then the times and the zone's
 * city ("Thursday, 24 December 2026" / "19:00–23:00, Paris time"); an event over several days is
 * one range with its dates.
 */
function whenLines(data: EventData, { start, end }: { start: Date; end: Date | undefined }, locale: PageLocale): string[] {
  const timeZone = data.timezone;
  const inZone = (times: string) => eventText(locale, 'zoneTime', { times, city: zoneCity(timeZone) });
  const day = dateTimeFormat(locale, { timeZone, weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  const time = dateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' });
  const dayOf = (at: Date) => dateTimeFormat(locale, { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' }).format(at);
  if (!end) return [day.format(start), inZone(time.format(start))];
  if (dayOf(start) === dayOf(end)) return [day.format(start), inZone(time.formatRange(start, end))];
  const dayAndTime = dateTimeFormat(locale, {
    timeZone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });
  return [inZone(dayAndTime.formatRange(start, end))];
}

// The photo is cropped to a band on top, so the main action stays on the first screen of a phone.
const STYLES =
  '.hero{display:block;width:100%;max-height:11rem;object-fit:cover;border-radius:.75rem;margin:0 0 1rem}.ended{font-weight:600}';

/** The file name the event's calendar file is saved under: its title. */
export function eventFileName(data: EventData): string {
  return downloadName(eventTitle(data, ENGLISH), 'event', 'ics');
}

interface EventSpan {
  start: Date;
  end: Date;
}

/** The event's start and end (an event without one lasts DEFAULT_EVENT_DURATION_MINUTES). */
function eventSpan({ start, end }: { start: Date; end: Date | undefined }): EventSpan {
  return { start, end: end ?? new Date(start.getTime() + DEFAULT_EVENT_DURATION_MINUTES * 60_000) };
}

/** 20261224T180000Z, the compact UTC form Google Calendar's dates take. */
const compactUtc = (at: Date) => icsUtc(at);

/**
 * "Add to Google Calendar": the calendar's event-template link (`/calendar/render?action=TEMPLATE`
 * with text, dates as start/end in compact UTC, details and location), which opens the signed-in
 * user's calendar with the event filled in.
 */
function googleCalendarHref(data: EventData, { start, end }: EventSpan, locale: PageLocale): string {
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: eventTitle(data, locale),
    dates: `${compactUtc(start)}/${compactUtc(end)}`,
    details: calendarDetails(data, locale),
    location: data.location,
  });
  return `https://calendar.google.com/calendar/render?${params}`;
}

/** "Add to Outlook": Outlook on the web's compose deep link (`/calendar/action/compose`, ISO instants). */
function outlookCalendarHref(data: EventData, { start, end }: EventSpan, locale: PageLocale): string {
  const params = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: eventTitle(data, locale),
    startdt: start.toISOString(),
    enddt: end.toISOString(),
    body: calendarDetails(data, locale),
    location: data.location,
  });
  return `https://outlook.live.com/calendar/0/action/compose?${params}`;
}

/**
 * The calendar buttons, the scanner's own calendar first: the .ics on iPhone (Safari hands it to
 * Calendar), Google Calendar on Android, the .ics elsewhere (any desktop calendar opens it).
 */
function calendarLinks(
  data: EventData,
  span: EventSpan,
  urls: PageUrls,
  scanner: Scanner,
  locale: PageLocale,
): Array<{ href: string; label: string }> {
  const ics = { href: urls.ics, label: eventText(locale, scanner.platform === 'ios' ? 'addToAppleCalendar' : 'addToCalendar') };
  const google = { href: googleCalendarHref(data, span, locale), label: eventText(locale, 'addToGoogleCalendar') };
  const outlook = { href: outlookCalendarHref(data, span, locale), label: eventText(locale, 'addToOutlook') };
  return scanner.platform === 'android' ? [google, ics, outlook] : [ics, google, outlook];
}

/**
 * The page: the photo on top, the title, when and where (the place a link to the scanner's maps
 * app), then the actions: Register when there is a registration page (the one thing a guest must
 * do), else the scanner's own calendar, as the main button. After its end, a note instead.
 */
export function renderEventPage(link: ResolvedLink, data: EventData, urls: PageUrls, scanner: Scanner, locale: PageLocale): PageContent {
  const title = eventTitle(data, locale);
  const [image] = data.image ? linkFiles(link, [data.image.fileId]) : [];
  const registration = checkedUrl(data.registrationUrl, ['http', 'https']);
  // Parsing a wall-clock time in a zone costs ~20 µs: each end is read once per page.
  const times = eventTimes(data);
  const span = eventSpan(times);
  const ended = span.end.getTime() <= scanner.now;
  const actions = (): Array<{ href: string; label: string; ping?: SafeHtml | '' }> => [
    ...(registration ? [{ href: registration, label: eventText(locale, 'register'), ping: pingOf(urls, 'register') }] : []),
    ...calendarLinks(data, span, urls, scanner, locale),
  ];
  const button = ({ href, label, ping }: { href: string; label: string; ping?: SafeHtml | '' }, i: number): SafeHtml =>
    html`<a class="button${i === 0 ? '' : ' secondary'}" href="${href}"${ping}>${label}</a>`;
  const where = mapHref({ address: data.location }, mapAppFor(scanner.platform));
  return {
    title,
    styles: STYLES,
    content: html`${image && pictureTag(imageSources(image, urls.file), { className: 'hero', alt: eventText(locale, 'photo', { title }), sizes: COLUMN_SIZES, priority: true })}
<h1>${title}</h1>
<dl class="facts card">
<dt>${eventText(locale, 'when')}</dt><dd>${whenLines(data, times, locale).map((line, i) => (i === 0 ? line : html`<br>${line}`))}</dd>
<dt>${eventText(locale, 'where')}</dt><dd><a href="${where}"${pingOf(urls, 'directions')}>${data.location}</a></dd>
${data.organizerName?.trim() && html`<dt>${eventText(locale, 'organizer')}</dt><dd>${data.organizerName}</dd>`}
</dl>
${ended ? html`<p class="card ended" role="status">${eventText(locale, 'ended')}</p>` : actions().map(button)}
<p class="text">${data.description}</p>`,
  };
}
