import type { Pool, QueryConfig } from '#platform/database/raw.js';
import type { PageStyle } from '../page-style.js';
import { menuVersionSql } from '../../cafes/menu-version.js';
import { withSendableDestinations } from './destinations.js';
import type { ResolvedLink, ResolvedLinkFile } from './resolved-link.js';

/**
 * One round trip: the link by its slug and the files attached to it. A named statement, because
 * every cache miss of every redirect process runs it. A menu link's files (every image of its
 * cafe) are not loaded: the menu page reads its images with the menu.
 */
const LOAD_BY_SLUG: QueryConfig = {
  name: 'resolve-link-by-slug',
  text: `select l.id, l.account_id, l.slug, l.name, l.type, l.meta_data, l.page_style, l.menu, l.paused,
      l.schedule_active, l.start_date, l.end_date, l.schedule_timezone,
      l.scan_limit_active, l.scan_limit, l.password_protected_active, l.password, l.updated_at,
      case when l.type = 'menu' then (select ${menuVersionSql('c')} from cafes c where c.link_id = l.id) end as menu_version,
      coalesce((select json_agg(json_build_object('id', f.id, 'contentType', f.content_type, 'size', f.size,
                  'originalName', f.original_name, 'variants', b.variants) order by f.created_at, f.id)
                from files f join file_blobs b on b.id = f.blob_id where f.link_id = l.id and l.type <> 'menu'), '[]'::json) as files
    from links l where l.slug = $1`,
};

interface LinkRecord {
  id: string;
  account_id: string;
  slug: string;
  name: string;
  type: string;
  meta_data: Record<string, unknown>;
  page_style: PageStyle | null;
  menu: string | null;
  menu_version: string | null;
  paused: boolean;
  schedule_active: boolean;
  start_date: Date | null;
  end_date: Date | null;
  schedule_timezone: string | null;
  scan_limit_active: boolean;
  scan_limit: number | null;
  password_protected_active: boolean;
  password: string | null;
  updated_at: Date;
  files: ResolvedLinkFile[];
}

export async function loadResolvedLink(pool: Pool, slug: string): Promise<ResolvedLink | null> {
  const { rows } = await pool.query<LinkRecord>({ ...LOAD_BY_SLUG, values: [slug] });
  const r = rows[0];
  if (!r) return null;
  return withSendableDestinations({
    id: r.id,
    accountId: r.account_id,
    slug: r.slug,
    name: r.name,
    type: r.type,
    data: r.meta_data,
    pageStyle: r.page_style,
    menu: r.menu,
    menuVersion: r.menu_version,
    paused: r.paused,
    scheduleActive: r.schedule_active,
    startDate: r.start_date?.getTime() ?? null,
    endDate: r.end_date?.getTime() ?? null,
    scheduleTimezone: r.schedule_timezone,
    scanLimitActive: r.scan_limit_active && r.scan_limit !== null,
    scanLimit: r.scan_limit,
    passwordHash: r.password_protected_active ? r.password : null,
    files: r.files.map((f) => ({ ...f, size: Number(f.size) })),
    updatedAt: r.updated_at.getTime(),
  });
}

/** The scans Postgres has counted against a link's limit; seeds the scan-limit counter when Redis has none. */
export async function loadLimitScanCount(pool: Pool, linkId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>({
    name: 'resolve-link-limit-scans',
    text: 'select limit_scan_count as n from link_counters where link_id = $1',
    values: [linkId],
  });
  return Number(rows[0]?.n ?? 0);
}
