import type { Config } from '../../platform/config/index.js';
import { fileUrl } from '../files/files.js';
import { formatListDate } from '../../platform/format/dates.js';
import type { links } from '../schema.js';
import { shortUrl } from './slugs.js';
import { linkStatus } from './status.js';

export type LinkRow = typeof links.$inferSelect;

export interface LinkFileRow {
  id: string;
  linkId: string | null;
  contentType: string;
  size: number;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * A link as list and get answer it: every stored column (API contract), snake_case, dates of the record
 * as `Mon DD, YYYY`, schedule instants as ISO 8601, the password as its bcrypt hash, plus the
 * computed status and the files the link's data names.
 */
export function linkView(row: LinkRow, files: LinkFileRow[], config: Pick<Config, 'SHORT_URL_BASE'>, now = new Date()) {
  return {
    id: row.id,
    dynamic_link_id: row.slug,
    full_dynamic_url: shortUrl(config.SHORT_URL_BASE, row.slug),
    name: row.name,
    type: row.type,
    meta_data: row.metaData,
    qr_options: row.qrOptions,
    page_style: row.pageStyle ?? null,
    folder_id: row.folderId,
    menu: row.menu,
    favorite: row.favorite,
    paused: row.paused,
    status: linkStatus(row, now),
    url_active: row.urlActive,
    custom_url: row.customUrl,
    schedule_active: row.scheduleActive,
    start_date: iso(row.startDate),
    end_date: iso(row.endDate),
    schedule_timezone: row.scheduleTimezone,
    scan_limit_active: row.scanLimitActive,
    scan_limit: row.scanLimit,
    password_protected_active: row.passwordProtectedActive,
    password: row.password,
    scan_count: row.scanCount,
    human_scan_count: row.humanScanCount,
    last_scanned_at: iso(row.lastScannedAt),
    files: files.map((f) => ({ fileId: f.id, url: fileUrl(config, f.id), contentType: f.contentType, size: f.size })),
    created_at: formatListDate(row.createdAt),
    updated_at: formatListDate(row.updatedAt),
  };
}

type LinkView = ReturnType<typeof linkView>;
