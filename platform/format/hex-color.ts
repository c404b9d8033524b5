import { z } from 'zod';
import { HEX_COLOR } from './colour.js';

/** A hex color (`#rgb` or `#rrggbb`), stored lowercase: what page and menu colors take. */
export const hexColorSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be a string') })
  .regex(HEX_COLOR, { error: 'Must be a hex color such as #1a2b3c' })
  .transform((c) => c.toLowerCase());
