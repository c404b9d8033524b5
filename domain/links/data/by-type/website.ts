/** The `data` of a `website` link (the rules all types share: ../schemas.ts). */
import { strict, urlSchema } from '../fields.js';

export const websiteDataSchema = strict({ url: urlSchema() });
