/**
 * image, gallery, pdf and multi-pdf links: pages showing the link's files, fetched from the
 * redirect process (`urls.file`). A file the data names but the link no longer has is left out.
 *
 * PDFs are listed (name, size, an "Open PDF" button) rather than embedded: phone browsers either
 * do not render embedded PDFs (Android) or show only the first page (iOS), while opening the file
 * hands it to the system viewer everywhere.
 */
import type { LinkDataByType } from '#domain/links/data/index.js';
import type { ResolvedLink, ResolvedLinkFile } from '#domain/links/resolve/resolved-link.js';
import { html, type SafeHtml } from '../common/html.js';
import { imageSources, pictureTag, thumbnailTag } from '../common/images.js';
import { PageScript, shownName, type PageContent } from '../common/layout.js';
import type { PageUrls } from '../common/types.js';
import { pingOf } from '../common/taps.js';
import { numberFormat, type PageLocale } from '../common/locale.js';
import { filesText } from './files-messages.js';

/** The link's files named by `ids`, in that order, skipping any it does not have. */
export function linkFiles(link: ResolvedLink, ids: readonly string[]): ResolvedLinkFile[] {
  const byId = new Map(link.files.map((file) => [file.id.toLowerCase(), file]));
  return ids.map((id) => byId.get(id.toLowerCase())).filter((file): file is ResolvedLinkFile => file !== undefined);
}

/**
 * An image's text alternative, from what the owner called the page (the link's name, the product,
 * the event) and its place in the list: "Summer terrace, image 2 of 5". Never the file name
 * (`IMG_2041.jpg` tells a screen-reader user nothing).
 */
export function imageAlt(locale: PageLocale, subject: string | undefined, index: number, count: number): string {
  const name = subject?.trim();
  if (count <= 1) return name || filesText(locale, 'image');
  return name
    ? filesText(locale, 'subjectImageOf', { subject: name, number: index + 1, count })
    : filesText(locale, 'imageOf', { number: index + 1, count });
}

const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** 1.2 MB: decimal units, at most one fraction digit, as the locale writes numbers. */
function formatSize(locale: PageLocale, bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return numberFormat(locale, {
    style: 'unit',
    unit: SIZE_UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: 1,
  }).format(value);
}

const nothingToShow = (locale: PageLocale) => html`<p class="muted">${filesText(locale, 'nothingToShow')}</p>`;

/**
 * The images, each opening a viewer on the page: CSS (`:target`) shows it, so it works with no
 * script; the viewer's full image loads when it is opened (a lazy image in a hidden box is not
 * fetched). Each viewer counts "3 / 8"; previous and next move through the list, closing goes
 * back to the image's place in the list. VIEWER_SCRIPT adds Escape, arrow keys and swipes, and
 * keeps the browser's history to one step (see there).
 */
export function imageViewers(name: string, files: ResolvedLinkFile[], urls: PageUrls, locale: PageLocale): SafeHtml {
  const count = files.length;
  return html`${files.map((file, i) => {
    const alt = imageAlt(locale, name, i, count);
    return html`<div class="viewer" id="view-${i + 1}" role="dialog" aria-label="${alt}">
<p class="viewer-count" aria-hidden="true">${i + 1} / ${count}</p>
${pictureTag(imageSources(file, urls.file), { alt, sizes: '100vw', lazy: true })}
<nav>${i > 0 ? html`<a href="#view-${i}" rel="prev">${filesText(locale, 'previous')}</a>` : html`<span></span>`}<a href="#image-${i + 1}" class="viewer-close">${filesText(locale, 'close')}</a>${
      i + 1 < count ? html`<a href="#view-${i + 2}" rel="next">${filesText(locale, 'next')}</a>` : html`<span></span>`
    }</nav>
</div>`;
  })}`;
}

function imagesPage(
  name: string,
  title: string,
  files: ResolvedLinkFile[],
  urls: PageUrls,
  locale: PageLocale,
  styles: string,
  listClass: string,
  thumbnailSizes: string,
): PageContent {
  const count = files.length;
  const items = files.map(
    (file, i) =>
      html`<li id="image-${i + 1}"><a href="#view-${i + 1}">${pictureTag(imageSources(file, urls.file), { alt: imageAlt(locale, name, i, count), sizes: thumbnailSizes, lazy: i > 1 })}</a></li>`,
  );
  return {
    title,
    styles: styles + VIEWER_STYLES,
    content: html`<h1>${title}</h1>${count > 0 ? html`<ul class="${listClass}">${items}</ul>${imageViewers(name, files, urls, locale)}` : nothingToShow(locale)}`,
    ...(count > 0 ? { script: VIEWER_SCRIPT } : {}),
  };
}

export const VIEWER_STYLES =
  '.viewer{display:none;position:fixed;inset:0;z-index:10;background:rgba(0,0,0,.92);flex-direction:column;justify-content:center;align-items:center;padding:1rem;touch-action:pan-y pinch-zoom}' +
  '.viewer:target{display:flex}.viewer img{max-width:100%;max-height:calc(100% - 7rem);object-fit:contain}' +
  '.viewer-count{color:#fff;margin:0 0 .75rem;font-variant-numeric:tabular-nums}' +
  '.viewer nav{display:flex;justify-content:space-between;gap:1rem;width:100%;max-width:32rem;margin-top:1rem}' +
  '.viewer nav a{color:#fff;min-height:48px;min-width:48px;display:inline-flex;align-items:center;justify-content:center;padding:0 1rem;white-space:nowrap}';

/**
 * The viewer's script. An image opened from the list is one history step, so Back (or Close, or
 * Escape) returns to the list; moving between images replaces that step (`location.replace`)
 * rather than adding one per image. A horizontal swipe of 50 px moves to the next or previous
 * image; the arrow keys do too. Without it the links still work, one history step each.
 */
export const VIEWER_SCRIPT = new PageScript(
  `(()=>{let opened=false;const open=()=>document.querySelector('.viewer:target');` +
    `const close=(v)=>{if(opened){opened=false;history.back();}else location.replace(v.querySelector('.viewer-close').getAttribute('href'));};` +
    `const step=(v,rel)=>{const a=v&&v.querySelector('a[rel='+rel+']');if(a)location.replace(a.getAttribute('href'));};` +
    `document.addEventListener('click',(e)=>{const a=e.target.closest&&e.target.closest('a[href^="#"]');if(!a)return;const v=a.closest('.viewer');` +
    `if(!v){if(a.getAttribute('href').startsWith('#view-'))opened=true;return;}e.preventDefault();if(a.classList.contains('viewer-close'))close(v);else location.replace(a.getAttribute('href'));});` +
    `document.addEventListener('keydown',(e)=>{const v=open();if(!v)return;if(e.key==='Escape'){e.preventDefault();close(v);}else if(e.key==='ArrowRight')step(v,'next');else if(e.key==='ArrowLeft')step(v,'prev');});` +
    `addEventListener('hashchange',()=>{if(!open())opened=false;});let x=null,y=0;document.addEventListener('touchstart',(e)=>{x=open()&&e.touches.length===1?e.touches[0].clientX:null;y=e.touches[0].clientY;},{passive:true});` +
    `document.addEventListener('touchend',(e)=>{if(x===null)return;const t=e.changedTouches[0],dx=t.clientX-x,dy=t.clientY-y;x=null;if(Math.abs(dx)>50&&Math.abs(dx)>Math.abs(dy))step(open(),dx<0?'next':'prev');});})();`,
);

/** The page's column: the screen's width on a phone, 36rem (less its padding) on anything wider. */
export const COLUMN_SIZES = '(min-width: 36rem) 33.5rem, calc(100vw - 2.5rem)';
/** A gallery tile: two or three a row on a phone. */
const GALLERY_TILE_SIZES = '(min-width: 36rem) 11rem, 50vw';
const IMAGE_STYLES =
  '.images{list-style:none;padding:0}.images li{margin:0 0 1rem}.images img{display:block;width:100%;border-radius:.75rem}';
const GALLERY_STYLES =
  '.gallery{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.5rem}' +
  '.gallery a{display:block}.gallery img{display:block;width:100%;aspect-ratio:1;object-fit:cover;border-radius:.5rem}';

export function renderImagePage(link: ResolvedLink, data: LinkDataByType['image'], urls: PageUrls, locale: PageLocale): PageContent {
  const files = linkFiles(
    link,
    data.files.map((f) => f.fileId),
  );
  const title = shownName(link) || filesText(locale, files.length > 1 ? 'images' : 'image');
  return imagesPage(shownName(link), title, files, urls, locale, IMAGE_STYLES, 'images', COLUMN_SIZES);
}

export function renderGalleryPage(link: ResolvedLink, data: LinkDataByType['gallery'], urls: PageUrls, locale: PageLocale): PageContent {
  const files = linkFiles(
    link,
    data.files.map((f) => f.fileId),
  );
  return imagesPage(
    shownName(link),
    shownName(link) || filesText(locale, 'gallery'),
    files,
    urls,
    locale,
    GALLERY_STYLES,
    'gallery',
    GALLERY_TILE_SIZES,
  );
}

const PDF_STYLES =
  '.pdfs{list-style:none;padding:0}.pdfs h2{margin-top:0}.pdf-card-with-cover{display:grid;grid-template-columns:6rem minmax(0,1fr);gap:1rem;align-items:start}' +
  '.pdf-cover{display:block;width:6rem;height:auto;border-radius:.25rem;box-shadow:0 1px 4px rgba(0,0,0,.25);background:#fff}';

/** A PDF's card: its first page as a cover when one was made at upload (decorative: the heading names it), name, size, and the button. */
function pdfItem(heading: string, file: ResolvedLinkFile, urls: PageUrls, locale: PageLocale): SafeHtml {
  const details = [heading === file.originalName ? undefined : file.originalName, 'PDF', formatSize(locale, file.size)]
    .filter(Boolean)
    .join(' · ');
  const cover = imageSources(file, urls.file);
  const text = html`<div><h2>${heading}</h2><p class="muted">${details}</p><a class="button" href="${urls.file(file.id)}"${pingOf(urls, 'download')}>${filesText(locale, 'openPdf')}</a></div>`;
  if (!cover.webpSrcset || !cover.width || !cover.height) return html`<li class="card">${text}</li>`;
  const height = Math.round((PDF_COVER_WIDTH * cover.height) / cover.width);
  return html`<li class="card pdf-card-with-cover">${thumbnailTag(cover, { className: 'pdf-cover', alt: '', width: PDF_COVER_WIDTH, height, lazy: true })}${text}</li>`;
}

const PDF_COVER_WIDTH = 96;

function pdfsPage(title: string, items: SafeHtml[], locale: PageLocale): PageContent {
  return {
    title,
    styles: PDF_STYLES,
    content: html`<h1>${title}</h1>${items.length > 0 ? html`<ul class="pdfs">${items}</ul>` : nothingToShow(locale)}`,
  };
}

export function renderPdfPage(link: ResolvedLink, data: LinkDataByType['pdf'], urls: PageUrls, locale: PageLocale): PageContent {
  const files = linkFiles(
    link,
    data.files.map((f) => f.fileId),
  );
  const items = files.map((file, i) =>
    pdfItem(file.originalName ?? filesText(locale, 'documentNumber', { number: i + 1 }), file, urls, locale),
  );
  return pdfsPage(shownName(link) || filesText(locale, files.length > 1 ? 'documents' : 'document'), items, locale);
}

export function renderMultiPdfPage(link: ResolvedLink, data: LinkDataByType['multi-pdf'], urls: PageUrls, locale: PageLocale): PageContent {
  const items = data.pdfs.flatMap(({ label, fileId }) => linkFiles(link, [fileId]).map((file) => pdfItem(label, file, urls, locale)));
  return pdfsPage(data.pageTitle, items, locale);
}
