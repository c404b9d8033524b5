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
 * the CSP refuses it, so it is removed. The page title is the first <h1>'s text.
 */
import sanitizeHtml from 'sanitize-html';
import type { LinkDataByType } from '../../shared/links/data/index.js';
import { isUuid } from '../../shared/format/ids.js';
import { html, isDataImageUrl, trustSanitizedHtml } from './html.js';
import type { PageContent } from './layout.js';
import type { PageUrls } from './types.js';

const TEXT_TAGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'blockquote', 'pre', 'code', 'address'];
const INLINE_TAGS = ['a', 'abbr', 'b', 'cite', 'del', 'em', 'i', 'ins', 'kbd', 'mark', 'q', 's', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u'];
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
    img: ['src', 'alt', 'width', 'height'],
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
  nonTextTags: ['script', 'style', 'textarea', 'option', 'xmp', 'title', 'noscript', 'template', 'iframe', 'noembed', 'noframes'],
};

/** A data: raster image, or exactly the URL this page gives one of the service's files. */
function isAllowedImageSource(src: string | undefined, urls: PageUrls): boolean {
  if (!src) return false;
  if (isDataImageUrl(src)) return true;
  const fileId = /([0-9a-f-]{36})$/i.exec(src)?.[1];
  return fileId !== undefined && isUuid(fileId) && urls.file(fileId) === src;
}

/** A file's public address (`/files/<id>`) as this page links it: under the link when it is password-protected. */
function asPageFileUrl(src: string | undefined, urls: PageUrls): string | undefined {
  const fileId = /^\/files\/([0-9a-f-]{36})$/i.exec(src ?? '')?.[1];
  return fileId !== undefined && isUuid(fileId) ? urls.file(fileId) : src;
}

function sanitizeLandingHtml(landingHtml: string, urls: PageUrls): { html: string; heading: string | undefined } {
  let heading: string | undefined;
  const sanitized = sanitizeHtml(landingHtml, {
    ...SANITIZE_OPTIONS,
    transformTags: { img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, src: asPageFileUrl(attribs.src, urls) ?? '' } }) },
    exclusiveFilter: (frame) => {
      if (frame.tag === 'img') return !isAllowedImageSource(frame.attribs.src, urls);
      if (frame.tag === 'h1' && heading === undefined && frame.text.trim()) heading = frame.text.trim();
      return false;
    },
  });
  return { html: sanitized, heading };
}

export function renderLandingPage(data: LinkDataByType['landing'], urls: PageUrls): PageContent {
  const { html: sanitized, heading } = sanitizeLandingHtml(data.landingHTML, urls);
  return {
    title: heading ?? 'Welcome',
    styles: 'table{border-collapse:collapse}th,td{padding:.25rem .5rem;border:1px solid var(--line)}pre{overflow-x:auto}',
    content: html`<div class="landing">${trustSanitizedHtml(sanitized)}</div>`,
  };
}
