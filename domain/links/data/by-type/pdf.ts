/** The `data` of a `pdf` link (the rules all types share: ../schemas.ts). */
import { fileRefSchema, list, strict } from '../fields.js';
import { FILES_MAX } from '../limits.js';

export const pdfDataSchema = strict({ files: list(fileRefSchema, 1, FILES_MAX) });
