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
 * Work per image is bounded: at most VARIANT_MAX_PIXELS (a bigger image is served as uploaded),
 * decoded once, in order, straight to the largest copy's size (platform/images/web-copies.ts) (a 50-megapixel image costs about
 * 0.5 GB at worst, a lossless WebP; a 7000 × 7000 16-bit PNG about 130 MB and 3 s). At most
 * VARIANT_CONCURRENCY uploads in a process make copies at once, shared fairly between accounts
 * (below). An image sharp cannot read (truncated, odd encoding) simply gets no copies.
 */
import type { Logger } from '#platform/logger.js';
import { webCopies } from '#platform/images/web-copies.js';
import { renderPdfFirstPage } from '#platform/images/pdf-preview.js';

export const VARIANT_WIDTHS = [480, 960, 1600] as const;
/** The JPEG copy's width (or the largest width made, when smaller). */
const JPEG_WIDTH = 960;
/** Bigger images get no copies: decoding them is what costs time and memory. */
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

/**
 * Slots are shared fairly between accounts: each account waits in a lane of its own, may hold at
 * most ACCOUNT_SLOTS slots (so with two slots another account always finds one free), and a freed
 * slot goes to the next account in turn, not to the oldest upload: one account's burst of huge
 * photos waits behind itself, never in front of another account's photo.
 */
const ACCOUNT_SLOTS = Math.max(1, VARIANT_CONCURRENCY - 1);

interface Lane {
  running: number;
  waiting: Array<() => void>;
}
/** In turn order: a lane that was just served moves to the end. */
const lanes = new Map<string, Lane>();
let running = 0;

function dispatch(): void {
  while (running < VARIANT_CONCURRENCY) {
    const next = [...lanes].find(([, lane]) => lane.waiting.length > 0 && lane.running < ACCOUNT_SLOTS);
    if (!next) return;
    const [accountId, lane] = next;
    lanes.delete(accountId);
    lanes.set(accountId, lane);
    lane.running++;
    running++;
    lane.waiting.shift()!();
  }
}

async function withSlot<T>(accountId: string, work: () => Promise<T>): Promise<T> {
  const lane = lanes.get(accountId) ?? { running: 0, waiting: [] };
  lanes.set(accountId, lane);
  await new Promise<void>((resolve) => {
    lane.waiting.push(resolve);
    dispatch();
  });
  try {
    return await work();
  } finally {
    lane.running--;
    running--;
    if (lane.running === 0 && lane.waiting.length === 0) lanes.delete(accountId);
    dispatch();
  }
}

/** The copies of an account's photo (none for other types, small images and images sharp cannot read). */
export async function makeImageVariants(
  accountId: string,
  body: Buffer,
  contentType: string,
  logger?: Pick<Logger, 'warn'>,
): Promise<MadeVariant[]> {
  const isPdf = contentType === 'application/pdf';
  if (!PHOTO_TYPES.has(contentType) && !isPdf) return [];
  try {
    return await withSlot(accountId, async () => {
      if (!isPdf) return resize(body);
      const page = await renderPdfFirstPage(body, PDF_PAGE_WIDTH);
      return page ? resize(page) : [];
    });
  } catch (err) {
    logger?.warn({ err: (err as Error).message, contentType, size: body.length }, 'image copies not made; the original is served');
    return [];
  }
}

function resize(body: Buffer): Promise<MadeVariant[]> {
  return webCopies(body, { widths: VARIANT_WIDTHS, jpegWidth: JPEG_WIDTH, maxPixels: VARIANT_MAX_PIXELS });
}
