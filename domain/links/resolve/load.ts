import type { Pool, QueryConfig } from '#platform/database/raw.js';
import type { PageStyle } from '../page-style.js';
import type { QueryPolicy, Utm } from '../utm-fields.js';
import { menuVersionSql } from '../../cafes/menu-version.js';
import { withSendableDestinations } from './destinations.js';
import { splitLinkAddress } from '../link-addresses.js';
import type { ResolvedLink, ResolvedLinkFile } from './resolved-link.js';

/** The columns a scan needs, from `links l`, and its files; the brand host is added by each query. */
const RESOLVED_COLUMNS = `l.id, l.account_id, l.slug, l.name, l.type, l.meta_data, l.page_style, l.menu, l.paused,
      l.schedule_active, l.start_date, l.end_date, l.schedule_timezone,
      l.scan_limit_active, l.scan_limit, l.password_protected_active, l.password, l.updated_at,
      l.unmarked_codes, l.utm, l.query_policy,
      coalesce((select json_object_agg(p.code, p.id) from link_placements p where p.link_id = l.id and p.deleted_at is null), '{}'::json) as placements,
      case when l.type = 'menu' then (select ${menuVersionSql('c')} from cafes c where c.link_id = l.id) end as menu_version,
      coalesce((select json_agg(json_build_object('id', f.id, 'contentType', f.content_type, 'size', f.size,
                  'originalName', f.original_name, 'variants', b.variants) order by f.created_at, f.id)
                from files f join file_blobs b on b.id = f.blob_id where f.link_id = l.id and l.type <> 'menu'), '[]'::json) as files`;

/**
 * One round trip: a default-domain link by its slug and the files attached to it. Named
 * statements, because every cache miss of every redirect process runs one. A menu link's files
 * (every image of its cafe) are not loaded: the menu page reads its images with the menu.
 */
const LOAD_BY_SLUG: QueryConfig = {
  name: 'resolve-link-by-slug',
  text: `select ${RESOLVED_COLUMNS}, null::text as host from links l where l.slug = $1 and l.domain_id is null`,
};

/**
 * The same for a brand domain's link, by the domain's name and the slug (exactly, like the default
 * domain's; the index is on the slug ignoring case). Whether the domain serves is the redirect's
 * to say (domain/domains/served-hosts.ts): a state kept here would outlive a check that changed it.
 */
const LOAD_BY_HOST_AND_SLUG: QueryConfig = {
  name: 'resolve-link-by-host-and-slug',
  text: `select ${RESOLVED_COLUMNS}, d.hostname as host from domains d join links l on l.domain_id = d.id
    where d.hostname = $1 and lower(l.slug) = lower($2) and l.slug = $2`,
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
  host: string | null;
  unmarked_codes: boolean;
  utm: Utm | null;
  query_policy: QueryPolicy;
  placements: Record<string, string>;
}

/** The link at `address` (its slug, or `<host>/<slug>` on a brand domain: link-domains.ts), or null. */
export async function loadResolvedLink(pool: Pool, address: string): Promise<ResolvedLink | null> {
  const { hostname, slug } = splitLinkAddress(address);
  const query = hostname === null ? { ...LOAD_BY_SLUG, values: [slug] } : { ...LOAD_BY_HOST_AND_SLUG, values: [hostname, slug] };
  const { rows } = await pool.query<LinkRecord>(query);
  const r = rows[0];
  if (!r) return null;
  return withSendableDestinations({
    id: r.id,
    accountId: r.account_id,
    slug: r.slug,
    host: r.host,
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
    unmarkedCodes: r.unmarked_codes,
    placements: r.placements,
    utm: r.utm,
    queryPolicy: r.query_policy,
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
