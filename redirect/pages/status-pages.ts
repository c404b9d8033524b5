/** The pages a scan gets instead of its link: unknown or unavailable, password form, service down. */
import type { ResolvedLink } from '../../shared/links/resolve/resolved-link.js';
import { html, type SafeHtml } from './html.js';
import { publicFileUrl } from './file-urls.js';
import { icon, type IconName } from './icons.js';
import { BRAND_MARK_STYLES, brandMark, contentSecurityPolicy, htmlPage, pageBrand, type PageBrand } from './layout.js';
import { pageLocale, type PageLocale } from './locale.js';
import type { Page, UnavailableReason } from './types.js';

const UNAVAILABLE: Record<UnavailableReason, { status: number; title: string; message: string; icon: IconName }> = {
  not_found: {
    status: 404,
    title: 'Link not found',
    message: 'This QR code or short link does not lead anywhere. Check the address, or ask whoever shared it for a new one.',
    icon: 'question',
  },
  paused: {
    status: 410,
    title: 'This link is paused',
    message: 'Its owner has paused it for now. Please try again later.',
    icon: 'pause',
  },
  scheduled: {
    status: 410,
    title: 'This link is not active yet',
    message: 'It has been set up to start later. Please come back when it goes live.',
    icon: 'clock',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    message: 'It was only available for a limited time, and that time is over.',
    icon: 'hourglass',
  },
  limit_reached: {
    status: 410,
    title: 'This link has reached its limit',
    message: 'It has already been opened as many times as its owner allowed.',
    icon: 'blocked',
  },
  // Only a row written outside the api can get here (the api stores valid URLs only); nothing was counted.
  broken_destination: {
    status: 502,
    title: 'This link cannot be opened',
    message: 'Its destination is not a valid web address. Please let whoever shared it know.',
    icon: 'alert',
  },
};

/** Status pages are a card in the middle of the screen: an icon, the heading, what it means. */
const STATUS_STYLES =
  'main{min-height:100vh;min-height:100dvh;display:flex;align-items:center;justify-content:center}' +
  '.status-card{width:100%;max-width:26rem;text-align:center;background:var(--card);border:1px solid var(--line);border-radius:1.25rem;padding:2rem 1.5rem}' +
  '.status-card .icon{color:var(--accent);margin:0 auto 1rem;display:block}.status-card h1{font-size:1.4rem}.status-card p:last-child{margin-bottom:0}' +
  '.when{font-weight:600}';

/**
 * A status page; a brand is shown inside the card (its logo and name: whose link this is), as the
 * layout's banner would sit beside a card centred in a flex row.
 */
function statusPage(options: { status: number; title: string; icon: IconName; body: SafeHtml; styles?: string; headers?: Record<string, string>; brand?: PageBrand | null; locale?: PageLocale }): Page {
  const brand = options.brand ?? null;
  return htmlPage({
    ...(options.locale ? { locale: options.locale } : {}),
    status: options.status,
    title: options.title,
    brand,
    brandHeader: false,
    styles: STATUS_STYLES + (brand ? BRAND_MARK_STYLES : '') + (options.styles ?? ''),
    content: html`<section class="status-card">${brand && brandMark(brand)}${icon(options.icon, 48)}<h1>${options.title}</h1>${options.body}</section>`,
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whether `at` is midnight in `zone`: how a schedule given as dates starts and ends (scheduleEnd). */
function isMidnightIn(at: number, zone: string): boolean {
  const parts = new Intl.DateTimeFormat('en', { timeZone: zone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(at);
  return parts.filter((p) => p.type === 'hour' || p.type === 'minute' || p.type === 'second').every((p) => Number(p.value) === 0);
}

/**
 * When a schedule starts or ends, in its zone, with the zone's name: "Thursday, December 24, 2026
 * at 7:00 PM (Europe/Paris)". A start at midnight is that day; an end at midnight is the end of
 * the day before (an end date of 30 November is stored as 1 December, 00:00: "through the 30th").
 */
function formatScheduleInstant(at: number, timeZone: string | null, edge: 'start' | 'end'): string {
  const zone = timeZone ?? 'UTC';
  if (isMidnightIn(at, zone)) {
    // Half a day back is still the day before, whatever a daylight-saving change did to its length.
    const day = edge === 'end' ? at - DAY_MS / 2 : at;
    return `${new Intl.DateTimeFormat('en', { timeZone: zone, dateStyle: 'full' }).format(day)} (${zone})`;
  }
  return `${new Intl.DateTimeFormat('en', { timeZone: zone, dateStyle: 'full', timeStyle: 'short' }).format(at)} (${zone})`;
}

/**
 * What a status page knows of its link: its schedule (to say when it opens or ended) and, when
 * given, its owner's brand. A protected link's logo and cover are left out: its files are served
 * only to visitors who have unlocked it.
 */
export type StatusLink = Pick<ResolvedLink, 'startDate' | 'endDate' | 'scheduleTimezone'> & Partial<Pick<ResolvedLink, 'name' | 'pageStyle' | 'files' | 'passwordHash'>>;

/** The brand a status page of `link` shows (public file URLs, no images for a protected link). */
export function statusBrand(link: Partial<Pick<ResolvedLink, 'name' | 'pageStyle' | 'files' | 'passwordHash'>> | undefined): PageBrand | null {
  if (!link?.pageStyle) return null;
  const files = link.passwordHash ? [] : (link.files ?? []);
  return pageBrand({ name: link.name ?? '', pageStyle: link.pageStyle, files }, { file: publicFileUrl });
}

export function renderUnavailablePage(reason: UnavailableReason, schedule?: StatusLink): Page {
  const { status, title, message, icon } = UNAVAILABLE[reason];
  let when: SafeHtml | null = null;
  if (reason === 'scheduled' && schedule?.startDate != null) when = html`<p class="when">Opens on ${formatScheduleInstant(schedule.startDate, schedule.scheduleTimezone, 'start')}</p>`;
  if (reason === 'expired' && schedule?.endDate != null) when = html`<p class="when">Ended on ${formatScheduleInstant(schedule.endDate, schedule.scheduleTimezone, 'end')}</p>`;
  return statusPage({ status, title, icon, body: html`${when}<p>${message}</p>`, brand: statusBrand(schedule), locale: pageLocale(schedule?.pageStyle?.language, undefined) });
}

/** How long a scanner is told to wait when the service is briefly unavailable. */
const SERVICE_RETRY_AFTER_SECONDS = 5;

export function renderServiceUnavailablePage(): Page {
  return statusPage({
    status: 503,
    title: 'Please try again in a moment',
    icon: 'alert',
    body: html`<p>We could not open this link just now. Reload the page in a few seconds.</p>`,
    headers: { 'Retry-After': String(SERVICE_RETRY_AFTER_SECONDS) },
  });
}

/** What each client error tells the scanner: the cause, and what to do about it. */
const CLIENT_ERRORS: Record<number, { title: string; message: string }> = {
  400: {
    title: 'This request could not be read',
    message: 'The address is not valid, or what was sent with it is malformed. Open the link again from its QR code.',
  },
  403: {
    title: 'This form was sent from another site',
    message: 'A link’s password is only taken from the link’s own page. Open the link again and enter the password there.',
  },
  405: {
    title: 'This address cannot be opened this way',
    message: 'Short links open in a browser (a GET request); this address does not take the kind of request that was sent.',
  },
  408: {
    title: 'The request took too long',
    message: 'It did not arrive in time. Please open the link again.',
  },
  413: {
    title: 'This request is too large',
    message: 'What was sent with it is more than this page accepts. Go back to the link and try once more.',
  },
  414: {
    title: 'This address is too long',
    message: 'No short link is that long. Check the address, or scan the QR code again.',
  },
  415: {
    title: 'This form could not be read',
    message: 'It was not sent as a web form. Go back to the link and submit the form from the page.',
  },
  431: {
    title: 'The request headers are too large',
    message: 'Your browser sent more cookies or headers than this site accepts. Clearing this site’s cookies usually helps.',
  },
};

/**
 * A request the client got wrong, from the framework or Node's HTTP parser (a malformed path, a
 * body of the wrong type or size, headers too large...): its status, a message naming the cause
 * (never the request's own text), and no "try again later" advice. `allow` for a 405.
 */
export function renderClientErrorPage(status: number, allow?: string): Page {
  const { title, message } = CLIENT_ERRORS[status] ?? CLIENT_ERRORS[400]!;
  return statusPage({ status, title, icon: 'alert', body: html`<p>${message}</p>`, ...(allow ? { headers: { Allow: allow } } : {}) });
}

/** A client that asked for too many unknown links this window (429; see NotFoundLimit). */
export function renderTooManyNotFoundPage(retryAfterSeconds: number): Page {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
  return statusPage({
    status: 429,
    title: 'Too many unknown links',
    icon: 'blocked',
    body: html`<p>This network has asked for many links that do not exist. Please wait ${waitText(retryAfter)} and try again.</p>`,
    headers: { 'Retry-After': String(retryAfter) },
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
  locale?: PageLocale;
}

/** 200 with the form; 401 after a wrong password; 429 with Retry-After after too many attempts. */
export function renderPasswordPage({ action, error, retryAfterSeconds, brand, locale }: PasswordPageOptions): Page {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds ?? DEFAULT_PASSWORD_RETRY_SECONDS));
  const alert =
    error === 'wrong'
      ? 'That password is not right. Please try again.'
      : error === 'too_many'
        ? `Too many attempts. Please wait ${waitText(retryAfter)} and try again.`
        : undefined;
  return statusPage({
    status: error === 'wrong' ? 401 : error === 'too_many' ? 429 : 200,
    title: 'This link is protected',
    icon: 'lock',
    brand,
    ...(locale ? { locale } : {}),
    body: html`<p>Enter the password you were given to open it.</p>
${alert && html`<p class="alert" role="alert">${alert}</p>`}
<form method="post" action="${action}"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${error ? '' : html` autofocus`}>
<button class="button" type="submit">Open link</button></form>`,
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

function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
