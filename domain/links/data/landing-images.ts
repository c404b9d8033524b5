/**
 * The images of a landing link's HTML. A hosted page shows an image only from a base64 raster
 * data URL or one of the service's files; a file is written `/files/<id>` or as the absolute url
 * POST /files answers (`<SHORT_URL_BASE>/files/<id>`), which the link service stores as the
 * relative form. Any other source is refused when the link is written (a 400 at
 * `data.landingHTML`), not dropped from the page without a word.
 */
import sanitizeHtml from 'sanitize-html';
import { isUuid } from '#platform/format/ids.js';
import { FieldErrorList } from '../../errors.js';

/** A base64 raster image as a data URL (what `<img>` may show from user data without a request). */
export function isDataImageUrl(value: unknown): value is `data:image/${string}` {
  return typeof value === 'string' && /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/]+=*$/i.test(value);
}

/**
 * Elements whose content is not markup to the landing sanitizer (redirect/pages/landing/landing-page.ts): an
 * `<img>` inside them is not an image of the page.
 */
export const LANDING_NON_TEXT_TAGS = [
  'script',
  'style',
  'textarea',
  'option',
  'xmp',
  'title',
  'noscript',
  'template',
  'iframe',
  'noembed',
  'noframes',
];

/** The `src` of every `<img>` (undefined for one without), in document order, parsed as the page's sanitizer parses. */
export function landingImageSources(landingHtml: string): Array<string | undefined> {
  const sources: Array<string | undefined> = [];
  sanitizeHtml(landingHtml, {
    allowedTags: ['img'],
    allowedAttributes: false,
    nonTextTags: LANDING_NON_TEXT_TAGS,
    // transformTags sees the attributes as written (before schemes are filtered).
    transformTags: {
      img: (tagName, attribs) => {
        sources.push(attribs.src);
        return { tagName, attribs };
      },
    },
  });
  return sources;
}

/** The file id of a relative file url (`/files/<id>`), else undefined. */
export function relativeFileId(src: string | undefined): string | undefined {
  const id = /^\/files\/([0-9a-f-]{36})$/i.exec(src ?? '')?.[1];
  return id !== undefined && isUuid(id) ? id : undefined;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `landingHtml` with the absolute file urls of `shortUrlBase` (what POST /files answers) made relative (`/files/<id>`). */
export function withRelativeFileUrls(landingHtml: string, shortUrlBase: string): string {
  const prefix = new RegExp(`${escapeRegExp(shortUrlBase.replace(/\/+$/, ''))}(?=/files/[0-9a-f-]{36})`, 'gi');
  return landingHtml.replace(prefix, '');
}

/** `landingHtml` with each relative file url whose id `ids` maps to another naming that one. */
export function withLandingFileIds(landingHtml: string, ids: ReadonlyMap<string, string>): string {
  return landingHtml.replace(/\/files\/([0-9a-f-]{36})(?![0-9a-f-])/gi, (whole, id: string) => {
    const to = ids.get(id.toLowerCase());
    return to === undefined ? whole : `/files/${to}`;
  });
}

const MAX_SHOWN_SRC = 80;

/**
 * Why each image of (already made relative) landing HTML would not be shown: one error at `path`
 * per image that has no source, or one that is neither a data image nor `/files/<id>`. Past
 * MAX_LISTED_ERRORS they are only counted (a page of 100,000 bad images built as many messages).
 */
export function landingImageProblems(landingHtml: string, shortUrlBase: string, path: string): FieldErrorList {
  const base = shortUrlBase.replace(/\/+$/, '');
  const problems = new FieldErrorList();
  landingImageSources(landingHtml).forEach((src, i) => {
    if (src !== undefined && (isDataImageUrl(src) || relativeFileId(src) !== undefined)) return;
    if (problems.full) return problems.countUnlisted(1);
    const shown =
      src === undefined || src === ''
        ? 'has no src'
        : `src "${src.length > MAX_SHOWN_SRC ? `${src.slice(0, MAX_SHOWN_SRC)}…` : src}" is not allowed`;
    problems.add({
      path,
      message: `Image ${i + 1} ${shown}: use a file's url as POST /files answers it (${base}/files/<fileId>), /files/<fileId>, or a base64 data:image/(png|jpeg|gif|webp) URL`,
    });
  });
  return problems;
}
