/**
 * Web-sized copies of an uploaded photo, made once at upload with sharp (libvips, prebuilt
 * binaries from npm): a phone shows a 4000×3000 photo in a 390 px wide column, so pages offer
 * WebP copies 480, 960 and 1600 px wide in `srcset` and the browser picks by its screen, with one
 * JPEG copy (960 px) as the `src` for a browser without WebP. Only widths below the original's are
 * made (an image 800 px wide gets a 480 px copy only; one under 480 px none, and is served as it is).
 *
 * The copies belong to the blob (the stored bytes, shared by every file with the same content):
 * stored beside it under `<blob key>.<width>.<webp|jpg>`, listed in `file_blobs.variants`, and
 * deleted with it. They are the service's own derivatives and do not count toward the account's
 * storage quota (together they are a fraction of the original).
 *
 * PNG, JPEG and WebP photos get copies; GIFs (animation) and SVGs (vector) are served as they are.
 * A PDF gets copies of its first page (pdf-preview.ts), 480 px wide, for the cover a page shows
 * beside it; the PDF itself is served as it is.
 * Input is bounded (VARIANT_MAX_PIXELS), and at most VARIANT_CONCURRENCY uploads in a process make
 * copies at once, so one account's burst of huge photos queues behind itself rather than taking
 * every core. An image sharp cannot read (truncated, odd encoding) simply gets no copies.
 */
import sharp from 'sharp';
import type { Logger } from '../logger.js';
import { renderPdfFirstPage } from './pdf-preview.js';

export const VARIANT_WIDTHS = [480, 960, 1600] as const;
/** The JPEG copy's width (or the largest width made, when smaller). */
const JPEG_WIDTH = 960;
/** Bigger images (a 50-megapixel panorama) get no copies: decoding them is what costs memory. */
export const VARIANT_MAX_PIXELS = 50_000_000;
const VARIANT_CONCURRENCY = 2;
const PHOTO_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
/** A PDF's first page is drawn this wide, so its copies are 480 px (a cover shown small). */
const PDF_PAGE_WIDTH = 960;

export type VariantFormat = 'webp' | 'jpeg';

/** One web-sized copy, as `file_blobs.variants` lists it. */
export interface ImageVariant {
  width: number;
  height: number;
  format: VariantFormat;
  size: number;
}

export interface MadeVariant extends ImageVariant {
  bytes: Buffer;
}

// libvips keeps decoded images in a cache of its own by default; uploads never repeat.
sharp.cache(false);

/** Where a copy is stored, beside its blob. */
export function variantStorageKey(blobKey: string, variant: Pick<ImageVariant, 'width' | 'format'>): string {
  return `${blobKey}.${variantFileName(variant)}`;
}

/** `480.webp`, `960.jpg`: the last part of the copy's URL and of its storage key. */
export function variantFileName(variant: Pick<ImageVariant, 'width' | 'format'>): string {
  return `${variant.width}.${variant.format === 'jpeg' ? 'jpg' : 'webp'}`;
}

/** The copy a `480.webp` / `960.jpg` names among `variants`, if any. */
export function findVariant(variants: readonly ImageVariant[] | null | undefined, fileName: string): ImageVariant | undefined {
  return variants?.find((v) => variantFileName(v) === fileName);
}

let running = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= VARIANT_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** The copies of a photo (none for other types, small images and images sharp cannot read). */
export async function makeImageVariants(body: Buffer, contentType: string, logger?: Pick<Logger, 'warn'>): Promise<MadeVariant[]> {
  const isPdf = contentType === 'application/pdf';
  if (!PHOTO_TYPES.has(contentType) && !isPdf) return [];
  try {
    return await withSlot(async () => {
      if (!isPdf) return resize(body);
      const page = await renderPdfFirstPage(body, PDF_PAGE_WIDTH);
      return page ? resize(page) : [];
    });
  } catch (err) {
    logger?.warn({ err: (err as Error).message, contentType, size: body.length }, 'image copies not made; the original is served');
    return [];
  }
}

async function resize(body: Buffer): Promise<MadeVariant[]> {
  const source = sharp(body, { limitInputPixels: VARIANT_MAX_PIXELS, animated: false }).rotate();
  const meta = await source.metadata();
  // EXIF orientations 5-8 turn the picture a quarter: its displayed width is the stored height.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = (turned ? meta.height : meta.width) ?? 0;
  const height = (turned ? meta.width : meta.height) ?? 0;
  const widths = VARIANT_WIDTHS.filter((w) => w < width);
  if (widths.length === 0 || height === 0) return [];
  const jpegWidth = Math.min(JPEG_WIDTH, widths[widths.length - 1]!);
  const wanted: Array<{ width: number; format: VariantFormat }> = [...widths.map((w) => ({ width: w, format: 'webp' as const })), { width: jpegWidth, format: 'jpeg' }];
  return Promise.all(
    wanted.map(async ({ width: w, format }) => {
      const resized = source.clone().resize({ width: w });
      const { data, info } = await (format === 'webp' ? resized.webp({ quality: 78 }) : resized.jpeg({ quality: 80, mozjpeg: true })).toBuffer({ resolveWithObject: true });
      return { width: info.width, height: info.height, format, size: data.length, bytes: data };
    }),
  );
}
