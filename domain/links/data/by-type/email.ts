/** The `data` of a `email` link (the rules all types share: ../schemas.ts). */
import { emailSchema, optionalText, strict } from '../fields.js';
import { LONG_TEXT_MAX, SHORT_TEXT_MAX } from '../limits.js';

export const emailDataSchema = strict({
  email: emailSchema(),
  subject: optionalText(SHORT_TEXT_MAX),
  body: optionalText(LONG_TEXT_MAX),
});
