/** The pages a scan gets instead of its link: unknown or unavailable, password form, service down. */
import { html } from './html.js';
import { contentSecurityPolicy, htmlPage } from './layout.js';
import type { Page, UnavailableReason } from './types.js';

const UNAVAILABLE: Record<UnavailableReason, { status: number; title: string; message: string }> = {
  not_found: {
    status: 404,
    title: 'Link not found',
    message: 'This QR code or short link does not lead anywhere. Check the address, or ask whoever shared it for a new one.',
  },
  paused: {
    status: 410,
    title: 'This link is paused',
    message: 'Its owner has paused it for now. Please try again later.',
  },
  scheduled: {
    status: 410,
    title: 'This link is not active yet',
    message: 'It has been set up to start later. Please come back when it goes live.',
  },
  expired: {
    status: 410,
    title: 'This link has expired',
    message: 'It was only available for a limited time, and that time is over.',
  },
  limit_reached: {
    status: 410,
    title: 'This link has reached its limit',
    message: 'It has already been opened as many times as its owner allowed.',
  },
  // Only a row written outside the api can get here (the api stores valid URLs only); nothing was counted.
  broken_destination: {
    status: 502,
    title: 'This link cannot be opened',
    message: 'Its destination is not a valid web address. Please let whoever shared it know.',
  },
};

export function renderUnavailablePage(reason: UnavailableReason): Page {
  const { status, title, message } = UNAVAILABLE[reason];
  return htmlPage({ status, title, content: html`<h1>${title}</h1><p>${message}</p>` });
}

/** How long a scanner is told to wait when the service is briefly unavailable. */
const SERVICE_RETRY_AFTER_SECONDS = 5;

export function renderServiceUnavailablePage(): Page {
  return htmlPage({
    status: 503,
    title: 'Please try again',
    content: html`<h1>Please try again in a moment</h1><p>We could not open this link just now. Reload the page in a few seconds.</p>`,
    headers: { 'Retry-After': String(SERVICE_RETRY_AFTER_SECONDS) },
  });
}

/** What each client error tells the scanner: the cause, and what to do about it. */
const CLIENT_ERRORS: Record<number, { title: string; message: string }> = {
  400: {
    title: 'This request could not be read',
    message: 'The address is not valid, or what was sent with it is malformed. Open the link again from its QR code.',
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
  return htmlPage({
    status,
    title,
    content: html`<h1>${title}</h1><p>${message}</p>`,
    ...(allow ? { headers: { Allow: allow } } : {}),
  });
}

/** A client that asked for too many unknown links this window (429; see NotFoundLimit). */
export function renderTooManyNotFoundPage(retryAfterSeconds: number): Page {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds));
  return htmlPage({
    status: 429,
    title: 'Too many unknown links',
    content: html`<h1>Too many unknown links</h1><p>This network has asked for many links that do not exist. Please wait ${waitText(retryAfter)} and try again.</p>`,
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
}

/** 200 with the form; 401 after a wrong password; 429 with Retry-After after too many attempts. */
export function renderPasswordPage({ action, error, retryAfterSeconds }: PasswordPageOptions): Page {
  const retryAfter = Math.max(1, Math.ceil(retryAfterSeconds ?? DEFAULT_PASSWORD_RETRY_SECONDS));
  const alert =
    error === 'wrong'
      ? 'That password is not right. Please try again.'
      : error === 'too_many'
        ? `Too many attempts. Please wait ${waitText(retryAfter)} and try again.`
        : undefined;
  return htmlPage({
    status: error === 'wrong' ? 401 : error === 'too_many' ? 429 : 200,
    title: 'Password required',
    styles:
      'label{display:block;font-weight:600;margin:0 0 .25rem}' +
      'input{display:block;width:100%;min-height:3rem;padding:.5rem .75rem;margin:0 0 1rem;font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:.5rem}' +
      '.alert{border-left:4px solid var(--danger);padding:.5rem .75rem;background:var(--card)}',
    content: html`<h1>This link is protected</h1>
<p>Enter the password you were given to open it.</p>
${alert && html`<p class="alert" role="alert">${alert}</p>`}
<form method="post" action="${action}"><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256"${error ? '' : html` autofocus`}>
<button class="button" type="submit">Open link</button></form>`,
    headers: {
      // The answer to the form redirects to the link's destination, wherever that is.
      'Content-Security-Policy': contentSecurityPolicy("'self' http: https:"),
      ...(error === 'too_many' ? { 'Retry-After': String(retryAfter) } : {}),
    },
  });
}

function waitText(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
