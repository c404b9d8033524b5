import type { Config } from '#platform/config/index.js';
import { fileUrl } from '#domain/files/files.js';
import { formatListDate } from '../../dates.js';
import type { LinkWithFiles } from '#domain/links/links.js';
import { defaultHostname, linkShortUrl } from '#domain/links/link-addresses.js';
import { linkStatus } from '#domain/links/status.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A link as list, get and update answer it (linkResponse): every stored column (API contract),
 * snake_case, dates of the record as `Mon DD, YYYY`, schedule instants as ISO 8601, the password as
 * its bcrypt hash, plus the status at `now` and the files the link's data names.
 */
export function linkView(link: LinkWithFiles, config: Pick<Config, 'SHORT_URL_BASE'>, now = new Date()) {
  return {
    id: link.id,
    dynamic_link_id: link.slug,
    full_dynamic_url: linkShortUrl(config, link.domain, link.slug),
    domain: link.domain ?? defaultHostname(config),
    name: link.name,
    type: link.type,
    meta_data: link.metaData,
    qr_options: link.qrOptions,
    page_style: link.pageStyle ?? null,
    folder_id: link.folderId,
    menu: link.menu,
    favorite: link.favorite,
    paused: link.paused,
    status: linkStatus(link, now),
    url_active: link.urlActive,
    custom_url: link.customUrl,
    schedule_active: link.scheduleActive,
    start_date: iso(link.startDate),
    end_date: iso(link.endDate),
    schedule_timezone: link.scheduleTimezone,
    scan_limit_active: link.scanLimitActive,
    scan_limit: link.scanLimit,
    password_protected_active: link.passwordProtectedActive,
    password: link.password,
    scan_count: link.scanCount,
    human_scan_count: link.humanScanCount,
    limit_scan_count: link.limitScanCount,
    last_scanned_at: iso(link.lastScannedAt),
    files: link.files.map((f) => ({ fileId: f.id, url: fileUrl(config, f.id), contentType: f.contentType, size: f.size })),
    created_at: formatListDate(link.createdAt),
    updated_at: formatListDate(link.updatedAt),
    created_by: link.createdBy,
    updated_by: link.updatedBy,
    utm: link.utm ?? null,
    query_policy: link.queryPolicy,
  };
}
