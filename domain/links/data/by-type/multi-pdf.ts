/** The `data` of a `multi-pdf` link (the rules all types share: ../schemas.ts). */
import { fileIdSchema, list, strict, text } from '../fields.js';
import { PAGE_TITLE_MAX, SHORT_TEXT_MAX } from '../limits.js';

export const MULTI_PDF_MAX = 10;

export const multiPdfDataSchema = strict({
  pageTitle: text(PAGE_TITLE_MAX),
  pdfs: list(strict({ label: text(SHORT_TEXT_MAX), fileId: fileIdSchema() }), 1, MULTI_PDF_MAX),
});
