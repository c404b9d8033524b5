/**
 * event links: the event page and its `.ics`.
 *
 * Times are converted to instants with the event's time zone (`parseDateTimeInZone`: a wall-clock
 * time in `timezone`, or the instant an offset names) and written to the calendar file in UTC,
 * which every calendar shows in its user's own zone. An event without an end lasts
 * `DEFAULT_EVENT_DURATION_MINUTES`. iCalendar's ORGANIZER must be a calendar address (mailto:),
 * which an event has not, and the file has one URL (the event page), so the organizer and the
 * registration link are written into the description.
 */
import { createEvent } from 'ics';
import { parseDateTimeInZone, type LinkDataByType } from '../../shared/links/data/index.js';
import type { ResolvedLink } from '../../shared/links/resolve/resolved-link.js';
import { downloadName } from './download-name.js';
import { checkedUrl, html } from './html.js';
import type { PageContent } from './layout.js';
import { COLUMN_SIZES, imageAlt, linkFiles } from './files.js';
import { imageSources, pictureTag } from './images.js';
import type { PageUrls, Scanner } from './types.js';
import type { PageLocale } from './locale.js';

type EventData = LinkDataByType['event'];

export const DEFAULT_EVENT_DURATION_MINUTES = 60;

function eventTitle(data: EventData): string {
  return data.eventTitle?.trim() ? data.eventTitle : `Event at ${data.location}`;
}

function eventTimes(data: EventData): { start: Date; end: Date | undefined } {
  const start = parseDateTimeInZone(data.startDateTime, data.timezone);
  if (!start) throw new RangeError(`Unreadable event start: ${data.startDateTime} (${data.timezone})`);
  const end = data.endDateTime ? parseDateTimeInZone(data.endDateTime, data.timezone) ?? undefined : undefined;
  return { start, end };
}

/**
 * An iCalendar UTC date-time (`19691231T230000Z`), written by us: the ics library refuses
 * instants before 1970 when given as timestamps, and writes a string as it is.
 */
function icsUtc(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/[-:]/g, '');
}

/** iCalendar text may not carry a bare CR: it would end the content line. */
function calendarText(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

export function renderIcs(data: EventData, opts: { uid: string; url: string }): string {
  const { start, end } = eventTimes(data);
  const description = [
    data.description,
    data.organizerName?.trim() ? `Organizer: ${data.organizerName}` : undefined,
    data.registrationUrl ? `Registration: ${data.registrationUrl}` : undefined,
  ]
    .filter(Boolean)
    .join('\n\n');
  const { error, value } = createEvent({
    productId: 'qrlinks',
    uid: opts.uid,
    url: opts.url,
    title: calendarText(eventTitle(data)),
    description: calendarText(description),
    location: calendarText(data.location),
    start: icsUtc(start),
    end: icsUtc(end ?? new Date(start.getTime() + DEFAULT_EVENT_DURATION_MINUTES * 60_000)),
  });
  if (error || !value) throw error ?? new Error('ics produced no calendar');
  return value;
}

/** "Thursday, December 24, 2026, 7:00 – 11:00 PM GMT+1", in the event's own time zone. */
function formatWhen(data: EventData): string {
  const { start, end } = eventTimes(data);
  const format = new Intl.DateTimeFormat('en', {
    timeZone: data.timezone,
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  });
  return end ? format.formatRange(start, end) : format.format(start);
}

// The image is cropped to a band, so the main action stays on the first screen of a phone.
const STYLES = '.hero{display:block;width:100%;max-height:11rem;object-fit:cover;border-radius:.75rem;margin:0 0 1rem}.ended{font-weight:600}';

/** The file name the event's calendar file is saved under: its title. */
export function eventFileName(data: EventData): string {
  return downloadName(eventTitle(data), 'event', 'ics');
}

/** The event's start and end (an event without one lasts DEFAULT_EVENT_DURATION_MINUTES). */
function eventSpan(data: EventData): { start: Date; end: Date } {
  const { start, end } = eventTimes(data);
  return { start, end: end ?? new Date(start.getTime() + DEFAULT_EVENT_DURATION_MINUTES * 60_000) };
}

/** 20261224T180000Z, the compact UTC form Google Calendar's dates take. */
const compactUtc = (at: Date) => icsUtc(at);

/**
 * "Add to Google Calendar": the calendar's event-template link (`/calendar/render?action=TEMPLATE`
 * with text, dates as start/end in compact UTC, details and location), which opens the signed-in
 * user's calendar with the event filled in.
 */
export function googleCalendarHref(data: EventData): string {
  const { start, end } = eventSpan(data);
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: eventTitle(data),
    dates: `${compactUtc(start)}/${compactUtc(end)}`,
    details: data.description ?? '',
    location: data.location,
  });
  return `https://calendar.google.com/calendar/render?${params}`;
}

/** "Add to Outlook": Outlook on the web's compose deep link (`/calendar/action/compose`, ISO instants). */
export function outlookCalendarHref(data: EventData): string {
  const { start, end } = eventSpan(data);
  const params = new URLSearchParams({
    path: '/calendar/action/compose',
    rru: 'addevent',
    subject: eventTitle(data),
    startdt: start.toISOString(),
    enddt: end.toISOString(),
    body: data.description ?? '',
    location: data.location,
  });
  return `https://outlook.live.com/calendar/0/action/compose?${params}`;
}

export function renderEventPage(link: ResolvedLink, data: EventData, urls: PageUrls, scanner: Scanner, _locale: PageLocale): PageContent {
  const title = eventTitle(data);
  const [image] = data.image ? linkFiles(link, [data.image.fileId]) : [];
  const registration = checkedUrl(data.registrationUrl, ['http', 'https']);
  const ended = eventSpan(data).end.getTime() <= scanner.now;
  // Before its end, the calendar actions come first, under the title and time; after it, a note.
  return {
    title,
    styles: STYLES,
    content: html`<h1>${title}</h1>
<dl class="facts card">
<dt>When</dt><dd>${formatWhen(data)}<br><span class="muted">Time zone: ${data.timezone}</span></dd>
<dt>Where</dt><dd>${data.location}</dd>
${data.organizerName?.trim() && html`<dt>Organizer</dt><dd>${data.organizerName}</dd>`}
</dl>
${ended
  ? html`<p class="card ended" role="status">This event has ended.</p>`
  : html`<a class="button" href="${urls.ics}">Add to calendar</a>
<a class="button secondary" href="${googleCalendarHref(data)}">Add to Google Calendar</a>
<a class="button secondary" href="${outlookCalendarHref(data)}">Add to Outlook</a>
${registration && html`<a class="button secondary" href="${registration}">Register</a>`}`}
${image && pictureTag(imageSources(image, urls.file), { className: 'hero', alt: imageAlt(data.eventTitle, 0, 1), sizes: COLUMN_SIZES, lazy: true })}
<p class="text">${data.description}</p>`,
  };
}
