/**
 * Web-sized copies of a picture with sharp (libvips, prebuilt binaries from npm): WebP copies at
 * each of the given widths below the picture's own, and one JPEG copy (for a browser without
 * WebP). What they are for, and which pictures get them, is domain/files/image-variants.ts's.
 */
import type Sharp from 'sharp';
import { onFirstUse } from '../on-first-use.js';

export type WebCopyFormat = 'webp' | 'jpeg';

export interface WebCopy {
  width: number;
  height: number;
  format: WebCopyFormat;
  size: number;
  bytes: Buffer;
}

export interface WebCopySizes {
  /** The WebP copies' widths, smallest first; only those below the picture's width are made. */
  widths: readonly number[];
  /** The JPEG copy's width (or the largest width made, when smaller). */
  jpegWidth: number;
  /** A bigger picture is refused (sharp throws): decoding it is what costs time and memory. */
  maxPixels: number;
}

/**
 * sharp (libvips) is loaded on the first photo: it is ~20 MB of resident memory, which the
 * processes that never resize (most of the time, all of them) need not hold.
 */
const loadSharp = onFirstUse<typeof Sharp>(() =>
  import('sharp').then(({ default: sharp }) => {
    // libvips keeps decoded images in a cache of its own by default; uploads never repeat.
    sharp.cache(false);
    return sharp;
  }),
);

/** The copies of `body` (none when it is no wider than the smallest width); throws when sharp cannot read it. */
export async function webCopies(body: Buffer, { widths: sizes, jpegWidth: jpegAt, maxPixels }: WebCopySizes): Promise<WebCopy[]> {
  const sharp = await loadSharp();
  const source = sharp(body, { limitInputPixels: maxPixels, animated: false, sequentialRead: true }).rotate();
  const meta = await source.metadata();
  // EXIF orientations 5-8 turn the picture a quarter: its displayed width is the stored height.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = (turned ? meta.height : meta.width) ?? 0;
  const height = (turned ? meta.width : meta.height) ?? 0;
  const widths = sizes.filter((w) => w < width);
  if (widths.length === 0 || height === 0) return [];
  const jpegWidth = Math.min(jpegAt, widths[widths.length - 1]!);
  const wanted: Array<{ width: number; format: WebCopyFormat }> = [
    ...widths.map((w) => ({ width: w, format: 'webp' as const })),
    { width: jpegWidth, format: 'jpeg' },
  ];
  // Decoding the original is what a big image costs: it is done once, read in order (no whole
  // copy of it in memory) straight to the largest copy's size as 8-bit sRGB pixels, and every
  // copy is made from those. One decode per copy would also hold one of the process's few
  // threads each, making other accounts' uploads wait for a thread.
  const { data, info } = await source
    .resize({ width: widths[widths.length - 1]! })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const largest = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  return Promise.all(
    wanted.map(async ({ width: w, format }) => {
      const resized = largest.clone().resize({ width: w });
      const { data: bytes, info: made } = await (
        format === 'webp' ? resized.webp({ quality: 78 }) : resized.jpeg({ quality: 80, mozjpeg: true })
      ).toBuffer({ resolveWithObject: true });
      return { width: made.width, height: made.height, format, size: bytes.length, bytes };
    }),
  );
}
