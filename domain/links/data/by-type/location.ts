/** The `data` of a `location` link (the rules all types share: ../schemas.ts). */
import { numberType, optionalText, strict } from '../fields.js';
import { SHORT_TEXT_MAX } from '../limits.js';

export const ADDRESS_MAX = 500;

export const locationDataSchema = strict({
  latitude: numberType().min(-90, { error: 'Must be >= -90' }).max(90, { error: 'Must be <= 90' }),
  longitude: numberType().min(-180, { error: 'Must be >= -180' }).max(180, { error: 'Must be <= 180' }),
  name: optionalText(SHORT_TEXT_MAX).meta({
    description: "The place's name: the page's heading and the map pin's title (default: the link's name)",
  }),
  address: optionalText(ADDRESS_MAX).meta({
    description: "The place's address as people write it, shown under its name (line breaks kept)",
  }),
});
