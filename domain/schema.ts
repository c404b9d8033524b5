/**
 * The whole database, designed for all of the API at once so later features add code, not
 * tables. Every tenant-owned table carries account_id and every query filters on it.
 * Generated SQL lives in db/migrations (drizzle-kit generate); never edit an applied migration.
 */
import type { ImageVariant } from './files/image-variants.js';
import type { PageStyle } from './links/page-style.js';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  date,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => uuid('id').primaryKey().defaultRandom();
const accountId = () =>
  uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' });
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const PLANS = ['starter', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const accounts = pgTable(
  'accounts',
  {
    id: id(),
    name: text('name').notNull(),
    plan: text('plan').$type<Plan>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('accounts_plan_check', sql`${t.plan} in ('starter', 'pro', 'business', 'enterprise')`)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    accountId: accountId(),
    name: text('name'),
    /** SHA-256 (hex) of the whole key; the key itself is shown once and never stored. */
    keyHash: text('key_hash').notNull(),
    /** The first characters of the key, so a person can tell keys apart in a list. */
    keyPrefix: text('key_prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    active: boolean('active').notNull().default(true),
    expiresAt: tstz('expires_at'),
    lastUsedAt: tstz('last_used_at'),
    revokedAt: tstz('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_idx').on(t.keyHash),
    index('api_keys_account_idx').on(t.accountId, t.createdAt.desc()),
    // The expiry sweep reads only keys that can still expire.
    index('api_keys_expiry_idx').on(t.expiresAt).where(sql`${t.active} and ${t.expiresAt} is not null`),
  ],
);

export const folders = pgTable(
  'folders',
  {
    id: id(),
    accountId: accountId(),
    name: text('name').notNull(),
    /** The API key that created / last renamed the folder. */
    createdBy: uuid('created_by'),
    updatedBy: uuid('updated_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('folders_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc())],
);

export const templates = pgTable(
  'templates',
  {
    id: id(),
    accountId: accountId(),
    name: text('name').notNull(),
    qrOptions: jsonb('qr_options').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('templates_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc())],
);

export const links = pgTable(
  'links',
  {
    id: id(),
    accountId: accountId(),
    /**
     * dynamic_link_id: globally unique because the redirect process resolves by it alone (exactly,
     * case-sensitively), and unique ignoring case so no two links are look-alikes.
     */
    slug: text('slug').notNull(),
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
    /** All recorded scans, and the human ones (bots never count toward a scan limit). */
    scanCount: bigint('scan_count', { mode: 'number' }).notNull().default(0),
    humanScanCount: bigint('human_scan_count', { mode: 'number' }).notNull().default(0),
    lastScannedAt: tstz('last_scanned_at'),
    /** A bulk job's id and the record's index in it: a retried job finds its links instead of duplicating them. */
    sourceJobId: uuid('source_job_id'),
    sourceIndex: integer('source_index'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('links_slug_idx').on(t.slug),
    uniqueIndex('links_slug_lower_idx').on(sql`lower(${t.slug})`).where(sql`not ${t.slugCaseDuplicate}`),
    index('links_account_created_idx').on(t.accountId, t.createdAt.desc(), t.id.desc()),
    index('links_account_updated_idx').on(t.accountId, t.updatedAt.desc(), t.id.desc()),
    index('links_account_name_idx').on(t.accountId, sql`lower(${t.name})`, t.id),
    index('links_account_visited_idx').on(t.accountId, t.scanCount.desc(), t.id.desc()),
    index('links_account_folder_idx').on(t.accountId, t.folderId),
    index('links_account_type_idx').on(t.accountId, t.type),
    index('links_account_menu_idx').on(t.accountId, t.menu).where(sql`${t.menu} is not null`),
    index('links_account_favorite_idx').on(t.accountId, t.createdAt.desc()).where(sql`${t.favorite}`),
    // Case-insensitive substring search on name (ILIKE '%x%') needs trigrams to stay fast.
    index('links_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
    uniqueIndex('links_source_idx').on(t.sourceJobId, t.sourceIndex).where(sql`${t.sourceJobId} is not null`),
  ],
);

/**
 * Stored bytes, once per account and content: every file of the account with the same bytes
 * (uploaded twice, or made by duplicating a link) points here. `ref_count` is the number of
 * `files` rows that do, kept in the same transactions that add and remove them; the object and
 * this row are deleted when it reaches 0. Blobs are per account, so no account can learn whether
 * another stored a file. The storage quota counts these sizes.
 */
export const fileBlobs = pgTable(
  'file_blobs',
  {
    id: id(),
    accountId: accountId(),
    /** SHA-256 (hex) of the stored bytes; null for files stored before content addressing (never matched). */
    sha256: text('sha256'),
    storageKey: text('storage_key').notNull(),
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    refCount: integer('ref_count').notNull(),
    /** Web-sized copies of a photo, stored beside it (domain/files/image-variants.ts); null: none. */
    variants: jsonb('variants').$type<ImageVariant[]>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('file_blobs_account_sha256_idx').on(t.accountId, t.sha256),
    uniqueIndex('file_blobs_storage_key_idx').on(t.storageKey),
    check('file_blobs_ref_count_check', sql`${t.refCount} >= 0`),
  ],
);

/** A file as clients know it (its id is the `fileId` in link data): one reference to a blob. */
export const files = pgTable(
  'files',
  {
    id: id(),
    accountId: accountId(),
    /** The link whose data names this file; null until attached (orphans are swept). */
    linkId: uuid('link_id').references(() => links.id, { onDelete: 'set null' }),
    attachedAt: tstz('attached_at'),
    /** The bytes; a blob is deleted only once no file points to it. */
    blobId: uuid('blob_id')
      .notNull()
      .references(() => fileBlobs.id),
    /** The blob's type and size, copied: both are immutable, and lists read them without a join. */
    contentType: text('content_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    originalName: text('original_name'),
    createdAt: createdAt(),
  },
  (t) => [
    index('files_account_idx').on(t.accountId, t.createdAt.desc()),
    index('files_link_idx').on(t.linkId),
    index('files_blob_idx').on(t.blobId),
    index('files_orphan_idx').on(t.createdAt).where(sql`${t.attachedAt} is null`),
  ],
);

/**
 * One row per resolved request to a short link. The id is made by the redirect process, so a
 * retried batch insert (ON CONFLICT DO NOTHING) never counts a scan twice. No foreign keys: a
 * scan in flight for a link being deleted is dropped at insert, not failed.
 */
export const scans = pgTable(
  'scans',
  {
    id: uuid('id').primaryKey(),
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
     * Bit 1: the first scan of its visitor on its link that UTC day; bit 2: the first on its
     * account that day. Unique visitors are counted from these
     * (docs/decisions/0183-unique-visitors.md).
     */
    visitorFirsts: smallint('visitor_firsts').notNull().default(0),
  },
  (t) => [
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
  (t) => [primaryKey({ name: 'link_scan_hours_pk', columns: [t.linkId, t.hour, t.isBot, t.browserName, t.osName, t.countryName, t.city, t.deviceType] })],
);

/**
 * Scans per bucket, one dimension at a time (0 all scans, 1 browser, 2 OS, 3 country, 4 city,
 * 5 link id, 6 device type), kept with link_scan_hours. An account's rows (scope_id = account id) hold every
 * dimension per UTC hour and per UTC day; a link's (scope_id = link id) all scans per UTC hour and
 * every dimension per UTC day, so a year of a busy link is a few hundred rows per value, not a
 * row per visitor combination and hour.
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

export const JOB_STATES = ['queued', 'active', 'completed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

/**
 * The durable record of an account's background job (GET /jobs/:jobId); BullMQ holds the work
 * itself. `payload` is the job's input until it ends, and `queuePrefix` the REDIS_NAMESPACE it was
 * queued under, so a job Redis lost (wiped, failed over to an empty replica) is queued again
 * from here, in its own install's queue (domain/jobs/recovery.ts).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey(),
    accountId: accountId(),
    type: text('type').notNull(),
    state: text('state').$type<JobState>().notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    payload: jsonb('payload'),
    queuePrefix: text('queue_prefix'),
    result: jsonb('result'),
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: tstz('finished_at'),
    /** Bytes of the file the job left in storage (an export, a ZIP), counted against the account's job-file quota; null: none. */
    fileBytes: bigint('file_bytes', { mode: 'number' }),
  },
  (t) => [
    index('jobs_account_created_idx').on(t.accountId, t.createdAt.desc()),
    // The recovery sweep's read: the few jobs not finished, among a week of finished ones.
    index('jobs_unfinished_idx').on(t.createdAt).where(sql`${t.state} in ('queued', 'active')`),
    // An account's waiting and running jobs of one kind, read whenever one is queued or starts (domain/jobs/turns.ts).
    index('jobs_account_unfinished_idx').on(t.accountId, t.type, t.createdAt.desc()).where(sql`${t.state} in ('queued', 'active')`),
  ],
);

// ======================================================================================// Cafes: digital menus (domain/cafes). A cafe is served by its link (type `menu`, `links.menu` =
// the cafe's id) and goes with it. Every row carries the account and the cafe, so one cafe's menu
// is one index range per table, and replacing a whole menu (bulk insert) is three deletes by
// cafe_id and three inserts in one transaction. Writes to a menu hold the cafe row (FOR UPDATE)
// first, so they never interleave with each other or with a bulk replacement.
// =============================================================================================

export const cafes = pgTable(
  'cafes',
  {
    id: id(),
    accountId: accountId(),
    /** The link that serves this cafe's menu (type menu); deleting the link deletes the cafe. */
    linkId: uuid('link_id')
      .notNull()
      .references(() => links.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    /** IANA zone the operating hours are read in (for "open now"). */
    timezone: text('timezone').notNull().default('UTC'),
    operatingHours: jsonb('operating_hours').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    facilities: jsonb('facilities').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    socialLinks: jsonb('social_links').$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    title: text('title'),
    subtitle: text('subtitle'),
    address: text('address'),
    phone: text('phone'),
    email: text('email'),
    website: text('website'),
    logoFileId: uuid('logo_file_id').references(() => files.id, { onDelete: 'set null' }),
    coverFileId: uuid('cover_file_id').references(() => files.id, { onDelete: 'set null' }),
    themeImage: text('theme_image'),
    primaryColor: text('primary_color'),
    secondaryColor: text('secondary_color'),
    showDietarySection: boolean('show_dietary_section').notNull().default(true),
    /** The menu page's language (a canonical BCP 47 tag); null: each guest's browser language. */
    language: text('language'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('cafes_account_created_idx').on(t.accountId, t.createdAt.desc()), index('cafes_link_idx').on(t.linkId)],
);

export const cafeGroups = pgTable(
  'cafe_groups',
  {
    id: id(),
    accountId: accountId(),
    cafeId: uuid('cafe_id')
      .notNull()
      .references(() => cafes.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    visible: boolean('visible').notNull().default(true),
    sortOrder: integer('sort_order').notNull().default(0),
    imageFileId: uuid('image_file_id').references(() => files.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('cafe_groups_cafe_idx').on(t.cafeId, t.sortOrder)],
);

export const cafeCategories = pgTable(
  'cafe_categories',
  {
    id: id(),
    accountId: accountId(),
    cafeId: uuid('cafe_id')
      .notNull()
      .references(() => cafes.id, { onDelete: 'cascade' }),
    /** Deleting a group keeps its categories, ungrouped. */
    groupId: uuid('group_id').references(() => cafeGroups.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description'),
    type: text('type'),
    sortOrder: integer('sort_order').notNull().default(0),
    visible: boolean('visible').notNull().default(true),
    imageFileId: uuid('image_file_id').references(() => files.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Category names are unique ignoring case within a cafe: the database decides, so two
    // concurrent creates of "Drinks" and "drinks" cannot both win.
    uniqueIndex('cafe_categories_name_idx').on(t.cafeId, sql`lower(${t.name})`),
    index('cafe_categories_cafe_idx').on(t.cafeId, t.sortOrder),
  ],
);

export const SPICE_LEVELS = ['none', 'mild', 'medium', 'hot', 'extra_hot'] as const;

export const cafeItems = pgTable(
  'cafe_items',
  {
    id: id(),
    accountId: accountId(),
    cafeId: uuid('cafe_id')
      .notNull()
      .references(() => cafes.id, { onDelete: 'cascade' }),
    /** Deleting a category deletes its items. */
    categoryId: uuid('category_id')
      .notNull()
      .references(() => cafeCategories.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** Money is exact: numeric with 3 decimals (every ISO 4217 minor unit), read back as a string. */
    price: numeric('price', { precision: 12, scale: 3 }).notNull(),
    currency: text('currency').notNull().default('USD'),
    description: text('description'),
    visible: boolean('visible').notNull().default(true),
    isFeatured: boolean('is_featured').notNull().default(false),
    isNew: boolean('is_new').notNull().default(false),
    isRecommended: boolean('is_recommended').notNull().default(false),
    spiceLevel: text('spice_level').notNull().default('none'),
    ingredients: text('ingredients').array().notNull().default(sql`'{}'::text[]`),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    allergens: text('allergens').array().notNull().default(sql`'{}'::text[]`),
    imageFileId: uuid('image_file_id').references(() => files.id, { onDelete: 'set null' }),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('cafe_items_cafe_idx').on(t.cafeId, t.categoryId, t.sortOrder),
    check('cafe_items_spice_level_check', sql`${t.spiceLevel} in ('none', 'mild', 'medium', 'hot', 'extra_hot')`),
    check('cafe_items_price_check', sql`${t.price} >= 0`),
  ],
);

/**
 * `Idempotency-Key` headers of bulk requests, per account: the first request's body hash and the
 * job it started, so a retry (same key, same body) is answered from that job instead of making a
 * second batch, and the same key with another body is a 409. Kept at least
 * IDEMPOTENCY_KEY_TTL_MS (24 h); the maintenance queue prunes older ones.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: accountId(),
    key: text('key').notNull(),
    /** SHA-256 (hex) of the request's canonical form (domain/bulk/idempotency.ts). */
    requestHash: text('request_hash').notNull(),
    jobId: uuid('job_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pk', columns: [t.accountId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
