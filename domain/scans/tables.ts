/** Scans and what analytics reads of them: per-hour link rows, rollups and the visitor keys of the day. */
import { boolean, date, index, integer, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { tstz } from '../columns.js';

/**
 * One row per resolved request to a short link. The id is made by the redirect process, so a
 * retried batch insert (ON CONFLICT (id, created_at) DO NOTHING) never counts a scan twice. No foreign keys: a
 * scan in flight for a link being deleted is dropped at insert, not failed.
 */
export const scans = pgTable(
  'scans',
  {
    id: uuid('id').notNull(),
    linkId: uuid('link_id').notNull(),
    accountId: uuid('account_id').notNull(),
    createdAt: tstz('created_at').notNull(),
    browserName: text('browser_name'),
    deviceType: text('device_type'),
    deviceVendor: text('device_vendor'),
    osName: text('os_name'),
    countryName: text('country_name'),
    region: text('region'),
    city: text('city'),
    isBot: boolean('is_bot').notNull().default(false),
    /**
     * Where the scan came from (domain/links/attribution.ts): 'qr' (the code's marker), 'link'
     * (no marker, on a link whose codes all carry one), null: unknown (no marker, on a link with
     * codes printed before markers).
     */
    source: text('source'),
    /** The link placement whose code was scanned (link_placements.id; no foreign key, as for link_id). */
    placementId: uuid('placement_id'),
    /** The host of the Referer header, lower case; never the full address. */
    referrerHost: text('referrer_host'),
    /** The utm_campaign the visitor was sent on with: the link's own, or the visitor's where the link merges its query. */
    utmCampaign: text('utm_campaign'),
    /**
     * Bit 1: the first scan of its visitor on its link that UTC day; bit 2: the first on its
     * account that day. Unique visitors are counted from these (docs/decisions/0183-unique-visitors.md).
     */
    visitorFirsts: smallint('visitor_firsts').notNull().default(0),
  },
  // Partitioned by month of created_at (db/migrations/0016, domain/scans/partitions.ts), so the key
  // holds created_at too; a scan's created_at comes with its id, so (id, created_at) is as unique.
  (t) => [
    primaryKey({ name: 'scans_pkey', columns: [t.id, t.createdAt] }),
    index('scans_account_created_idx').on(t.accountId, t.createdAt),
    index('scans_link_created_idx').on(t.linkId, t.createdAt),
  ],
);

/**
 * A link's scans per UTC hour and visitor facts (bot, browser, OS, country, city, device type; '' where
 * unknown), kept by the scans worker in the statement that inserts the scans. One row holds the
 * facts together, so a link whose scans are few costs about a row per scan, and a busy link
 * one row per distinct combination an hour.
 */
export const linkScanHours = pgTable(
  'link_scan_hours',
  {
    linkId: uuid('link_id').notNull(),
    hour: tstz('hour').notNull(),
    isBot: boolean('is_bot').notNull(),
    browserName: text('browser_name').notNull(),
    osName: text('os_name').notNull(),
    countryName: text('country_name').notNull(),
    city: text('city').notNull(),
    deviceType: text('device_type').notNull(),
    scans: integer('scans').notNull(),
    /** Scans that were their visitor's first on the link that UTC day. */
    visitors: integer('visitors').notNull(),
  },
  (t) => [
    primaryKey({
      name: 'link_scan_hours_pk',
      columns: [t.linkId, t.hour, t.isBot, t.browserName, t.osName, t.countryName, t.city, t.deviceType],
    }),
  ],
);

/**
 * Scans per bucket, one dimension at a time (0 all scans, 1 browser, 2 OS, 3 country, 4 city,
 * 5 link id, 6 device type), kept with link_scan_hours. An account's rows (scope_id = account id) hold every
 * dimension per UTC hour and per UTC day; a link's (scope_id = link id) all scans per UTC hour,
 * and every other dimension per UTC day, so a year of a busy link is a few hundred rows per value,
 * not a row per visitor combination and hour. Those per-dimension day rows are
 * there only for days before the account's link_days_from (written once the day is closed; the
 * days after are read from link_scan_hours).
 */
export const scanRollups = pgTable(
  'scan_rollups',
  {
    scopeId: uuid('scope_id').notNull(),
    dimension: smallint('dimension').notNull(),
    grain: text('grain').$type<'hour' | 'day'>().notNull(),
    bucket: tstz('bucket').notNull(),
    isBot: boolean('is_bot').notNull(),
    value: text('value').notNull(),
    scans: integer('scans').notNull(),
    /** Dimension 0 only: scans that were their visitor's first on the scope that UTC day. */
    visitors: integer('visitors').notNull(),
  },
  // The primary key also carries scans and visitors (INCLUDE, written in migration 0004; Drizzle
  // cannot say it), so a read is an index-only scan of one contiguous range: an account's year of
  // city rows is 55,000 rows on 9,000 scattered heap pages, 0.5-1.1 s through the heap and
  // 13-26 ms from the index alone (5 million scans).
  (t) => [primaryKey({ name: 'scan_rollups_pk', columns: [t.scopeId, t.dimension, t.grain, t.bucket, t.isBot, t.value] })],
);

/**
 * Visitor keys seen per link and per account (scope_id) and UTC day, so ingestion can tell a
 * visitor's first scan of the day. The keys are salted hashes whose salt lives in Redis for a
 * day; days older than two are pruned by the maintenance queue. The day leads the key: today's
 * inserts share one end of the index, and pruning deletes a range of it (no second index to keep).
 */
export const scanVisitorDays = pgTable(
  'scan_visitor_days',
  {
    day: date('day').notNull(),
    scopeId: uuid('scope_id').notNull(),
    visitorKey: text('visitor_key').notNull(),
  },
  (t) => [primaryKey({ name: 'scan_visitor_days_pk', columns: [t.day, t.scopeId, t.visitorKey] })],
);

/**
 * The batches of scans a worker has written to Postgres, by the batch's id (its job id): a redirect
 * keeps each batch's write-ahead file until its row is here, then deletes both the file and the
 * row (docs/decisions/0385-write-ahead-kept-until-postgres-has-the-scans.md). Rows nobody takes
 * (batches from a redirect without write-ahead, or a test) are pruned after a day.
 */
export const scanBatchAcks = pgTable(
  'scan_batch_acks',
  {
    batchId: uuid('batch_id').primaryKey(),
    ackedAt: tstz('acked_at').notNull().defaultNow(),
  },
  (t) => [index('scan_batch_acks_acked_at_idx').on(t.ackedAt)],
);

/**
 * The spool folders (SCAN_SPOOL_DIR) a redirect has used, per host and Redis namespace: a
 * redirect that starts with another folder takes over the files left in the ones before, which
 * hold scans Postgres may not have (docs/decisions/0386-stranded-spool-folders.md).
 */
export const scanSpoolFolders = pgTable(
  'scan_spool_folders',
  {
    host: text('host').notNull(),
    namespace: text('namespace').notNull(),
    dir: text('dir').notNull(),
    seenAt: tstz('seen_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'scan_spool_folders_pk', columns: [t.host, t.namespace, t.dir] })],
);
