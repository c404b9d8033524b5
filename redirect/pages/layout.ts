/**
 * The one layout of every hosted page, and the headers every page is sent with.
 *
 * Pages are self-contained: one small inline stylesheet, no scripts, fonts, external stylesheets
 * or images, so the Content-Security-Policy can forbid everything else. Inline styles are allowed
 * ('unsafe-inline' for styles only) because the link-in-bio design and sanitized landing HTML
 * carry style attributes; with every fetch other than same-origin images refused, CSS has
 * nothing to load or leak through.
 */
import { html, SafeHtml } from './html.js';
import type { Page } from './types.js';

/**
 * The policy of every page. Only a form's target may differ (`formAction`): Chromium applies
 * form-action to every redirect that follows a submission, so the password form, whose answer
 * ends at the link's destination, must allow any http(s) target.
 */
export function contentSecurityPolicy(formAction = "'self'"): string {
  return [
    "default-src 'none'",
    "img-src 'self' data:",
    "style-src 'unsafe-inline'",
    `form-action ${formAction}`,
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** The headers of every page. Pages reflect the live state of their link, so nothing is cached. */
export const pageHeaders: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
});

// Light and dark palettes both keep body text and buttons above WCAG AA contrast. The link colour
// has no specificity, so any class (.button) or inline style overrides it.
const BASE_STYLES = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1f;--muted:#585863;--line:#d6d6de;--card:#f3f3f6;--accent:#0a57c2;--on-accent:#fff;--danger:#b3261e}
@media (prefers-color-scheme:dark){:root{--bg:#121216;--fg:#ececf1;--muted:#a9a9b3;--line:#3a3a44;--card:#1e1e25;--accent:#8ab4f8;--on-accent:#0b1a33;--danger:#f2b8b5}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:1.0625rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-text-size-adjust:100%}
main{max-width:36rem;margin:0 auto;padding:2rem 1.25rem 3rem}
h1{font-size:1.75rem;line-height:1.2;margin:0 0 .75rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
h1,h2,p,dd,li{overflow-wrap:anywhere}
p,dl,ul,ol{margin:0 0 1rem}
:where(a[href]){color:var(--accent)}
img{max-width:100%;height:auto}
:focus-visible{outline:3px solid var(--accent);outline-offset:3px}
.muted{color:var(--muted)}
.text{white-space:pre-line}
.card{background:var(--card);border:1px solid var(--line);border-radius:1rem;padding:1rem 1.25rem;margin:0 0 1rem}
.card>:last-child{margin-bottom:0}
.button{display:flex;align-items:center;justify-content:center;width:100%;min-height:3rem;padding:.75rem 1.25rem;margin:0 0 .75rem;border:0;border-radius:.75rem;background:var(--accent);color:var(--on-accent);font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer}
.button.secondary{background:var(--card);color:var(--fg);border:1px solid var(--line)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.5rem 1rem}
.facts dt{color:var(--muted)}
.facts dd{margin:0}
`.replace(/\n/g, '');

export interface HtmlPageOptions {
  status?: number;
  title: string;
  content: SafeHtml;
  /** CSS only this page needs, appended to the shared stylesheet. */
  styles?: string;
  /** A style attribute for `<body>` (the link-in-bio design); escaped like any attribute. */
  bodyStyle?: string;
  /** Headers on top of `pageHeaders` (e.g. Retry-After). */
  headers?: Record<string, string>;
}

/**
 * A complete page: the layout around `content`, and every header it must be sent with (the
 * security headers included), so a route sends `status`, `headers` and `body` as they are.
 */
export function htmlPage({ status = 200, title, content, styles = '', bodyStyle, headers }: HtmlPageOptions): Page {
  // Styles are this module's constants, never user data, and <style> content must not be escaped.
  // The empty data: icon stops browsers from asking for /favicon.ico on every scan.
  const body = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><link rel="icon" href="data:,"><title>${title}</title><style>${new SafeHtml(BASE_STYLES + styles)}</style></head>
<body${bodyStyle ? html` style="${bodyStyle}"` : ''}><main>${content}</main></body></html>
`;
  return { status, body: body.value, headers: { ...pageHeaders, ...headers } };
}
