/** The `data` of a `gallery` link (the rules all types share: ../schemas.ts). */
import { fileRefSchema, list, strict } from '../fields.js';

export const GALLERY_FILES_MAX = 20;

export const galleryDataSchema = strict({ files: list(fileRefSchema, 1, GALLERY_FILES_MAX) });
