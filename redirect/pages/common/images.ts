/**
 * A link's photo on a page, sized for the screen: when the file has web-sized copies
 * (domain/files/image-variants.ts) a `<picture>` offers the WebP copies by width (`srcset`, the
 * browser picks by its screen and `sizes`) with the JPEG copy as the `<img>` for browsers without
 * WebP, and width/height from the copies so the page does not jump as images arrive; otherwise
 * the file as uploaded. Copies live under the file's URL: `<file url>/<width>.<webp|jpg>`.
 */
import { variantFileName, type ImageVariant } from '#domain/files/image-variants.js';
import { html, type SafeHtml } from './html.js';

/** What a page needs to show one image. */
export interface ImageSources {
  /** The image for browsers that take no `srcset`: the JPEG copy, else the file itself. */
  src: string;
  /** `480.webp 480w, 960.webp 960w, …` under the file's URL; absent without copies. */
  webpSrcset?: string;
  /** Intrinsic size (of the largest copy: the aspect ratio is what counts). */
  width?: number;
  height?: number;
  /** The smallest copy (or the file): for a thumbnail or a logo shown small. */
  smallest: string;
}

export function imageSources(
  file: { id: string; variants?: readonly ImageVariant[] | null },
  fileUrl: (id: string) => string,
): ImageSources {
  const url = fileUrl(file.id);
  const variants = file.variants ?? [];
  const webp = variants.filter((v) => v.format === 'webp').sort((a, b) => a.width - b.width);
  const jpeg = variants.find((v) => v.format === 'jpeg');
  if (webp.length === 0) return { src: url, smallest: url };
  const largest = webp[webp.length - 1]!;
  return {
    src: jpeg ? `${url}/${variantFileName(jpeg)}` : url,
    webpSrcset: webp.map((v) => `${url}/${variantFileName(v)} ${v.width}w`).join(', '),
    width: largest.width,
    height: largest.height,
    smallest: `${url}/${variantFileName(webp[0]!)}`,
  };
}

export interface PictureOptions {
  alt: string;
  /** How wide the image is shown, for the browser's choice of copy (`100vw`, `(min-width: 40rem) 36rem, 100vw`). */
  sizes: string;
  className?: string;
  lazy?: boolean;
  /** The first screen's main image: fetched early. */
  priority?: boolean;
}

/** `<picture>` with the WebP copies and the JPEG `<img>`, or a plain `<img>` of the file. */
export function pictureTag(sources: ImageSources, options: PictureOptions): SafeHtml {
  const img = html`<img${options.className ? html` class="${options.className}"` : ''} src="${sources.src}" alt="${options.alt}"${
    sources.width ? html` width="${String(sources.width)}" height="${String(sources.height)}"` : ''
  }${options.lazy ? html` loading="lazy" decoding="async"` : ''}${options.priority ? html` fetchpriority="high"` : ''}>`;
  if (!sources.webpSrcset) return img;
  return html`<picture><source type="image/webp" srcset="${sources.webpSrcset}" sizes="${options.sizes}">${img}</picture>`;
}

/**
 * A small picture (a menu item's 88 px thumbnail, a logo): the smallest WebP copy, the JPEG copy
 * or the file as the fallback; `width`/`height` as shown.
 */
export function thumbnailTag(
  sources: ImageSources,
  options: { alt: string; width: number; height: number; className?: string; lazy?: boolean },
): SafeHtml {
  const img = html`<img${options.className ? html` class="${options.className}"` : ''} src="${sources.src}" alt="${options.alt}"${
    options.lazy ? html` loading="lazy" decoding="async"` : ''
  } width="${String(options.width)}" height="${String(options.height)}">`;
  if (!sources.webpSrcset) return img;
  return html`<picture><source type="image/webp" srcset="${sources.smallest}">${img}</picture>`;
}
