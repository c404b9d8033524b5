/** Links: the short link, its type and data, and the settings a scan is resolved with. */
import type { PageStyle } from './page-style.js';
import type { QueryPolicy, Utm } from './utm-fields.js';
import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, updatedAt, tstz } from '../columns.js';
import { accountId, accounts } from '../accounts/tables.js';
import { folders } from '../folders/tables.js';
import { domains } from '../domains/tables.js';

export const links = pgTable(
  'links',
  {
    id: id(),
    accountId: accountId(),
    /**
     * dynamic_link_id. On the default domain (the host of SHORT_URL_BASE) unique across the
     * service, exactly (the redirect resolves it case-sensitively) and ignoring case (no two links
     * are look-alikes); on a brand domain the same within the domain. Unique within the account
     * too, whatever the domain, so `/links/:id` names one link (decision 0426).
     */
    slug: text('slug').notNull(),
    /** The brand domain the link is served on; null: the default domain. A domain with links cannot be deleted. */
    domainId: uuid('domain_id').references(() => domains.id),
    /**
     * The slug equalled an older link's ignoring case when that became unique (migration 0003):
     * kept, and left out of `links_slug_lower_idx`. False again once the link takes a new slug.
     */
    slugCaseDuplicate: boolean('slug_case_duplicate').notNull().default(false),
    name: text('name').notNull(),
    type: text('type').notNull(),
    metaData: jsonb('meta_data').$type<Record<string, unknown>>().notNull(),
    qrOptions: jsonb('qr_options').$type<Record<string, unknown>>().notNull(),
    /** The brand and language of the link's page (domain/links/page-style.ts); null: the default look. */
    pageStyle: jsonb('page_style').$type<PageStyle>(),
    folderId: uuid('folder_id').references(() => folders.id, { onDelete: 'set null' }),
    /** Used by the cafe feature: the id of the cafe whose menu this link serves. */
    menu: text('menu'),
    favorite: boolean('favorite').notNull().default(false),
    paused: boolean('paused').notNull().default(false),
    urlActive: boolean('url_active').notNull().default(false),
    customUrl: text('custom_url'),
    scheduleActive: boolean('schedule_active').notNull().default(false),
    startDate: tstz('start_date'),
    endDate: tstz('end_date'),
    scheduleTimezone: text('schedule_timezone'),
    scanLimitActive: boolean('scan_limit_active').notNull().default(false),
    scanLimit: integer('scan_limit'),
    passwordProtectedActive: boolean('password_protected_active').notNull().default(false),
    /** bcrypt hash; plaintext is never stored. */
    password: text('password'),
    /**
     * The link existed before QR codes carried a source marker (migration 0028): its codes
     * printed then scan without one, so a scan without a marker is of unknown source, not a
     * click on the link (domain/links/attribution.ts).
     */
    unmarkedCodes: boolean('unmarked_codes').notNull().default(false),
    /** UTM parameters added to the destination (domain/links/utm.ts); null: none. */
    utm: jsonb('utm').$type<Utm>(),
    /** The visitor's own query string: 'drop' it (as before), or 'merge' it into the destination, the link's values winning. */
    queryPolicy: text('query_policy').$type<QueryPolicy>().notNull().default('drop'),
    /** A bulk job's id and the record's index in it: a retried job finds its links instead of duplicating them. */
    sourceJobId: uuid('source_job_id'),
    sourceIndex: integer('source_index'),
    /** Who made the link and who changed it last: a user id, or the key's id for a key of no person (actorIdOf). */
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('links_slug_idx')
      .on(t.slug)
      .where(sql`${t.domainId} is null`),
    uniqueIndex('links_slug_lower_idx')
      .on(sql`lower(${t.slug})`)
      .where(sql`not ${t.slugCaseDuplicate} and ${t.domainId} is null`),
    // A brand domain's links, by slug ignoring case: no look-alikes there either, and the redirect's lookup.
    uniqueIndex('links_domain_slug_lower_idx')
      .on(t.domainId, sql`lower(${t.slug})`)
      .where(sql`${t.domainId} is not null`),
    uniqueIndex('links_account_slug_key').on(t.accountId, t.slug),
    index('links_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    index('links_account_updated_idx').on(t.accountId, t.updatedAt.desc(), t.id.desc()),
    index('links_account_name_idx').on(t.accountId, sql`lower(${t.name})`, t.id),
    index('links_account_folder_idx').on(t.accountId, t.folderId),
    index('links_account_type_idx').on(t.accountId, t.type),
    index('links_account_menu_idx')
      .on(t.accountId, t.menu)
      .where(sql`${t.menu} is not null`),
    index('links_account_favorite_idx')
      .on(t.accountId, t.createdAt.desc())
      .where(sql`${t.favorite}`),
    // Case-insensitive substring search on name (ILIKE '%x%') needs trigrams to stay fast.
    index('links_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    // The same for `q`, which also matches the slug and a website link's destination.
    index('links_slug_trgm_idx').using('gin', sql`${t.slug} gin_trgm_ops`),
    index('links_url_trgm_idx').using('gin', sql`(${t.metaData}->>'url') gin_trgm_ops`),
    uniqueIndex('links_source_idx')
      .on(t.sourceJobId, t.sourceIndex)
      .where(sql`${t.sourceJobId} is not null`),
  ],
);

/**
 * A link's scan counters, one row per link (made with the link by the trigger of migration 0014,
 * however the link is inserted). They change with every batch of the link's scans, so they are
 * not in `links`: there the sort index on scan_count made each counter update write a new entry
 * into all twelve of the links' indexes; here it writes two.
 */
export const linkCounters = pgTable(
  'link_counters',
  {
    linkId: uuid('link_id')
      .primaryKey()
      .references(() => links.id, { onDelete: 'cascade' }),
    accountId: accountId(),
    /** All recorded scans, and the human ones (bots never count toward a scan limit). */
    scanCount: bigint('scan_count', { mode: 'number' }).notNull().default(0),
    humanScanCount: bigint('human_scan_count', { mode: 'number' }).notNull().default(0),
    /**
     * Human scans that were their visitor's first on the link that UTC day: what a scan limit
     * counts (docs/decisions/0371-a-scan-limit-counts-visitors.md).
     */
    limitScanCount: bigint('limit_scan_count', { mode: 'number' }).notNull().default(0),
    lastScannedAt: tstz('last_scanned_at'),
  },
  (t) => [index('link_counters_account_visited_idx').on(t.accountId, t.scanCount.desc(), t.linkId.desc())],
);

/**
 * Each account's links and the bytes of their non-file content (data and page style, as JSON
 * text), kept by triggers on `links` (migration 0020) so every way a link is made or removed
 * counts, and read against the plan's limits in the transaction that adds or grows a link
 * (domain/links/usage.ts; docs/decisions/0372-links-and-their-content-bounded-per-plan.md).
 */
export const accountLinkUsage = pgTable('account_link_usage', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  links: bigint('links', { mode: 'number' }).notNull().default(0),
  dataBytes: bigint('data_bytes', { mode: 'number' }).notNull().default(0),
});
