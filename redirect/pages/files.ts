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
import type { PageContent } from './layout.js';
import type { PageUrls } from './types.js';

/** The link's files named by `ids`, in that order, skipping any it does not have. */
export function linkFiles(link: ResolvedLink, ids: readonly string[]): ResolvedLinkFile[] {
  const byId = new Map(link.files.map((file) => [file.id.toLowerCase(), file]));
  return ids.map((id) => byId.get(id.toLowerCase())).filter((file): file is ResolvedLinkFile => file !== undefined);
}

/** An image's text alternative: its original file name, else its place in the list. */
export function imageAlt(file: ResolvedLinkFile, index: number, count: number): string {
  return file.originalName ?? (count > 1 ? `Image ${index + 1} of ${count}` : 'Image');
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

function imagesPage(title: string, files: ResolvedLinkFile[], urls: PageUrls, styles: string, listClass: string): PageContent {
  const items = files.map(
    (file, i) =>
      html`<li><a href="${urls.file(file.id)}"><img src="${urls.file(file.id)}" alt="${imageAlt(file, i, files.length)}"${i > 1 ? html` loading="lazy"` : ''}></a></li>`,
  );
  return {
    title,
    styles,
    content: html`<h1>${title}</h1>${files.length > 0 ? html`<ul class="${listClass}">${items}</ul>` : NOTHING_TO_SHOW}`,
  };
}

const IMAGE_STYLES = '.images{list-style:none;padding:0}.images li{margin:0 0 1rem}.images img{display:block;width:100%;border-radius:.75rem}';
const GALLERY_STYLES =
  '.gallery{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(9rem,1fr));gap:.5rem}' +
  '.gallery a{display:block}.gallery img{display:block;width:100%;aspect-ratio:1;object-fit:cover;border-radius:.5rem}';

export function renderImagePage(link: ResolvedLink, data: LinkDataByType['image'], urls: PageUrls): PageContent {
  const files = linkFiles(link, data.files.map((f) => f.fileId));
  return imagesPage(files.length > 1 ? 'Images' : 'Image', files, urls, IMAGE_STYLES, 'images');
}

export function renderGalleryPage(link: ResolvedLink, data: LinkDataByType['gallery'], urls: PageUrls): PageContent {
  const files = linkFiles(link, data.files.map((f) => f.fileId));
  return imagesPage('Gallery', files, urls, GALLERY_STYLES, 'gallery');
}

const PDF_STYLES = '.pdfs{list-style:none;padding:0}.pdfs h2{margin-top:0}';

function pdfItem(heading: string, file: ResolvedLinkFile, urls: PageUrls): SafeHtml {
  const details = [heading === file.originalName ? undefined : file.originalName, 'PDF', formatSize(file.size)].filter(Boolean).join(' · ');
  return html`<li class="card"><h2>${heading}</h2><p class="muted">${details}</p><a class="button" href="${urls.file(file.id)}">Open PDF</a></li>`;
}

function pdfsPage(title: string, items: SafeHtml[]): PageContent {
  return {
    title,
    styles: PDF_STYLES,
    content: html`<h1>${title}</h1>${items.length > 0 ? html`<ul class="pdfs">${items}</ul>` : NOTHING_TO_SHOW}`,
  };
}

export function renderPdfPage(link: ResolvedLink, data: LinkDataByType['pdf'], urls: PageUrls): PageContent {
  const files = linkFiles(link, data.files.map((f) => f.fileId));
  const items = files.map((file, i) => pdfItem(file.originalName ?? `Document ${i + 1}`, file, urls));
  return pdfsPage(files.length > 1 ? 'Documents' : 'Document', items);
}

export function renderMultiPdfPage(link: ResolvedLink, data: LinkDataByType['multi-pdf'], urls: PageUrls): PageContent {
  const items = data.pdfs.flatMap(({ label, fileId }) => linkFiles(link, [fileId]).map((file) => pdfItem(label, file, urls)));
  return pdfsPage(data.pageTitle, items);
}
