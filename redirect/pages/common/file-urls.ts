import { linkShortUrl } from '#domain/links/link-addresses.js';
import { tapPath } from '#domain/page-actions/actions.js';
import type { PageUrls } from './types.js';

/**
 * Where a hosted page links its link's files. A password-protected link's files are served only
 * under the link (`/<slug>/files/<id>`, to visitors holding its unlock cookie); every other file at
 * its public address (`/files/<id>`, cached for a year).
 */
export function fileUrlOf(link: { slug: string; passwordHash: string | null }): (id: string) => string {
  if (link.passwordHash === null) return publicFileUrl;
  const base = `/${encodeURIComponent(link.slug)}/files/`;
  return (id) => `${base}${id}`;
}

/** A file's public address. */
export const publicFileUrl = (id: string): string => `/files/${id}`;

/**
 * Where a link's page finds its files and downloads on this process, and its own address: under
 * its brand domain (`host`), else under `shortUrlBase`.
 */
export function linkPageUrls(link: { slug: string; passwordHash: string | null; host?: string | null }, shortUrlBase: string): PageUrls {
  return {
    file: fileUrlOf(link),
    vcard: `/${link.slug}/contact.vcf`,
    ics: `/${link.slug}/event.ics`,
    page: linkShortUrl({ SHORT_URL_BASE: shortUrlBase }, link.host ?? null, link.slug),
    tap: (action) => tapPath(link.slug, action),
  };
}
