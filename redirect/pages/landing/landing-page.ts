/**
 * landing links: the user's HTML, sanitized with a strict allowlist and shown inside the layout,
 * under the same script-free Content-Security-Policy as every page (defence in depth: the
 * sanitizer removes scripts, the CSP would refuse any that slipped through).
 *
 * Allowed: text structure and formatting tags, lists, tables, links, images, details/summary.
 * Never: script, style, iframe, object, embed, form and its controls, svg, math, meta, link, base,
 * event-handler attributes, class and id (nothing to hook into). Inline `style` attributes keep
 * only colours, alignment and font settings whose values cannot hold a url() or expression.
 * Links: http, https, mailto, tel, sms, or relative. Images: a base64 raster data URL or one of
 * this service's own file URLs; a remote image would be a third-party request on every scan, and
 * the CSP refuses it, so it is removed (the api refuses such HTML when it is written, so only
 * HTML stored before that check can have one). A file with web-sized copies is shown as the copy
 * the screen needs (`srcset` of the WebP copies, the JPEG copy as `src`) with width and height,
 * so the page does not jump as it loads. The page title is the first <h1>'s text.
 */
import sanitizeHtml from 'sanitize-html';
import type { LinkDataByType } from '#domain/links/data/index.js';
import { isDataImageUrl, LANDING_NON_TEXT_TAGS, relativeFileId } from '#domain/links/data/landing-images.js';
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import { isUuid } from '#platform/format/ids.js';
import { COLUMN_SIZES } from '../files/files-page.js';
import { html, trustSanitizedHtml } from '../common/html.js';
import { imageSources } from '../common/images.js';
import { LIGHT_ONLY_STYLES, type PageContent } from '../common/layout.js';
import { layoutText } from '../common/layout-messages.js';
import type { PageUrls } from '../common/types.js';
import type { PageLocale } from '../common/locale.js';

const TEXT_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'address'];
const INLINE_TAGS = [
  'a',
  'abbr',
  'b',
  'cite',
  'del',
  'em',
  'i',
  'ins',
  'kbd',
  'mark',
  'q',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
];
const BLOCK_TAGS = ['article', 'aside', 'div', 'footer', 'header', 'section', 'figure', 'figcaption', 'details', 'summary'];
const LIST_TAGS = ['ul', 'ol', 'li', 'dl', 'dt', 'dd'];
const TABLE_TAGS = ['table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'colgroup', 'col'];

const COLOUR = /^(?:#[0-9a-f]{3,8}|[a-z]+|(?:rgb|hsl)a?\([0-9a-z.,%\s/+-]*\))$/i;
const LENGTH = /^(?:0|[0-9]*\.?[0-9]+(?:px|em|rem|%))$/i;

const SANITIZE_OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...TEXT_TAGS, ...INLINE_TAGS, ...BLOCK_TAGS, ...LIST_TAGS, ...TABLE_TAGS, 'img'],
  allowedAttributes: {
    '*': ['title', 'lang', 'dir', 'style'],
    a: ['href'],
    img: ['src', 'alt', 'width', 'height', 'srcset', 'sizes', 'loading', 'decoding'],
    ol: ['start', 'reversed'],
    th: ['colspan', 'rowspan', 'scope'],
    td: ['colspan', 'rowspan'],
    col: ['span'],
    time: ['datetime'],
    details: ['open'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel', 'sms'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  allowedStyles: {
    '*': {
      color: [COLOUR],
      'background-color': [COLOUR],
      'text-align': [/^(?:left|right|center|justify|start|end)$/],
      'font-size': [LENGTH],
      'font-weight': [/^(?:normal|bold|[1-9]00)$/],
      'font-style': [/^(?:normal|italic)$/],
      'text-decoration': [/^(?:none|underline|line-through)$/],
      'line-height': [/^(?:normal|[0-9]*\.?[0-9]+(?:px|em|rem|%)?)$/],
    },
  },
  // Their text is not page content: dropped along with the tag.
  nonTextTags: LANDING_NON_TEXT_TAGS,
};

/** A data: raster image, exactly the URL this page gives one of the service's files, or a source `imageAttributes` made. */
function isAllowedImageSource(src: string | undefined, urls: PageUrls, made: ReadonlySet<string>): boolean {
  if (!src) return false;
  if (isDataImageUrl(src) || made.has(src)) return true;
  const fileId = /([0-9a-f-]{36})$/i.exec(src)?.[1];
  return fileId !== undefined && isUuid(fileId) && urls.file(fileId) === src;
}

const whole = (value: string | undefined): number | undefined =>
  value !== undefined && /^[1-9][0-9]{0,4}$/.test(value) ? Number(value) : undefined;

/**
 * An image's attributes on the page. A file's public address (`/files/<id>`) becomes this page's
 * (under the link when it is password-protected); a photo with web-sized copies gets them as
 * `srcset`, and a width and height: the author's when both are given, one of them completed by
 * the photo's aspect ratio, else the photo's. Any `srcset`/`sizes` of the author's goes (they
 * could name any server). Adds each file source it makes to `made`.
 */
function imageAttributes(
  attribs: sanitizeHtml.Attributes,
  link: Pick<ResolvedLink, 'files'>,
  urls: PageUrls,
  made: Set<string>,
): sanitizeHtml.Attributes {
  const { srcset: _srcset, sizes: _sizes, loading: _loading, decoding: _decoding, ...rest } = attribs;
  const fileId = relativeFileId(rest.src);
  if (fileId === undefined) return rest;
  const file = link.files.find((f) => f.id.toLowerCase() === fileId.toLowerCase());
  const sources = imageSources(file ?? { id: fileId }, urls.file);
  made.add(sources.src);
  if (!sources.webpSrcset || !sources.width || !sources.height) return { ...rest, src: sources.src };
  const [w, h] = [whole(rest.width), whole(rest.height)];
  const ratio = sources.height / sources.width;
  const width = w ?? (h !== undefined ? Math.round(h / ratio) : sources.width);
  const height = h ?? Math.round(width * ratio);
  // Shown at the author's size, the browser needs no copy wider than that.
  const sizes = w !== undefined || h !== undefined ? `min(${width}px, 100vw)` : COLUMN_SIZES;
  return {
    ...rest,
    src: sources.src,
    srcset: sources.webpSrcset,
    sizes,
    width: String(width),
    height: String(height),
    loading: 'lazy',
    decoding: 'async',
  };
}

function sanitizeLandingHtml(
  landingHtml: string,
  link: Pick<ResolvedLink, 'files'>,
  urls: PageUrls,
): { html: string; heading: string | undefined } {
  let heading: string | undefined;
  const made = new Set<string>();
  const sanitized = sanitizeHtml(landingHtml, {
    ...SANITIZE_OPTIONS,
    transformTags: { img: (tagName, attribs) => ({ tagName, attribs: imageAttributes(attribs, link, urls, made) }) },
    exclusiveFilter: (frame) => {
      if (frame.tag === 'img') return !isAllowedImageSource(frame.attribs.src, urls, made);
      if (frame.tag === 'h1' && heading === undefined && frame.text.trim()) heading = frame.text.trim();
      return false;
    },
  });
  return { html: sanitized, heading };
}

export function renderLandingPage(
  link: Pick<ResolvedLink, 'files'>,
  data: LinkDataByType['landing'],
  urls: PageUrls,
  locale: PageLocale,
): PageContent {
  const { html: sanitized, heading } = sanitizeLandingHtml(data.landingHTML, link, urls);
  // Colours the owner set (kept style attributes naming color or background-color) keep the page light.
  const ownColours = /\sstyle="[^"]*color:/i.test(sanitized);
  return {
    title: heading ?? layoutText(locale, 'welcome'),
    styles:
      'table{border-collapse:collapse}th,td{padding:.25rem .5rem;border:1px solid var(--line)}pre{overflow-x:auto}' +
      (ownColours ? LIGHT_ONLY_STYLES : ''),
    content: html`<div class="landing">${trustSanitizedHtml(sanitized)}</div>`,
  };
}
