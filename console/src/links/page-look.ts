/**
 * A link's page look (the API's `pageStyle`: language, accent colours, logo, cover, the title,
 * description and website a visitor sees) between the owner's form and the body. Every page a
 * visitor can get from the link wears it: its own page and the paused, expired or password pages.
 * On a PUT an absent `pageStyle` keeps the stored one and null clears it, so a link whose look is
 * turned off is sent null only when it had one.
 */
import type { paths } from '../api/schema.js';
import type { FieldErrors } from '../fields/errors.js';
import type { StoredLink } from './link-form.js';

export type PageStyle = NonNullable<paths['/api/v1/links']['post']['requestBody']['content']['application/json']['pageStyle']>;

export interface PageLookForm {
  on: boolean;
  /** Whether the stored link has a look: turning it off must then clear it. */
  stored: boolean;
  /** A BCP 47 tag, or '' for the visitor's own language. */
  language: string;
  title: string;
  description: string;
  website: string;
  coloursOn: boolean;
  accentColor: string;
  accentColorDark: string;
  logo: string;
  cover: string;
}

export const PAGE_LOOK_PATHS = {
  language: 'pageStyle.language',
  title: 'pageStyle.title',
  description: 'pageStyle.description',
  website: 'pageStyle.website',
  accentColor: 'pageStyle.accentColor',
  accentColorDark: 'pageStyle.accentColorDark',
  logo: 'pageStyle.logo.fileId',
  cover: 'pageStyle.cover.fileId',
} as const;

const DEFAULT_ACCENT = '#0a57c2';
const DEFAULT_ACCENT_DARK = '#8ab4f8';
const TITLE_MAX = 120;
const DESCRIPTION_MAX = 300;

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const fileIdOf = (value: unknown) =>
  typeof value === 'object' && value !== null && typeof (value as { fileId?: unknown }).fileId === 'string'
    ? (value as { fileId: string }).fileId
    : '';

export function pageLookFromLink(link: Pick<StoredLink, 'page_style'> | null): PageLookForm {
  const style = link?.page_style ?? null;
  return {
    on: style !== null,
    stored: style !== null,
    language: text(style?.language),
    title: text(style?.title),
    description: text(style?.description),
    website: text(style?.website),
    coloursOn: !!(style?.accentColor || style?.accentColorDark),
    accentColor: text(style?.accentColor) || DEFAULT_ACCENT,
    accentColorDark: text(style?.accentColorDark) || DEFAULT_ACCENT_DARK,
    logo: fileIdOf(style?.logo),
    cover: fileIdOf(style?.cover),
  };
}

function websiteProblem(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'Use a web address starting with https://.';
  } catch {
    return 'Enter a full web address, such as https://example.com.';
  }
}

/**
 * The body's `pageStyle`: the object to send, null to clear a stored look, undefined to leave it
 * out; or the errors to show first, by body path.
 */
export function pageStyleOf(form: PageLookForm): { value: PageStyle | null | undefined } | { errors: FieldErrors } {
  if (!form.on) return { value: form.stored ? null : undefined };
  const errors: Record<string, string> = {};
  const style: PageStyle = {};
  if (form.language) style.language = form.language;
  const title = form.title.trim();
  if (title.length > TITLE_MAX) errors[PAGE_LOOK_PATHS.title] = `Use at most ${TITLE_MAX} characters.`;
  if (title) style.title = title;
  const description = form.description.trim();
  if (description.length > DESCRIPTION_MAX) errors[PAGE_LOOK_PATHS.description] = `Use at most ${DESCRIPTION_MAX} characters.`;
  if (description) style.description = description;
  const website = form.website.trim();
  const problem = website ? websiteProblem(website) : null;
  if (problem) errors[PAGE_LOOK_PATHS.website] = problem;
  if (website) style.website = website;
  if (form.coloursOn) Object.assign(style, { accentColor: form.accentColor, accentColorDark: form.accentColorDark });
  if (form.logo) style.logo = { fileId: form.logo };
  if (form.cover) style.cover = { fileId: form.cover };
  return Object.keys(errors).length > 0 ? { errors } : { value: style };
}

export const isPageLookPath = (path: string) => path === 'pageStyle' || path.startsWith('pageStyle.');
