/** The `data` of a `image` link (the rules all types share: ../schemas.ts). */
import { fileRefSchema, list, strict } from '../fields.js';
import { FILES_MAX } from '../limits.js';

export const imageDataSchema = strict({ files: list(fileRefSchema, 1, FILES_MAX) });
