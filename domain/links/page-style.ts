/**
 * A link's page style: how the page a scan shows is branded, for every link type with a page.
 * The owner sets it per link (`pageStyle` on POST/PUT /links; absent on a PUT keeps it, null
 * clears it):
 * - `language`: the page's `lang` and the language of its words, dates and prices (a BCP 47 tag,
 *   stored canonical: `pt-br` → `pt-BR`); unset, the visitor's browser language chooses;
 * - `title`, `description`, `website`: who the page is from (heading, logo alt, shared title), its
 *   preview text, and the way back to the business (linked from every page, status pages too);
 * - `accentColor` / `accentColorDark`: buttons and links in light and dark mode (hex; the page
 *   keeps text readable whatever they are);
 * - `logo` / `cover`: image files of the account, attached to the link like its data's files.
 * Menu links are styled by their cafe's theme instead.
 */
import { z } from 'zod';
import { fileRefSchema, PAGE_TITLE_MAX, urlSchema, type FileRefLocation } from './data/index.js';
import { hexColorSchema } from '../colour-contrast.js';
import { canonicalLanguageTag, LANGUAGE_TAG_MAX, LANGUAGE_TAG_MESSAGE } from '#platform/format/language-tag.js';

const languageTag = z
  .string({ error: 'Must be a string' })
  .max(LANGUAGE_TAG_MAX, { error: `Must be at most ${LANGUAGE_TAG_MAX} characters` })
  .transform((tag, ctx) => {
    const canonical = canonicalLanguageTag(tag);
    if (canonical) return canonical;
    ctx.addIssue({ code: 'custom', message: LANGUAGE_TAG_MESSAGE });
    return z.NEVER;
  });

export const PAGE_DESCRIPTION_MAX = 300;

const optionalLine = (max: number) =>
  z
    .string({ error: 'Must be a string' })
    .max(max, { error: `Must be at most ${max} characters` })
    .refine((value) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(value), { error: 'Must not contain control characters' })
    .optional();

export const pageStyleSchema = z
  .strictObject(
    {
      language: languageTag.optional().meta({
        description:
          "The page language (BCP 47), e.g. en, fr, pt-BR; default: the visitor's browser language among en, pt, es, fr, de, else en",
      }),
      title: optionalLine(PAGE_TITLE_MAX).meta({
        description:
          "Who the page is from, e.g. the business: the heading where the page has none of its own, the logo's text alternative and the shared title (never the link's name)",
      }),
      description: optionalLine(PAGE_DESCRIPTION_MAX).meta({
        description: 'A sentence or two for link previews (meta description, og:description)',
      }),
      website: urlSchema().optional().meta({
        description: 'The way back to the business: linked from every page, also when the link is paused, scheduled, expired or protected',
      }),
      accentColor: hexColorSchema.optional().meta({ description: 'Buttons and links (light mode)' }),
      accentColorDark: hexColorSchema
        .optional()
        .meta({ description: 'Buttons and links in dark mode (default: accentColor where it reads, else the default)' }),
      logo: fileRefSchema.optional().meta({ description: 'An image file of the account, shown at the top of the page' }),
      cover: fileRefSchema.optional().meta({ description: 'An image file of the account, shown as a band across the top' }),
    },
    { error: 'Must be an object' },
  )
  .meta({
    description: "The brand and language of the link's page (not used by menu links, which have their cafe's theme)",
    example: {
      language: 'pt-PT',
      title: 'Café Aroma',
      description: 'Coffee and cakes by the river.',
      website: 'https://cafe-aroma.example',
      accentColor: '#8a4b2a',
      accentColorDark: '#f0b27a',
      logo: { fileId: '0b9c6f57-3d0e-4d67-9a43-7c1f0f1d2e11' },
    },
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
