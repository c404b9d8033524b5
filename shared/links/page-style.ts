/**
 * A link's page style: how the page a scan shows is branded, for every link type with a page.
 * The owner sets it per link (`pageStyle` on POST/PUT /links; absent on a PUT keeps it, null
 * clears it):
 * - `language`: the page's `lang` (a BCP 47 tag, stored canonical: `pt-br` → `pt-BR`; default en),
 *   so screen readers pronounce it and browsers offer the right translation;
 * - `accentColor` / `accentColorDark`: buttons and links in light and dark mode (hex; the page
 *   keeps text readable whatever they are);
 * - `logo` / `cover`: image files of the account, attached to the link like its data's files.
 * Menu links are styled by their cafe's theme instead.
 */
import { z } from 'zod';
import { fileRefSchema, type FileRefLocation } from './data/index.js';
import { hexColorSchema } from '../format/hex-color.js';

const LANGUAGE_TAG_MAX = 35;

const languageTag = z
  .string({ error: 'Must be a string' })
  .max(LANGUAGE_TAG_MAX, { error: `Must be at most ${LANGUAGE_TAG_MAX} characters` })
  .transform((tag, ctx) => {
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical) return canonical;
    } catch {
      // not a well-formed tag: reported below
    }
    ctx.addIssue({ code: 'custom', message: 'Must be a BCP 47 language tag such as en, fr or pt-BR' });
    return z.NEVER;
  });

export const pageStyleSchema = z
  .strictObject(
    {
      language: languageTag.optional().meta({ description: 'The page language (BCP 47), e.g. en, fr, pt-BR; default en' }),
      accentColor: hexColorSchema.optional().meta({ description: 'Buttons and links (light mode)' }),
      accentColorDark: hexColorSchema.optional().meta({ description: 'Buttons and links in dark mode (default: accentColor where it reads, else the default)' }),
      logo: fileRefSchema.optional().meta({ description: 'An image file of the account, shown at the top of the page' }),
      cover: fileRefSchema.optional().meta({ description: 'An image file of the account, shown as a band across the top' }),
    },
    { error: 'Must be an object' },
  )
  .meta({
    description: "The brand and language of the link's page (not used by menu links, which have their cafe's theme)",
    example: { language: 'pt-PT', accentColor: '#8a4b2a', accentColorDark: '#f0b27a', logo: { fileId: '0b9c6f57-3d0e-4d67-9a43-7c1f0f1d2e11' } },
  });

export type PageStyle = z.output<typeof pageStyleSchema>;

/** The files a page style names, with their place in it (for the same checks as data's files). */
export function pageStyleFileRefs(style: PageStyle | null | undefined): FileRefLocation[] {
  if (!style) return [];
  return (['logo', 'cover'] as const).flatMap((member) => {
    const fileId = style[member]?.fileId;
    return fileId ? [{ path: [member, 'fileId'], fileId, kind: 'image' as const }] : [];
  });
}
