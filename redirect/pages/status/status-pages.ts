/** The pages a scan gets instead of its link: unknown or unavailable, password form, service down. */
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import { html, type SafeHtml } from '../common/html.js';
import { publicFileUrl } from '../common/file-urls.js';
import { icon, type IconName } from '../common/icons.js';
import { BRAND_MARK_STYLES, brandMark, contentSecurityPolicy, htmlPage, pageBrand, websiteHost, type PageBrand } from '../common/layout.js';
import { layoutText } from '../common/layout-messages.js';
import { dateTimeFormat, ENGLISH, pageLocale, zoneCity, type PageLocale } from '../common/locale.js';
import { statusText } from './status-messages.js';
import type { Page, UnavailableReason } from '../common/types.js';

type StatusKey = Parameters<typeof statusText>[1];

const UNAVAILABLE: Record<UnavailableReason, { status: number; title: StatusKey; message: StatusKey; icon: IconName }> = {
  not_found: { status: 404, title: 'notFoundTitle', message: 'notFoundMessage', icon: 'question' },
  paused: { status: 410, title: 'pausedTitle', message: 'pausedMessage', icon: 'pause' },
  scheduled: { status: 410, title: 'scheduledTitle', message: 'scheduledMessage', icon: 'clock' },
  expired: { status: 410, title: 'expiredTitle', message: 'expiredMessage', icon: 'hourglass' },
  limit_reached: { status: 410, title: 'limitTitle', message: 'limitMessage', icon: 'blocked' },
  // Only a row written outside the api can get here (the api stores valid URLs only); nothing was counted.
  broken_destination: { status: 502, title: 'brokenTitle', message: 'brokenMessage', icon: 'alert' },
};

/** Status pages are a card in the middle of the screen: an icon, the heading, what it means. */
const STATUS_STYLES =
  'main{min-height:100vh;min-height:100dvh;display:flex;align-items:center;justify-content:center}' +
  '.status-card{width:100%;max-width:26rem;text-align:center;background:var(--card);border:1px solid var(--line);border-radius:1.25rem;padding:2rem 1.5rem}' +
  '.status-card .icon{color:var(--accent);margin:0 auto 1rem;display:block}.status-card h1{font-size:1.4rem}.status-card p:last-child{margin-bottom:0}' +
  '.when{font-weight:600}.visit{margin:1.25rem 0 0}.visit .button{margin:0}';

/**
 * A status page; a brand is shown inside the card (its logo and name: whose link this is), as the
 * layout's banner would sit beside a card centred in a flex row.
 */
function statusPage(options: {
  status: number;
  title: string;
  icon: IconName;
  body: SafeHtml;
  styles?: string;
  headers?: Record<string, string>;
  brand?: PageBrand | null;
  locale: PageLocale;
}): Page {
  const brand = options.brand ?? null;
  // The way back to the business, also when its link cannot be opened.
  const visit =
    brand?.website &&
    html`<p class="visit"><a class="button secondary" href="${brand.website}">${layoutText(options.locale, 'visit', { name: brand.title || websiteHost(brand.website) })}</a></p>`;
  return htmlPage({
    status: options.status,
    title: options.title,
    brand,
    locale: options.locale,
    brandHeader: false,
    styles: STATUS_STYLES + (brand ? BRAND_MARK_STYLES : '') + (options.styles ?? ''),
    content: html`<section class="status-card">${brand && brandMark(brand)}${icon(options.icon, 48)}<h1>${options.title}</h1>${options.body}${visit}</section>`,
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether `at` is midnight in `zone`: how a schedule given as dates starts and ends (scheduleEnd). */
function isMidnightIn(at: number, zone: string): boolean {
  const parts = dateTimeFormat(ENGLISH, {
    timeZone: zone,
    hourCycle: 'h23',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  return parts.filter((p) => p.type === 'hour' || p.type === 'minute' || p.type === 'second').every((p) => Number(p.value) === 0);
}

/**
 * When a schedule starts or ends, in its zone, named by its city, in the page's language:
 * "Thursday, December 24, 2026 at 7:00 PM (Paris time)". A start at midnight is that day; an end
 * at midnight is the end of the day before (an end date of 30 November is stored as 1 December,
 * 00:00: "through the 30th").
 */
function formatScheduleInstant(at: number, timeZone: string | null, edge: 'start' | 'end', locale: PageLocale): string {
  const zone = timeZone ?? 'UTC';
  // Half a day back from a midnight end is still the day before, whatever a daylight-saving change did to its length.
  const when = isMidnightIn(at, zone)
    ? dateTimeFormat(locale, { timeZone: zone, dateStyle: 'full' }).format(edge === 'end' ? at - DAY_MS / 2 : at)
    : dateTimeFormat(locale, { timeZone: zone, dateStyle: 'full', timeStyle: 'short' }).format(at);
  return zone === 'UTC' ? `${when} (UTC)` : statusText(locale, 'inZone', { when, city: zoneCity(zone) });
}

/**
 * What a status page knows of its link: its schedule (to say when it opens or ended) and, when
 * given, its owner's brand. A protected link's logo and cover are left out: its files are served
 * only to visitors who have unlocked it.
 */
export type StatusLink = Pick<ResolvedLink, 'startDate' | 'endDate' | 'scheduleTimezone'> &
  Partial<Pick<ResolvedLink, 'pageStyle' | 'files' | 'passwordHash'>>;

/** The brand a status page of `link` shows (public file URLs, no images for a protected link). */
export function statusBrand(link: Partial<Pick<ResolvedLink, 'pageStyle' | 'files' | 'passwordHash'>> | undefined): PageBrand | null {
  if (!link?.pageStyle) return null;
  if (!link.passwordHash) return pageBrand({ pageStyle: link.pageStyle, files: link.files ?? [] }, { file: publicFileUrl });
  // A protected link shows whose it is, and nothing of what it holds: no files, no description.
  const { description: _description, ...style } = link.pageStyle;
  return pageBrand({ pageStyle: style, files: [] }, { file: publicFileUrl });
}

export function renderUnavailablePage(reason: UnavailableReason, schedule?: StatusLink, acceptLanguage?: string): Page {
  const { status, title, message, icon } = UNAVAILABLE[reason];
  // The owner's language, else the visitor's (Accept-Language), else English.
  const locale = pageLocale(schedule?.pageStyle?.language, acceptLanguage);
  let when: SafeHtml | null = null;
  if (reason === 'scheduled' && schedule?.startDate != null)
    when = html`<p class="when">${statusText(locale, 'opensOn', { when: formatScheduleInstant(schedule.startDate, schedule.scheduleTimezone, 'start', locale) })}</p>`;
  if (reason === 'expired' && schedule?.endDate != null)
    when = html`<p class="when">${statusText(locale, 'endedOn', { when: formatScheduleInstant(schedule.endDate, schedule.scheduleTimezone, 'end', locale) })}</p>`;
  return statusPage({
    status,
    title: statusText(locale, title),
    icon,
    body: html`${when}<p>${statusText(locale, message)}</p>`,
    brand: statusBrand(schedule),
    locale,
  });
}

const notFoundPages = new Map<string, Page>();
const NOT_FOUND_PAGES_MAX = 64;

/** The 404 page in the visitor's language: the same for every unknown slug, so made once per language. */
export function notFoundPage(acceptLanguage: string | undefined): Page {
  const locale = pageLocale(undefined, acceptLanguage);
  let page = notFoundPages.get(locale.tag);
  if (!page) {
    if (notFoundPages.size >= NOT_FOUND_PAGES_MAX) notFoundPages.clear();
    page = renderUnavailablePage('not_found', undefined, acceptLanguage);
    notFoundPages.set(locale.tag, page);
  }
  return page;
}

/** How long a scanner is told to wait when the service is briefly unavailable. */
const SERVICE_RETRY_AFTER_SECONDS = 5;

export function renderServiceUnavailablePage(acceptLanguage?: string): Page {
  const locale = pageLocale(undefined, acceptLanguage);
  return statusPage({
    status: 503,
    title: statusText(locale, 'unavailableTitle'),
    icon: 'alert',
    body: html`<p>${statusText(locale, 'unavailableMessage')}</p>`,
    headers: { 'Retry-After': String(SERVICE_RETRY_AFTER_SECONDS) },
    locale,
  });
}

/** The client errors that have words of their own; any other is told as a 400. */
const CLIENT_ERRORS = [400, 403, 405, 408, 413, 414, 415, 431] as const;
type ClientError = (typeof CLIENT_ERRORS)[number];

/**
 * A request the client got wrong, from the framework or Node's HTTP parser (a malformed path, a
 * body of the wrong type or size, headers too large...): its status, a message naming the cause
 * (never the request's own text), and no "try again later" advice. `allow` for a 405.
 */
export function renderClientErrorPage(status: number, allow?: string, acceptLanguage?: string): Page {
  const locale = pageLocale(undefined, acceptLanguage);
  const known: ClientError = (CLIENT_ERRORS as readonly number[]).includes(status) ? (status as ClientError) : 400;
  return statusPage({
    status,
    title: statusText(locale, `error${known}Title`),
    icon: 'alert',
    body: html`<p>${statusText(locale, `error${known}Message`)}</p>`,
    locale,
    ...(allow ? { headers: { Allow: allow } } : {}),
  });
}

/** A client that asked for too many unknown links this window (429; see NotFoundLimit). */
export function renderTooManyNotFoundPage(retryAfterSeconds: number, acceptLanguage?: string): Page {
  const locale = pageLocale(undefined, acceptLanguage);
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
  return statusPage({
    status: 429,
    title: statusText(locale, 'tooManyTitle'),
    icon: 'blocked',
    body: html`<p>${statusText(locale, 'tooManyMessage', { wait: waitText(retryAfter, locale) })}</p>`,
    headers: { 'Retry-After': String(retryAfter) },
    locale,
  });
}

/** Used when the route does not say how long to wait after too many attempts. */
const DEFAULT_PASSWORD_RETRY_SECONDS = 60;

export interface PasswordPageOptions {
  /** Where the form posts `password` (application/x-www-form-urlencoded). */
  action: string;
  error?: 'wrong' | 'too_many';
  retryAfterSeconds?: number;
  /** The link's owner's brand (statusBrand: without images, the link being protected). */
  brand?: PageBrand | null;
  /** The link's page style's language, else the visitor's; default English. */
  locale?: PageLocale;
}

/** 200 with the form; 401 after a wrong password; 429 with Retry-After after too many attempts. */
export function renderPasswordPage({ action, error, retryAfterSeconds, brand, locale = ENGLISH }: PasswordPageOptions): Page {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds ?? DEFAULT_PASSWORD_RETRY_SECONDS));
  const alert =
    error === 'wrong'
      ? statusText(locale, 'wrongPassword')
      : error === 'too_many'
        ? statusText(locale, 'tooManyAttempts', { wait: waitText(retryAfter, locale) })
        : undefined;
  return statusPage({
    status: error === 'wrong' ? 401 : error === 'too_many' ? 429 : 200,
    title: statusText(locale, 'protectedTitle'),
    icon: 'lock',
    brand,
    locale,
    body: html`<p>${statusText(locale, 'protectedMessage')}</p>
${alert && html`<p class="alert" role="alert">${alert}</p>`}
<form method="post" action="${action}"><label for="password">${statusText(locale, 'passwordLabel')}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${error ? '' : html` autofocus`}>
<button class="button" type="submit">${statusText(locale, 'openLink')}</button></form>`,
    styles:
      'form{text-align:left}label{display:block;font-weight:600;margin:0 0 .25rem}' +
      'input{display:block;width:100%;min-height:3rem;padding:.5rem .75rem;margin:0 0 1rem;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:.5rem}' +
      '.alert{text-align:left;border-left:4px solid var(--danger);padding:.5rem .75rem;background:var(--bg)}',
    headers: {
      // The answer to the form redirects to the link's destination, wherever that is.
      'Content-Security-Policy': contentSecurityPolicy({ formAction: "'self' http: https:" }),
      ...(error === 'too_many' ? { 'Retry-After': String(retryAfter) } : {}),
    },
  });
}

function waitText(seconds: number, locale: PageLocale): string {
  if (seconds < 60) return seconds === 1 ? statusText(locale, 'second') : statusText(locale, 'seconds', { count: seconds });
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? statusText(locale, 'minute') : statusText(locale, 'minutes', { count: minutes });
}
