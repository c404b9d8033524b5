import { z } from 'zod';

/** A hex color (`#rgb` or `#rrggbb`), stored lowercase: what page and menu colors take. */
export const hexColorSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'Required' : 'Must be a string') })
  .regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { error: 'Must be a hex color such as #1a2b3c' })
  .transform((c) => c.toLowerCase());
