/**
 * The one layout of every hosted page, and the headers every page is sent with.
 *
 * Pages are self-contained: one small inline stylesheet, at most one small inline script allowed
 * by its hash (only enhancing: the page works without it), no fonts, external stylesheets or
 * images, so the Content-Security-Policy can forbid everything else. Inline styles are allowed
 * ('unsafe-inline' for styles only) because the link-in-bio design and sanitized landing HTML
 * carry style attributes; with every fetch other than same-origin images refused, CSS has
 * nothing to load or leak through.
 */
import { createHash } from 'node:crypto';
import { html, SafeHtml } from './html.js';
import { imageSources, pictureTag, type ImageSources } from './images.js';
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import { AA_CONTRAST, contrastRatio, isHexColor, textColorOn } from '#domain/colour-contrast.js';
import { ENGLISH, localeHeaders, type PageLocale } from './locale.js';
import { layoutText } from './layout-messages.js';
import type { Page, PageUrls } from './types.js';

export interface PolicyOptions {
  /**
   * Where a form may submit. Chromium applies form-action to every redirect that follows a
   * submission, so the password form, whose answer ends at the link's destination, must allow
   * any http(s) target.
   */
  formAction?: string;
  /** Inline scripts allowed by hash ('sha256-…'); pages work without them, scripts only enhance. */
  scriptHashes?: readonly string[];
  /** The one origin that may frame the page (a menu preview, framed by the console); none: no frame. */
  frameAncestor?: string;
}

/** The policy of every page: only a form's target, a page's own hashed scripts and a preview's framer may differ. */
export function contentSecurityPolicy({ formAction = "'self'", scriptHashes = [], frameAncestor }: PolicyOptions = {}): string {
  return [
    "default-src 'none'",
    ...(scriptHashes.length > 0 ? [`script-src ${scriptHashes.map((h) => `'${h}'`).join(' ')}`] : []),
    "img-src 'self' data:",
    // Same-origin reads only: a page's own hashed scripts make none, but a crawler reading the
    // site's /robots.txt from within the page (Lighthouse does) would otherwise be refused.
    "connect-src 'self'",
    "style-src 'unsafe-inline'",
    `form-action ${formAction}`,
    "base-uri 'none'",
    `frame-ancestors ${frameAncestor ?? "'none'"}`,
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

// `picture{display:contents}` lets the <img> be the flex or grid item its page styles; a <source>
// is not display:none by default, so it would become an empty item of its own (a grid cell, a gap).
// Buttons never split a word: `anywhere` (inherited from a list item) would let a narrow column
// shrink them to a few letters a line; `break-word` breaks only a word longer than the line.
// Light and dark palettes both keep body text and buttons above WCAG AA contrast. The link colour
// has no specificity, so any class (.button) or inline style overrides it.
const LIGHT_PALETTE =
  '--bg:#fff;--fg:#1b1b1f;--muted:#585863;--line:#d6d6de;--card:#f3f3f6;--accent:#0a57c2;--on-accent:#fff;--danger:#b3261e';

/**
 * A page whose owner chose its colours (a landing's inline colours) stays light in dark mode: the
 * owner's dark text on a dark page would not read, and a page is not ours to recolour.
 */
export const LIGHT_ONLY_STYLES = `:root{color-scheme:light}@media (prefers-color-scheme:dark){:root{${LIGHT_PALETTE}}}`;

const BASE_STYLES = `
:root{color-scheme:light dark;${LIGHT_PALETTE}}
@media (prefers-color-scheme:dark){:root{--bg:#121216;--fg:#ececf1;--muted:#a9a9b3;--line:#3a3a44;--card:#1e1e25;--accent:#8ab4f8;--on-accent:#0b1a33;--danger:#f2b8b5}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:1.0625rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;-webkit-text-size-adjust:100%}
main{max-width:36rem;margin:0 auto;padding:2rem 1.25rem 3rem}
h1{font-size:1.75rem;line-height:1.2;margin:0 0 .75rem}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
h1,h2,p,dd,li{overflow-wrap:anywhere}
p,dl,ul,ol{margin:0 0 1rem}
:where(a[href]){color:var(--accent)}
img{max-width:100%;height:auto}picture{display:contents}source{display:none}
:focus-visible{outline:3px solid var(--accent);outline-offset:3px}
.muted{color:var(--muted)}
.text{white-space:pre-line}
.card{background:var(--card);border:1px solid var(--line);border-radius:1rem;padding:1rem 1.25rem;margin:0 0 1rem}
.card>:last-child{margin-bottom:0}
.button{display:flex;align-items:center;justify-content:center;width:100%;min-height:3rem;padding:.75rem 1.25rem;margin:0 0 .75rem;border:0;border-radius:.75rem;background:var(--accent);color:var(--on-accent);font:inherit;font-weight:600;text-align:center;text-decoration:none;cursor:pointer;overflow-wrap:break-word}
.button.secondary{background:var(--card);color:var(--fg);border:1px solid var(--line)}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.5rem 1rem}
.facts dt{color:var(--muted)}
.facts dd{margin:0}
`.replace(/\n/g, '');

/** What a page renderer makes: everything of a page but the layout's share (brand, lang). */
export type PageContent = HtmlPageOptions;

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
  /** The link owner's brand (pageBrand); none: the default look. */
  brand?: PageBrand | null;
  /** The page's language (its `lang`); default English. */
  locale?: PageLocale;
  /** What the page is about, for link previews; the brand's description wins, a generic line otherwise. */
  description?: string;
  /** The page's own absolute address (og:url), against which a preview image's address is made absolute. */
  pageUrl?: string;
  /** false: the page shows the brand itself (brandMark), the layout only applies its colours. */
  brandHeader?: boolean;
  /**
   * A script of this module's kind (a constant, never user data) run at the end of the page and
   * allowed by its hash in the page's CSP. Scripts only enhance: every page works without them.
   */
  script?: PageScript;
}

/** An inline script and its CSP hash, computed once. */
export class PageScript {
  readonly hash: string;
  constructor(readonly source: string) {
    this.hash = `sha256-${createHash('sha256').update(source).digest('base64')}`;
  }
}

/**
 * A complete page: the layout around `content`, and every header it must be sent with (the
 * security headers included), so a route sends `status`, `headers` and `body` as they are.
 */
export function htmlPage(options: HtmlPageOptions): Page {
  const {
    status = 200,
    title,
    content,
    styles = '',
    bodyStyle,
    headers,
    script,
    brand,
    locale = ENGLISH,
    brandHeader: withHeader = true,
  } = options;
  // Styles are this module's constants, never user data, and <style> content must not be escaped.
  // Without a logo, the empty data: icon stops browsers from asking for /favicon.ico on every scan.
  const body = html`<!doctype html>
<html lang="${locale.tag}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="referrer" content="no-referrer"><link rel="icon" href="${brand?.logo?.smallest ?? 'data:,'}"><title>${title}</title>${previewTags(options, locale)}<style>${new SafeHtml(BASE_STYLES + (brand ? brandStyles(brand) : '') + styles)}</style></head>
<body${bodyStyle ? html` style="${bodyStyle}"` : ''}><main>${brand && withHeader && brandHeader(brand)}${content}${brand && withHeader && websiteFooter(brand, locale)}</main>${script && html`<script>${new SafeHtml(script.source)}</script>`}</body></html>
`;
  const policy: Record<string, string> = script
    ? { 'Content-Security-Policy': contentSecurityPolicy({ scriptHashes: [script.hash] }) }
    : {};
  return { status, body: body.value, headers: { ...pageHeaders, ...localeHeaders(locale), ...policy, ...headers } };
}

/**
 * What a chat app or a social network shows for a shared link: the description (meta and og), the
 * title, the brand's name, and its cover (else logo) as the image, by absolute address.
 */
function previewTags({ title, description, pageUrl, brand }: HtmlPageOptions, locale: PageLocale): SafeHtml {
  const text = brand?.description || description || layoutText(locale, 'defaultDescription', { title });
  const picture = brand?.cover ?? brand?.logo;
  const image = picture && pageUrl ? new URL(picture.src, pageUrl).href : undefined;
  return html`<meta name="description" content="${text}"><meta property="og:type" content="website"><meta property="og:title" content="${title}"><meta property="og:description" content="${text}">${
    pageUrl && html`<meta property="og:url" content="${pageUrl}">`
  }${brand?.title && html`<meta property="og:site_name" content="${brand.title}">`}${image && html`<meta property="og:image" content="${image}">`}<meta name="twitter:card" content="${
    image && brand?.cover ? 'summary_large_image' : 'summary'
  }">`;
}

// ---------------------------------------------------------------------------------------------
// The owner's brand (a link's pageStyle): accent colours, logo, cover, title, description, website.

/** What the layout shows of a link's page style, its files resolved to URLs. */
export interface PageBrand {
  accentColor?: string;
  accentColorDark?: string;
  logo?: ImageSources;
  cover?: ImageSources;
  /** Who the page is from, as the owner wrote it: the logo's text alternative (empty: the logo is decoration). */
  title: string;
  description?: string;
  /** The way back to the business. */
  website?: string;
}

/** The brand of a link's page, from its page style; its logo and cover only when they are files the link has. */
export function pageBrand(link: Pick<ResolvedLink, 'pageStyle' | 'files'>, urls: Pick<PageUrls, 'file'>): PageBrand | null {
  const style = link.pageStyle;
  if (!style) return null;
  const image = (ref: { fileId: string } | undefined) => {
    const file = ref && link.files.find((f) => f.id.toLowerCase() === ref.fileId.toLowerCase() && f.contentType.startsWith('image/'));
    return file ? imageSources(file, urls.file) : undefined;
  };
  return {
    title: style.title?.trim() ?? '',
    ...(style.description?.trim() ? { description: style.description.trim() } : {}),
    ...(style.website ? { website: style.website } : {}),
    ...(style.accentColor ? { accentColor: style.accentColor } : {}),
    ...(style.accentColorDark ? { accentColorDark: style.accentColorDark } : {}),
    ...(image(style.logo) ? { logo: image(style.logo)! } : {}),
    ...(image(style.cover) ? { cover: image(style.cover)! } : {}),
  };
}

const LIGHT_BACKGROUND = '#ffffff';
const DARK_BACKGROUND = '#121216';

/**
 * The accent where it is readable as link text on the page's background (WCAG AA, 4.5:1), in
 * light and dark mode; where it is not, the default accent stays. Button text is black or white.
 */
function brandStyles(brand: PageBrand): string {
  const light =
    isHexColor(brand.accentColor) && contrastRatio(brand.accentColor, LIGHT_BACKGROUND) >= AA_CONTRAST ? brand.accentColor : undefined;
  const darkCandidate = isHexColor(brand.accentColorDark) ? brand.accentColorDark : brand.accentColor;
  const dark = isHexColor(darkCandidate) && contrastRatio(darkCandidate, DARK_BACKGROUND) >= AA_CONTRAST ? darkCandidate : undefined;
  return (
    (light ? `:root{--accent:${light};--on-accent:${textColorOn(light)}}` : '') +
    (dark ? `@media (prefers-color-scheme:dark){:root{--accent:${dark};--on-accent:${textColorOn(dark)}}}` : '') +
    '.brand{margin:-2rem -1.25rem 1.25rem;text-align:center}.brand-cover{display:block;width:100%;height:9rem;object-fit:cover}' +
    '.brand-logo{display:block;width:4.5rem;height:4.5rem;object-fit:cover;border-radius:1rem;margin:1.25rem auto 0;background:var(--card)}' +
    '.brand-has-cover .brand-logo{margin-top:-2.25rem;border:3px solid var(--bg)}.brand-title{font-weight:600;margin:.5rem 0 0}' +
    '.site-footer{margin:2rem 0 0;padding:1rem 0 0;border-top:1px solid var(--line);text-align:center}.site-footer a{display:inline-block;padding:.5rem 0}'
  );
}

/** The cover, the logo and who the page is from; the logo's alt is empty when the title follows it. */
function brandHeader(brand: PageBrand): SafeHtml | null {
  if (!brand.logo && !brand.cover && !brand.title) return null;
  // The logo is shown 72 px wide: its smallest copy is plenty.
  return html`<header class="brand${brand.cover ? ' brand-has-cover' : ''}">${brand.cover && pictureTag(brand.cover, { className: 'brand-cover', alt: '', sizes: '(min-width: 36rem) 36rem, 100vw', priority: true })}${
    brand.logo && html`<img class="brand-logo" src="${brand.logo.smallest}" alt="" width="72" height="72">`
  }${brand.title && html`<p class="brand-title">${brand.title}</p>`}</header>`;
}

/**
 * The name a visitor sees for a link: its page style's title. Never the link's own name, which is
 * the owner's label in their list ("Table 12 flyer"); pages without a title use their type's word.
 */
export const shownName = (link: Pick<ResolvedLink, 'pageStyle'>): string => link.pageStyle?.title?.trim() ?? '';

/** The host of a website as people read it ("cafe-aroma.example"). */
export const websiteHost = (website: string) => new URL(website).host.replace(/^www\./, '');

/** The way back to the business, at the end of its pages. */
function websiteFooter(brand: PageBrand, locale: PageLocale): SafeHtml | null {
  if (!brand.website) return null;
  return html`<footer class="site-footer"><a href="${brand.website}">${layoutText(locale, 'visit', { name: brand.title || websiteHost(brand.website) })}</a></footer>`;
}

/**
 * The brand inside a page's own card (status pages): the logo, whole, above the brand's name, so a
 * visitor knows whose link this is; the name alone when there is no logo (a protected link's files
 * are not shown before it is unlocked).
 */
export function brandMark(brand: PageBrand): SafeHtml {
  return html`<div class="brand-mark">${brand.logo && html`<img class="brand-mark-logo" src="${brand.logo.smallest}" alt="" width="64" height="64">`}${
    brand.title && html`<p class="brand-mark-name">${brand.title}</p>`
  }</div>`;
}

export const BRAND_MARK_STYLES =
  '.brand-mark{margin:0 0 1rem}.brand-mark-logo{display:block;width:4rem;height:4rem;object-fit:cover;border-radius:1rem;margin:0 auto .5rem;background:var(--bg)}' +
  '.brand-mark-name{font-weight:600;margin:0}';
