/** The `data` of a `menu` link (the rules all types share: ../schemas.ts). */
import { optionalText, strict } from '../fields.js';
import { SHORT_TEXT_MAX } from '../limits.js';

export const menuDataSchema = strict({ name: optionalText(SHORT_TEXT_MAX) });
