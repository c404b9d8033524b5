/**
 * PDF embeds PNG and JPEG pictures only: a GIF or WebP is turned into a PNG (its first frame, at
 * its own size) by sharp before it is drawn. resvg, which draws logos elsewhere, reads no WebP in
 * the build we ship, so sharp does it here.
 */
import { onFirstUse } from '../on-first-use.js';

const loadSharp = onFirstUse(() => import('sharp').then((m) => m.default));

/** The picture as PNG bytes; null when it cannot be read. */
export async function pngOf(data: Uint8Array): Promise<Buffer | null> {
  const sharp = await loadSharp();
  return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), { animated: false })
    .png()
    .toBuffer()
    .catch(() => null);
}
