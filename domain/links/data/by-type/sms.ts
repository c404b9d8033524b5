/** The `data` of a `sms` link (the rules all types share: ../schemas.ts). */
import { optionalText, phoneSchema, strict } from '../fields.js';
import { LONG_TEXT_MAX } from '../limits.js';

export const smsDataSchema = strict({
  phone: phoneSchema(),
  message: optionalText(LONG_TEXT_MAX),
});
