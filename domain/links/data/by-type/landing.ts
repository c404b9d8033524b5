/** The `data` of a `landing` link (the rules all types share: ../schemas.ts). */
import { REQUIRED, strict, stringType } from '../fields.js';
import { utf8Length } from '../formats.js';
import { nestsAtMost } from '../html-depth.js';

export const LANDING_HTML_MAX_BYTES = 512 * 1024;
export const LANDING_HTML_MAX_DEPTH = 100;

export const landingDataSchema = strict({
  landingHTML: stringType()
    .refine((s) => s.trim().length > 0, { error: REQUIRED, abort: true })
    .refine((s) => s.length <= LANDING_HTML_MAX_BYTES && utf8Length(s) <= LANDING_HTML_MAX_BYTES, {
      error: 'Must be at most 512 KiB',
      abort: true,
    })
    .refine((s) => nestsAtMost(s, LANDING_HTML_MAX_DEPTH), { error: `Must not nest elements more than ${LANDING_HTML_MAX_DEPTH} deep` }),
});
