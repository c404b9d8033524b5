/**
 * Menu images (logo, cover, group, category and item pictures) are uploads like POST /files's:
 * the same size limit, type sniffed from the bytes, SVG sanitized, bytes stored once per account,
 * the plan's storage quota. They are stored before the write that uses them, unattached; the write
 * attaches them to the cafe's link (swapImage), and one that fails leaves them to the orphan sweep.
 */
import { sniff } from '../files/sniff.js';
import { storeUpload, type FilesContext } from '../files/files.js';
import { AppError, ValidationError } from '../errors.js';

export const IMAGE_TYPES_LABEL = 'PNG, JPEG, WebP, GIF, SVG';

/** 415: the file is not an image we accept (a PDF, a text file, anything unknown). */
export class UnsupportedImageError extends AppError {
  constructor(field: string) {
    super('unsupported_image_type', { message: `${field}: unsupported image type; allowed: ${IMAGE_TYPES_LABEL}` });
  }
}

export interface ImageUpload {
  buffer: Buffer;
  originalName: string | null;
}

/** Stores one image of a form; returns its file id. A 400 from the upload names the form field. */
export async function storeMenuImage(ctx: FilesContext, accountId: string, field: string, upload: ImageUpload): Promise<string> {
  if (upload.buffer.length === 0) throw new ValidationError([{ path: field, message: 'File is empty' }]);
  const sniffed = sniff(upload.buffer);
  if (!sniffed || !sniffed.contentType.startsWith('image/')) throw new UnsupportedImageError(field);
  try {
    return (await storeUpload(ctx, accountId, upload)).fileId;
  } catch (err) {
    if (err instanceof ValidationError) throw new ValidationError(err.errors.map((e) => ({ ...e, path: field })));
    throw err;
  }
}
