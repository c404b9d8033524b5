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
import { checkedUrl, html } from './html.js';
import { htmlPage } from './layout.js';
import { imageAlt, linkFiles } from './files.js';
import type { Page, PageUrls } from './types.js';

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

const STYLES = '.hero{display:block;width:100%;border-radius:.75rem;margin:0 0 1rem}';

export function renderEventPage(link: ResolvedLink, data: EventData, urls: PageUrls): Page {
  const title = eventTitle(data);
  const [image] = data.image ? linkFiles(link, [data.image.fileId]) : [];
  const registration = checkedUrl(data.registrationUrl, ['http', 'https']);
  return htmlPage({
    title,
    styles: STYLES,
    content: html`${image && html`<img class="hero" src="${urls.file(image.id)}" alt="${imageAlt(image, 0, 1)}">`}
<h1>${title}</h1>
<dl class="facts card">
<dt>When</dt><dd>${formatWhen(data)}<br><span class="muted">Time zone: ${data.timezone}</span></dd>
<dt>Where</dt><dd>${data.location}</dd>
${data.organizerName?.trim() && html`<dt>Organizer</dt><dd>${data.organizerName}</dd>`}
</dl>
<p class="text">${data.description}</p>
<a class="button" href="${urls.ics}">Add to calendar</a>
${registration && html`<a class="button secondary" href="${registration}">Register</a>`}`,
  });
}
