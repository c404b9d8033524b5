/**
 * image, gallery, pdf and multi-pdf links: pages showing the link's files, fetched from the
 * redirect process (`urls.file`). A file the data names but the link no longer has is left out.
 *
 * PDFs are listed (name, size, an "Open PDF" button) rather than embedded: phone browsers either
 * do not render embedded PDFs (Android) or show only the first page (iOS), while opening the file
 * hands it to the system viewer everywhere.
 */
import type { LinkDataByType } from '../../shared/links/data/index.js';
import type { ResolvedLink, ResolvedLinkFile } from '../../shared/links/resolve/resolved-link.js';
import { html, type SafeHtml } from './html.js';
import { imageSources, pictureTag, thumbnailTag } from './images.js';
import type { PageContent } from './layout.js';
import type { PageUrls } from './types.js';
import type { PageLocale } from './locale.js';

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
export function imageAlt(subject: string | undefined, index: number, count: number): string {
  const name = subject?.trim();
  if (count <= 1) return name || 'Image';
  return name ? `${name}, image ${index + 1} of ${count}` : `Image ${index + 1} of ${count}`;
}

const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** 1.2 MB: decimal units, at most one fraction digit. */
function formatSize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < SIZE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  return new Intl.NumberFormat('en', { style: 'unit', unit: SIZE_UNITS[unit], unitDisplay: unit === 0 ? 'long' : 'short', maximumFractionDigits: 1 }).format(value);
}

const NOTHING_TO_SHOW = html`<p class="muted">There is nothing to show here any more.</p>`;

/**
 * The images, each opening a viewer on the page: CSS only (`:target`), so it works with no script;
 * the viewer's full image loads when it is opened (a lazy image in a hidden box is not fetched).
 * Previous and next move through the list; closing goes back to the image's place in the list.
 */
function imagesPage(name: string, fallbackTitle: string, files: ResolvedLinkFile[], urls: PageUrls, styles: string, listClass: string, thumbnailSizes: string): PageContent {
  const count = files.length;
  const title = name.trim() || fallbackTitle;
  const sources = files.map((file) => imageSources(file, urls.file));
  const items = files.map(
    (_file, i) =>
      html`<li id="image-${i + 1}"><a href="#view-${i + 1}">${pictureTag(sources[i]!, { alt: imageAlt(name, i, count), sizes: thumbnailSizes, lazy: i > 1 })}</a></li>`,
  );
  const viewers = files.map(
    (_file, i) => html`<div class="viewer" id="view-${i + 1}" role="dialog" aria-label="${imageAlt(name, i, count)}">
${pictureTag(sources[i]!, { alt: imageAlt(name, i, count), sizes: '100vw', lazy: true })}
<nav>${i > 0 ? html`<a href="#view-${i}">Previous</a>` : html`<span></span>`}<a href="#image-${i + 1}">Close</a>${i + 1 < count ? html`<a href="#view-${i + 2}">Next</a>` : html`<span></span>`}</nav>
</div>`,
  );
  return {
    title,
    styles: styles + VIEWER_STYLES,
    content: html`<h1>${title}</h1>${count > 0 ? html`<ul class="${listClass}">${items}</ul>${viewers}` : NOTHING_TO_SHOW}`,
  };
}

const VIEWER_STYLES =
  '.viewer{display:none;position:fixed;inset:0;z-index:10;background:rgba(0,0,0,.92);flex-direction:column;justify-content:center;align-items:center;padding:1rem}' +
  '.viewer:target{display:flex}.viewer img{max-width:100%;max-height:calc(100% - 4rem);object-fit:contain}' +
  '.viewer nav{display:flex;justify-content:space-between;gap:1rem;width:100%;max-width:32rem;margin-top:1rem}' +
  '.viewer nav a{color:#fff;min-height:48px;min-width:48px;display:inline-flex;align-items:center;justify-content:center;padding:0 1rem}';

/** The page's column: the screen's width on a phone, 36rem (less its padding) on anything wider. */
export const COLUMN_SIZES = '(min-width: 36rem) 33.5rem, calc(100vw - 2.5rem)';
/** A gallery tile: two or three a row on a phone. */
const GALLERY_TILE_SIZES = '(min-width: 36rem) 11rem, 50vw';
const IMAGE_STYLES = '.images{list-style:none;padding:0}.images li{margin:0 0 1rem}.images img{display:block;width:100%;border-radius:.75rem}';
const GALLERY_STYLES =
  '.gallery{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.5rem}' +
  '.gallery a{display:block}.gallery img{display:block;width:100%;aspect-ratio:1;object-fit:cover;border-radius:.5rem}';

export function renderImagePage(link: ResolvedLink, data: LinkDataByType['image'], urls: PageUrls, _locale: PageLocale): PageContent {
  const files = linkFiles(link, data.files.map((f) => f.fileId));
  return imagesPage(link.name, files.length > 1 ? 'Images' : 'Image', files, urls, IMAGE_STYLES, 'images', COLUMN_SIZES);
}

export function renderGalleryPage(link: ResolvedLink, data: LinkDataByType['gallery'], urls: PageUrls, _locale: PageLocale): PageContent {
  const files = linkFiles(link, data.files.map((f) => f.fileId));
  return imagesPage(link.name, 'Gallery', files, urls, GALLERY_STYLES, 'gallery', GALLERY_TILE_SIZES);
}

const PDF_STYLES =
  '.pdfs{list-style:none;padding:0}.pdfs h2{margin-top:0}.pdf-card-with-cover{display:grid;grid-template-columns:6rem minmax(0,1fr);gap:1rem;align-items:start}' +
  '.pdf-cover{display:block;width:6rem;height:auto;border-radius:.25rem;box-shadow:0 1px 4px rgba(0,0,0,.25);background:#fff}';

/** A PDF's card: its first page as a cover when one was made at upload (decorative: the heading names it), name, size, and the button. */
function pdfItem(heading: string, file: ResolvedLinkFile, urls: PageUrls): SafeHtml {
  const details = [heading === file.originalName ? undefined : file.originalName, 'PDF', formatSize(file.size)].filter(Boolean).join(' · ');
  const cover = imageSources(file, urls.file);
  const text = html`<div><h2>${heading}</h2><p class="muted">${details}</p><a class="button" href="${urls.file(file.id)}">Open PDF</a></div>`;
  if (!cover.webpSrcset || !cover.width || !cover.height) return html`<li class="card">${text}</li>`;
  const height = Math.round((PDF_COVER_WIDTH * cover.height) / cover.width);
  return html`<li class="card pdf-card-with-cover">${thumbnailTag(cover, { className: 'pdf-cover', alt: '', width: PDF_COVER_WIDTH, height, lazy: true })}${text}</li>`;
}

const PDF_COVER_WIDTH = 96;

function pdfsPage(title: string, items: SafeHtml[]): PageContent {
  return {
    title,
    styles: PDF_STYLES,
    content: html`<h1>${title}</h1>${items.length > 0 ? html`<ul class="pdfs">${items}</ul>` : NOTHING_TO_SHOW}`,
  };
}

export function renderPdfPage(link: ResolvedLink, data: LinkDataByType['pdf'], urls: PageUrls, _locale: PageLocale): PageContent {
  const files = linkFiles(link, data.files.map((f) => f.fileId));
  const items = files.map((file, i) => pdfItem(file.originalName ?? `Document ${i + 1}`, file, urls));
  return pdfsPage(link.name.trim() || (files.length > 1 ? 'Documents' : 'Document'), items);
}

export function renderMultiPdfPage(link: ResolvedLink, data: LinkDataByType['multi-pdf'], urls: PageUrls, _locale: PageLocale): PageContent {
  const items = data.pdfs.flatMap(({ label, fileId }) => linkFiles(link, [fileId]).map((file) => pdfItem(label, file, urls)));
  return pdfsPage(data.pageTitle, items);
}
