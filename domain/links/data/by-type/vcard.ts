/** The `data` of a `vcard` link (the rules all types share: ../schemas.ts). */
import { emailSchema, fileRefSchema, list, optionalText, strict, text, urlSchema } from '../fields.js';
import { SHORT_TEXT_MAX } from '../limits.js';

export const VCARD_SOCIAL_LINKS_MAX = 10;

export const vcardDataSchema = strict({
  firstName: text(SHORT_TEXT_MAX),
  lastName: text(SHORT_TEXT_MAX),
  email: emailSchema(),
  contact: optionalText(SHORT_TEXT_MAX),
  phone: optionalText(SHORT_TEXT_MAX),
  fax: optionalText(SHORT_TEXT_MAX),
  website: optionalText(SHORT_TEXT_MAX),
  company: optionalText(SHORT_TEXT_MAX),
  department: optionalText(SHORT_TEXT_MAX),
  street: optionalText(SHORT_TEXT_MAX),
  state: optionalText(SHORT_TEXT_MAX),
  city: optionalText(SHORT_TEXT_MAX),
  zip: optionalText(SHORT_TEXT_MAX),
  country: optionalText(SHORT_TEXT_MAX),
  jobTitle: optionalText(SHORT_TEXT_MAX).meta({ description: "The person's job title (the vCard's TITLE), apart from `department`" }),
  photo: fileRefSchema.optional().meta({ description: 'An uploaded image (`{fileId}`) shown on the contact page' }),
  socialLinks: list(strict({ url: urlSchema() }), 0, VCARD_SOCIAL_LINKS_MAX)
    .optional()
    .meta({
      description: `Profiles elsewhere, at most ${VCARD_SOCIAL_LINKS_MAX}: \`{url}\` each, an http(s) URL (the page names the platform from its host)`,
    }),
});
