/**
 * The links domain: create, read, list, update and the small actions. Routes stay thin and call
 * these; every query is scoped by what the caller reaches (scope.ts: its account, and a client's
 * folders), and a link outside that is "not found" like another account's.
 */
import bcrypt from 'bcrypt';
import { and, asc, count, desc, eq, getTableColumns, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { type Database } from '../database.js';
import { isUniqueViolation } from '#platform/database/pool.js';
import { domains, files, folders, linkCounters, links, scans, templates } from '../schema.js';
import { retractLinkFromRollups } from '../analytics/rollups.js';
import { deleteCafeOfLink } from '../cafes/link-deletion.js';
import { actorIdOf, type Principal } from '../accounts/api-keys.js';
import type { DomainContext } from '../context.js';
import { attachFiles, copyFiles, deleteFilesOfLink, detachFilesNotIn, findAccountFiles } from '../files/files.js';
import type { Executor } from '../database.js';
import { isUuid } from '#platform/format/ids.js';
import { ConflictError, formatPath, NotFoundError, ValidationError, type FieldError } from '../errors.js';
import { withQrDefaults, type QrOptions } from '../qr/options.js';
import { checkStoredQrImage } from '../qr/image-source.js';
import { assertEncodable, deleteQrCache } from '../qr/qr-images.js';
import { fileRefs, parseDateTimeInZone, withFileIds, type LinkType } from './data/index.js';
import { landingImageProblems, withRelativeFileUrls } from './data/landing-images.js';
import type { LinkConfigurations, LinkInput, LinkListQuery } from './schemas.js';
import { scheduleEnd, storedUtm } from './schemas.js';
import type { QueryPolicy, Utm } from './utm-fields.js';
import { invalidateLinks } from './resolve/invalidation.js';
import { pageStyleFileRefs, type PageStyle } from './page-style.js';
import { generateSlug } from './slugs.js';
import { chooseLinkDomain, domainNameOf, isLinkDomain, type LinkDomain } from './link-domains.js';
import { linkAddress, linkShortUrl } from './link-addresses.js';
import { linkStatusSql } from './status.js';
import { assertLinkUsageWithinPlan, linkDataBytes } from './usage.js';
import { assertFolderReachable, linksWithin, type LinkScope } from './scope.js';
import { recordLinkEvent, type LinkChange } from '../webhooks/link-events.js';

export type LinkRow = typeof links.$inferSelect;

/** A file of a link, as its answers list it. */
export interface LinkFileRow {
  id: string;
  linkId: string | null;
  contentType: string;
  size: number;
}

/** A link's scan counters (link_counters). */
interface LinkCounts {
  scanCount: number;
  humanScanCount: number;
  /** Human scans counted against a scan limit: each visitor's first of a UTC day. */
  limitScanCount: number;
  lastScannedAt: Date | null;
}

/**
 * A link with its counters, the files its data names (oldest first) and the name of its brand
 * domain (null: the default domain): what get, list and update give.
 */
export type LinkWithFiles = LinkRow & LinkCounts & { files: LinkFileRow[]; domain: string | null };

export type LinkContext = Pick<DomainContext, 'db' | 'config' | 'storage' | 'redis'> & Partial<Pick<DomainContext, 'logger'>>;

const BCRYPT_COST = 10;
const SLUG_ATTEMPTS = 5;

/** `folderId` when it is one of the account's folders; otherwise a 400 at `path`. */
async function accountFolderId(db: Database, accountId: string, folderId: string, path: string): Promise<string> {
  const found = isUuid(folderId)
    ? await db
        .select({ id: folders.id })
        .from(folders)
        .where(and(eq(folders.id, folderId), eq(folders.accountId, accountId)))
    : [];
  if (found.length === 0) throw new ValidationError([{ path, message: 'Folder not found' }]);
  return folderId;
}

/**
 * What linkConfigurations become in the row; a feature whose toggle is off stores nothing.
 * Protection on without a password keeps `storedPassword` (the hash a PUT's link has), so an edit
 * need not know the password; with none stored it is a 400.
 */
async function configColumns(db: Database, accountId: string, c: LinkConfigurations | undefined, storedPassword: string | null = null) {
  const cfg = c ?? {};
  if (cfg.passwordProtectedActive && cfg.password === undefined && storedPassword === null) {
    throw new ValidationError([{ path: 'linkConfigurations.password', message: 'Required when passwordProtectedActive is true' }]);
  }
  const folderId = cfg.folder_id ? await accountFolderId(db, accountId, cfg.folder_id, 'linkConfigurations.folder_id') : null;
  const schedule = cfg.scheduleActive === true;
  return {
    folderId,
    urlActive: cfg.urlActive === true,
    customUrl: cfg.urlActive ? cfg.customUrl! : null,
    scheduleActive: schedule,
    startDate: schedule ? parseDateTimeInZone(cfg.startDate!, cfg.scheduleTimezone!) : null,
    endDate: schedule ? scheduleEnd(cfg.endDate!, cfg.scheduleTimezone!) : null,
    scheduleTimezone: schedule ? cfg.scheduleTimezone! : null,
    scanLimitActive: cfg.scanLimitActive === true,
    scanLimit: cfg.scanLimitActive ? cfg.scanLimit! : null,
    passwordProtectedActive: cfg.passwordProtectedActive === true,
    // bcrypt runs on libuv's thread pool, not on the event loop.
    password: !cfg.passwordProtectedActive
      ? null
      : cfg.password === undefined
        ? storedPassword
        : await bcrypt.hash(cfg.password!, BCRYPT_COST),
  };
}

/**
 * The files a link names (its data's, its page style's logo and cover): each must exist, be the
 * account's and be of the right kind; a bad one is a 400 at its place (`data.files[0].fileId`,
 * `pageStyle.logo.fileId`); a landing's images must be files or data images (landing-images.ts).
 * One another link already uses is fine (attachFiles gives this link a
 * file of its own on the same bytes). Returns the ids to attach.
 */
async function checkFiles(
  db: Database,
  shortUrlBase: string,
  accountId: string,
  type: LinkType,
  data: unknown,
  style: PageStyle | null | undefined,
): Promise<string[]> {
  if (type === 'landing') {
    const problems = landingImageProblems((data as { landingHTML: string }).landingHTML, shortUrlBase, 'data.landingHTML');
    if (problems.size > 0) throw new ValidationError(problems);
  }
  const refs = [
    ...fileRefs(type, data).map((ref) => ({ ...ref, root: 'data' })),
    ...pageStyleFileRefs(style).map((ref) => ({ ...ref, root: 'pageStyle' })),
  ];
  if (refs.length === 0) return [];
  const found = new Map(
    (
      await findAccountFiles(
        db,
        accountId,
        refs.map((r) => r.fileId),
      )
    ).map((f) => [f.id, f]),
  );
  const errors: FieldError[] = [];
  for (const ref of refs) {
    const path = formatPath(ref.path, ref.root);
    // Several images share `data.landingHTML`: the message says which.
    const which = ref.path[0] === 'landingHTML' ? `Image /files/${ref.fileId}: ` : '';
    const file = found.get(ref.fileId.toLowerCase());
    if (!file) errors.push({ path, message: `${which}File not found` });
    else if (ref.kind === 'pdf' && file.contentType !== 'application/pdf') errors.push({ path, message: 'Must be a PDF file' });
    else if (ref.kind === 'image' && !file.contentType.startsWith('image/'))
      errors.push({ path, message: `${which}Must be an image file` });
  }
  if (errors.length) throw new ValidationError(errors);
  return [...new Set(refs.map((r) => r.fileId))];
}

/** The data as stored: a landing's file urls relative (`/files/<id>`), however POST /files answered them. */
function storedData(ctx: LinkContext, body: LinkInput): LinkInput['data'] {
  if (body.type !== 'landing' || typeof body.data.landingHTML !== 'string') return body.data;
  return { ...body.data, landingHTML: withRelativeFileUrls(body.data.landingHTML, ctx.config.SHORT_URL_BASE) };
}

/**
 * The link row naming the files it was given: a file another link had is, for this one, a new file
 * on the same bytes (attachFiles), and its data and page style must name that one.
 */
async function pointAtOwnFiles(tx: Executor, row: LinkRow, named: ReadonlyMap<string, string>): Promise<LinkRow> {
  const metaData = withFileIds(row.metaData, named);
  const pageStyle = withFileIds(row.pageStyle, named);
  if (metaData === row.metaData && pageStyle === row.pageStyle) return row;
  const [updated] = await tx.update(links).set({ metaData, pageStyle }).where(eq(links.id, row.id)).returning();
  return updated!;
}

function isSlugConflict(err: unknown): boolean {
  return isUniqueViolation(err, 'links_slug_idx', 'links_slug_lower_idx', 'links_domain_slug_lower_idx', 'links_account_slug_key');
}

/** The slug is taken on the domain a link was to move to (or elsewhere in the account). */
const slugTakenOnDomain = () =>
  new ConflictError('slug_taken', 'This link’s slug is already in use on that domain or elsewhere in the account', 'domain');

/** What a row's resolution is cached under (link-domains.ts). */
async function addressOf(db: Executor, row: Pick<LinkRow, 'domainId' | 'slug'>): Promise<string> {
  return linkAddress(await domainNameOf(db, row), row.slug);
}

const customUrlTaken = () => new ConflictError('slug_taken', 'Custom URL is already in use', 'linkConfigurations.customUrl');

/**
 * Inserts with a fresh random slug, or the custom one. A random slug that collides (exactly or
 * ignoring case: slugs are unique both ways) is drawn again; a custom slug that is taken is a 409.
 */
async function insertWithSlug(
  ctx: LinkContext,
  custom: string | null,
  insert: (tx: Executor, slug: string) => Promise<LinkRow>,
): Promise<LinkRow> {
  for (let attempt = 1; ; attempt++) {
    const slug = custom ?? generateSlug();
    try {
      return await ctx.db.transaction((tx) => insert(tx, slug));
    } catch (err) {
      if (!isSlugConflict(err)) throw err;
      if (custom) throw customUrlTaken();
      if (attempt >= SLUG_ATTEMPTS) throw err;
    }
  }
}

/** Stored options: the API contract's defaults applied, data = the short URL, checked to be encodable. */
function resolvedQr(options: QrOptions | Record<string, unknown>, url: string, pathPrefix = 'qrOptions') {
  const resolved = withQrDefaults(options, url);
  assertEncodable(resolved, pathPrefix);
  // A plain object for the jsonb column (an interface has no index signature to assign from).
  const stored: Record<string, unknown> = { ...resolved };
  return stored;
}

/** The styling part of stored options: what a template keeps and a new slug carries over. */
function styling(qr: Record<string, unknown>): QrOptions {
  const { data: _data, ...rest } = qr;
  return rest;
}

/**
 * What a feature built on a link adds to its creation: `menu` (the cafe the link serves), and
 * `within`, run in the transaction that inserts the link, so the feature's own rows and the link
 * are made together or not at all.
 */
export interface CreateLinkExtras {
  menu?: string;
  within?: (tx: Executor, row: LinkRow) => Promise<void>;
}

export async function createLink(ctx: LinkContext, who: Principal, body: LinkInput, extras: CreateLinkExtras = {}): Promise<LinkRow> {
  assertFolderReachable(who, body.linkConfigurations?.folder_id);
  const columns = await configColumns(ctx.db, who.accountId, body.linkConfigurations);
  // A centre image that cannot be loaded is the caller's 400 now, not a broken QR code later.
  await checkStoredQrImage(ctx, who.accountId, body.qrOptions?.image, { path: 'qrOptions.image' });
  const data = storedData(ctx, body);
  const fileIds = await checkFiles(ctx.db, ctx.config.SHORT_URL_BASE, who.accountId, body.type, data, body.pageStyle);
  const domain = await chooseLinkDomain(ctx.db, ctx.config, who.accountId, body.domain);
  const hostname = domain?.hostname ?? null;
  const row = await insertWithSlug(ctx, columns.customUrl, async (tx, slug) => {
    const [row] = await tx
      .insert(links)
      .values({
        accountId: who.accountId,
        slug,
        domainId: domain?.id ?? null,
        name: body.name,
        type: body.type,
        metaData: data,
        qrOptions: resolvedQr(body.qrOptions ?? {}, linkShortUrl(ctx.config, hostname, slug)),
        pageStyle: body.pageStyle ?? null,
        ...columns,
        utm: storedUtm(body.utm ?? null),
        queryPolicy: body.queryPolicy ?? 'drop',
        menu: extras.menu ?? null,
        createdBy: actorIdOf(who),
        updatedBy: actorIdOf(who),
      })
      .returning();
    const named = await attachFiles(tx, who.accountId, row!.id, fileIds);
    const own = await pointAtOwnFiles(tx, row!, named);
    await extras.within?.(tx, own);
    await assertLinkUsageWithinPlan(tx, who.accountId, { links: 1, dataBytes: 1 });
    await recordLinkEvent(tx, ctx.config, 'link.created', own, hostname);
    return own;
  });
  // A redirect process may hold "no such slug" for a custom slug that now exists.
  await invalidateLinks(ctx, [linkAddress(hostname, row.slug)]);
  return row;
}

export async function findLinkRow(db: Executor, scope: LinkScope, slug: string): Promise<LinkRow> {
  const [row] = await db
    .select()
    .from(links)
    .where(and(eq(links.slug, slug), linksWithin(scope)));
  if (!row) throw new NotFoundError('Link');
  return row;
}

async function filesOf(db: Executor, linkIds: string[]): Promise<Map<string, LinkFileRow[]>> {
  const byLink = new Map<string, LinkFileRow[]>();
  if (linkIds.length === 0) return byLink;
  const rows = await db
    .select({ id: files.id, linkId: files.linkId, contentType: files.contentType, size: files.size, createdAt: files.createdAt })
    .from(files)
    .where(inArray(files.linkId, linkIds))
    .orderBy(asc(files.createdAt), asc(files.id));
  for (const r of rows) {
    const list = byLink.get(r.linkId!) ?? [];
    list.push(r);
    byLink.set(r.linkId!, list);
  }
  return byLink;
}

/** A link's counters as its answers carry them (read from link_counters beside its row). */
const COUNT_COLUMNS = {
  scanCount: linkCounters.scanCount,
  humanScanCount: linkCounters.humanScanCount,
  limitScanCount: linkCounters.limitScanCount,
  lastScannedAt: linkCounters.lastScannedAt,
};

async function withFiles(db: Executor, row: LinkRow): Promise<LinkWithFiles> {
  const [byLink, [counts], domain] = await Promise.all([
    filesOf(db, [row.id]),
    db.select(COUNT_COLUMNS).from(linkCounters).where(eq(linkCounters.linkId, row.id)),
    domainNameOf(db, row),
  ]);
  if (!counts) throw new NotFoundError('Link');
  return { ...row, ...counts, files: byLink.get(row.id) ?? [], domain };
}

export async function getLink(ctx: LinkContext, scope: LinkScope, slug: string): Promise<LinkWithFiles> {
  return withFiles(ctx.db, await findLinkRow(ctx.db, scope, slug));
}

/** An ILIKE pattern matching `text` anywhere, its own wildcards taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function listConditions(scope: LinkScope, q: Omit<LinkListQuery, 'page' | 'size' | 'sort_by'> & { menu?: string }) {
  const where: SQL[] = [linksWithin(scope)];
  if (q.search) where.push(ilike(links.name, containing(q.search)));
  if (q.q) {
    const text = containing(q.q);
    where.push(or(ilike(links.name, text), ilike(links.slug, text), ilike(sql`${links.metaData}->>'url'`, text))!);
  }
  if (q.folder !== undefined) {
    // An id that cannot exist matches nothing rather than erroring.
    where.push(isUuid(q.folder) ? eq(links.folderId, q.folder) : sql`false`);
  }
  if (q.qr_type?.length) where.push(inArray(links.type, q.qr_type));
  if (q.status?.length) where.push(inArray(linkStatusSql, q.status));
  if (q.only_favorites) where.push(eq(links.favorite, true));
  if (q.menu !== undefined) where.push(eq(links.menu, q.menu));
  return and(...where)!;
}

function listOrder(sort: Exclude<LinkListQuery['sort_by'], 'most_visited'>) {
  switch (sort) {
    case 'name':
      return [asc(sql`lower(${links.name})`), asc(links.id)];
    case 'last_modified':
      return [desc(links.updatedAt), desc(links.id)];
    case 'most_recent':
    default:
      return [desc(links.createdAt), desc(links.id)];
  }
}

/**
 * The ids of the account's links matching `where`, one page in the list's order. Most visited is
 * the order of the counters (link_counters), joined to the links they count.
 */
function pageIds(db: Database, accountId: string, where: SQL, q: Pick<LinkListQuery, 'page' | 'size' | 'sort_by'>) {
  const offset = (q.page - 1) * q.size;
  if (q.sort_by === 'most_visited') {
    return (
      db
        .select({ id: links.id })
        .from(linkCounters)
        .innerJoin(links, eq(links.id, linkCounters.linkId))
        .where(and(eq(linkCounters.accountId, accountId), where))
        // Spelled as the index is (Drizzle writes its descending columns NULLS LAST, Postgres's desc
        // means NULLS FIRST), so a first page walks the index instead of sorting every link.
        .orderBy(sql`${linkCounters.scanCount} desc nulls last`, sql`${linkCounters.linkId} desc nulls last`)
        .limit(q.size)
        .offset(offset)
    );
  }
  return db
    .select({ id: links.id })
    .from(links)
    .where(where)
    .orderBy(...listOrder(q.sort_by))
    .limit(q.size)
    .offset(offset);
}

async function pageOf<T>(db: Database, where: SQL, q: Pick<LinkListQuery, 'page' | 'size'>, rows: () => Promise<T[]>) {
  const [[total], data] = await Promise.all([db.select({ n: count() }).from(links).where(where), rows()]);
  return { data, meta: { currentPage: q.page, totalPages: Math.ceil((total?.n ?? 0) / q.size) } };
}

export interface LinkListPage {
  meta: { currentPage: number; totalPages: number };
  /**
   * The ids of the page's links, in its order. Their rows are read with readLinks a chunk at a
   * time as the answer is written, so a page of big links (1000 landing pages of 500 KB) is never
   * held whole in memory.
   */
  ids: string[];
}

export async function listLinks(ctx: LinkContext, scope: LinkScope, q: LinkListQuery): Promise<LinkListPage> {
  const where = listConditions(scope, q);
  // The page is chosen on narrow (id, sort key) tuples that the indexes hold (sorting whole rows,
  // jsonb and all, spills to disk on a deep page of a large account); its rows are then read whole
  // by id, a chunk at a time, in that order (readLinks).
  const page = await pageOf(ctx.db, where, q, () => pageIds(ctx.db, scope.accountId, where, q));
  return { meta: page.meta, ids: page.data.map((r) => r.id) };
}

/**
 * The account's links of `ids` with their counters and files, in that order, in two queries. A
 * link deleted after its page was chosen is left out; one changed meanwhile is read as it is now.
 */
export async function readLinks(ctx: LinkContext, scope: LinkScope, ids: string[]): Promise<LinkWithFiles[]> {
  // One array parameter, not a list of up to a thousand: Postgres plans it faster (a 1000-row chunk
  // ~20 → ~15 ms); the scope's condition keeps the read scoped like every other.
  const where = and(linksWithin(scope), sql`${links.id} = any(${sql.param(ids)}::uuid[])`);
  const [rows, byLink] = await Promise.all([
    ctx.db
      .select({ ...getTableColumns(links), ...COUNT_COLUMNS, domain: domains.hostname })
      .from(links)
      .innerJoin(linkCounters, eq(linkCounters.linkId, links.id))
      .leftJoin(domains, eq(domains.id, links.domainId))
      .where(where),
    filesOf(ctx.db, ids),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [{ ...row, files: byLink.get(id) ?? [] }] : [];
  });
}

export async function listMinimalLinks(ctx: LinkContext, scope: LinkScope, q: Omit<LinkListQuery, 'menu'>) {
  const where = listConditions(scope, q);
  return pageOf(ctx.db, where, q, async () => {
    const ids = (await pageIds(ctx.db, scope.accountId, where, q)).map((r) => r.id);
    const rows = await ctx.db
      .select({ id: links.id, name: links.name, slug: links.slug })
      .from(links)
      .where(and(linksWithin(scope), sql`${links.id} = any(${sql.param(ids)}::uuid[])`));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const row = byId.get(id);
      return row ? [{ name: row.name, slug: row.slug }] : [];
    });
  });
}

/**
 * PUT: the same body as create replaces name, type, data and configuration. A new custom slug
 * moves the link (and its QR data) to it; turning the custom URL off keeps the current slug, so
 * codes already printed keep working. Files the new data no longer names are released.
 */
export async function updateLink(ctx: LinkContext, who: Principal, slug: string, body: LinkInput): Promise<LinkWithFiles> {
  const current = await findLinkRow(ctx.db, who, slug);
  // A client keeps its links inside its folders: an edit may not take one out of them.
  assertFolderReachable(who, body.linkConfigurations?.folder_id);
  if (current.menu !== null && body.type !== 'menu') {
    throw new ValidationError([
      { path: 'type', message: "This link serves a cafe's menu: its type stays menu (delete the cafe to free it)" },
    ]);
  }
  const columns = await configColumns(
    ctx.db,
    who.accountId,
    body.linkConfigurations,
    current.passwordProtectedActive ? current.password : null,
  );
  await checkStoredQrImage(ctx, who.accountId, body.qrOptions?.image, { path: 'qrOptions.image' });
  // Absent, the page style stays as it is; null clears it.
  const pageStyle = body.pageStyle === undefined ? current.pageStyle : body.pageStyle;
  const data = storedData(ctx, body);
  const fileIds = await checkFiles(ctx.db, ctx.config.SHORT_URL_BASE, who.accountId, body.type, data, pageStyle);
  const nextSlug = columns.customUrl ?? current.slug;
  const currentHost = await domainNameOf(ctx.db, current);
  // Absent or naming the link's own domain (even one turned off since), the link stays on it; a
  // move keeps its slug, so the slug must be free there.
  const stays = body.domain === undefined || isLinkDomain(ctx.config, currentHost, body.domain);
  const nextDomain: LinkDomain | null = stays
    ? current.domainId === null
      ? null
      : { id: current.domainId, hostname: currentHost! }
    : await chooseLinkDomain(ctx.db, ctx.config, who.accountId, body.domain);
  const moved = (nextDomain?.id ?? null) !== current.domainId;
  const qrBase = body.qrOptions ?? styling(current.qrOptions);
  let row: LinkRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      const bytesBefore = await linkDataBytes(tx, current.id);
      const [updated] = await tx
        .update(links)
        .set({
          slug: nextSlug,
          domainId: nextDomain?.id ?? null,
          // A new slug or domain is checked against every other slug ignoring case, whatever the old one was.
          slugCaseDuplicate: nextSlug === current.slug && !moved && current.slugCaseDuplicate,
          name: body.name,
          type: body.type,
          metaData: data,
          qrOptions: resolvedQr(qrBase, linkShortUrl(ctx.config, nextDomain?.hostname ?? null, nextSlug)),
          pageStyle,
          ...columns,
          ...attributionColumns(body),
          updatedBy: actorIdOf(who),
          updatedAt: new Date(),
        })
        .where(and(eq(links.id, current.id), eq(links.accountId, who.accountId)))
        .returning();
      // A cafe's link holds the cafe's images, which its data does not name: they stay.
      if (current.menu === null) await detachFilesNotIn(tx, current.id, fileIds);
      const own = await pointAtOwnFiles(tx, updated!, await attachFiles(tx, who.accountId, current.id, fileIds));
      await assertLinkUsageWithinPlan(tx, who.accountId, { links: 0, dataBytes: (await linkDataBytes(tx, current.id)) - bytesBefore });
      await recordLinkEvent(tx, ctx.config, 'link.updated', own, nextDomain?.hostname ?? null, 'edited');
      return own;
    });
  } catch (err) {
    if (isSlugConflict(err)) throw nextSlug === current.slug && moved ? slugTakenOnDomain() : customUrlTaken();
    throw err;
  }
  await invalidateLinks(ctx, [linkAddress(currentHost, current.slug), linkAddress(nextDomain?.hostname ?? null, row.slug)]);
  return withFiles(ctx.db, row);
}

/** What a link's UTM and query policy become: only what was given (an update leaves the rest as it is). */
function attributionColumns(change: { utm?: Utm | null | undefined; queryPolicy?: QueryPolicy | undefined }) {
  return {
    ...(change.utm !== undefined && { utm: storedUtm(change.utm) }),
    ...(change.queryPolicy !== undefined && { queryPolicy: change.queryPolicy }),
  };
}

/** What PATCH changes of a link: its QR styling, its UTM parameters, its query policy; absent, each stays. */
export interface LinkPatch {
  qrCode?: QrOptions | undefined;
  utm?: Utm | null | undefined;
  queryPolicy?: QueryPolicy | undefined;
}

/**
 * PATCH: any of new styling, UTM parameters and query policy. A change of where scans go drops
 * the link's cached resolution; styling alone does not reach the redirect.
 */
export async function patchLink(ctx: LinkContext, who: Principal, slug: string, patch: LinkPatch): Promise<LinkRow> {
  if (patch.utm === undefined && patch.queryPolicy === undefined) return updateLinkQr(ctx, who, slug, patch.qrCode ?? {});
  const current = await findLinkRow(ctx.db, who, slug);
  if (patch.qrCode) await checkStoredQrImage(ctx, who.accountId, patch.qrCode.image, { path: 'qrCode.image' });
  const hostname = await domainNameOf(ctx.db, current);
  const row = await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(links)
      .set({
        ...(patch.qrCode && { qrOptions: resolvedQr(patch.qrCode, linkShortUrl(ctx.config, hostname, current.slug), 'qrCode') }),
        ...attributionColumns(patch),
        updatedBy: actorIdOf(who),
        updatedAt: new Date(),
      })
      .where(eq(links.id, current.id))
      .returning();
    await recordLinkEvent(tx, ctx.config, 'link.updated', row!, hostname, 'edited');
    return row!;
  });
  await invalidateLinks(ctx, [linkAddress(hostname, row.slug)]);
  return row;
}

/**
 * PATCH: new styling; the encoded data always stays the link's short URL. `field` is where the
 * options were sent, for the paths of its 400s (a cafe's PUT sends them as `qr_options`).
 */
export async function updateLinkQr(ctx: LinkContext, who: Principal, slug: string, qrCode: QrOptions, field = 'qrCode') {
  const { accountId } = who;
  const current = await findLinkRow(ctx.db, who, slug);
  await checkStoredQrImage(ctx, accountId, qrCode.image, { path: `${field}.image` });
  const hostname = await domainNameOf(ctx.db, current);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(links)
      .set({
        qrOptions: resolvedQr(qrCode, linkShortUrl(ctx.config, hostname, current.slug), field),
        updatedBy: actorIdOf(who),
        updatedAt: new Date(),
      })
      .where(eq(links.id, current.id))
      .returning();
    await recordLinkEvent(tx, ctx.config, 'link.updated', row!, hostname, 'qr_styled');
    return row!;
  });
}

/** Permanent: the link, its files (objects and rows) and its scans; a menu link's cafe and menu first. */
export async function deleteLink(ctx: LinkContext, scope: LinkScope, slug: string): Promise<void> {
  const { accountId } = scope;
  const row = await findLinkRow(ctx.db, scope, slug);
  const hostname = await domainNameOf(ctx.db, row);
  await deleteCafeOfLink(ctx.db, row.id);
  await deleteFilesOfLink(ctx, row.id);
  await deleteQrCache(ctx, accountId, `link-${row.id}`);
  await ctx.db.transaction(async (tx) => {
    // The scans worker locks a link's row while it writes its scans: waiting for that lock first
    // means no batch committed in between can leave scans of a deleted link behind.
    await tx.select({ id: links.id }).from(links).where(eq(links.id, row.id)).for('update');
    await retractLinkFromRollups(tx, { id: row.id, accountId });
    await tx.delete(scans).where(eq(scans.linkId, row.id));
    await tx.delete(links).where(eq(links.id, row.id));
    await recordLinkEvent(tx, ctx.config, 'link.deleted', row, hostname);
  });
  await invalidateLinks(ctx, [linkAddress(hostname, row.slug)], [row.id]);
}

/** Sets simple flags (paused, favorite); answers 404 for a link that is not the caller's. */
export async function setLinkFlags(ctx: LinkContext, who: Principal, slug: string, flags: { paused?: boolean; favorite?: boolean }) {
  const change: LinkChange =
    flags.paused !== undefined ? (flags.paused ? 'paused' : 'resumed') : flags.favorite ? 'favorited' : 'unfavorited';
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(links)
      .set({ ...flags, updatedBy: actorIdOf(who), updatedAt: new Date() })
      .where(and(eq(links.slug, slug), linksWithin(who)))
      .returning();
    if (!updated) throw new NotFoundError('Link');
    await recordLinkEvent(tx, ctx.config, 'link.updated', updated, await domainNameOf(tx, updated), change);
    return updated;
  });
  if (flags.paused !== undefined) await invalidateLinks(ctx, [await addressOf(ctx.db, row)]);
}

/** Puts a link in one of the account's folders, or in none (null); nothing else of the link changes. */
export async function moveLink(ctx: LinkContext, who: Principal, slug: string, folderId: string | null): Promise<void> {
  const { accountId } = who;
  // A link out of reach is its 404 whatever the folder named; then a client may only move it between its folders.
  await findLinkRow(ctx.db, who, slug);
  assertFolderReachable(who, folderId);
  const folder = folderId === null ? null : await accountFolderId(ctx.db, accountId, folderId, 'folder_id');
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(links)
      .set({ folderId: folder, updatedBy: actorIdOf(who), updatedAt: new Date() })
      .where(and(eq(links.slug, slug), linksWithin(who)))
      .returning();
    if (!row) throw new NotFoundError('Link');
    await recordLinkEvent(tx, ctx.config, 'link.updated', row, await domainNameOf(tx, row), 'moved');
  });
}

/**
 * A new link with the same type, data, configuration and styling under a new random slug. Its
 * files are new files on the same stored bytes (no byte is copied, no quota used), so deleting
 * either link never takes the other's media with it. A custom slug is not copied (it is unique);
 * the copy gets a random one.
 */
export async function duplicateLink(ctx: LinkContext, who: Principal, slug: string, name?: string): Promise<LinkRow> {
  // The copy keeps the source's folder, so a client's copy stays inside its folders.
  const source = await findLinkRow(ctx.db, who, slug);
  const { id: _id, slug: _slug, createdAt: _c, updatedAt: _u, sourceJobId: _j, sourceIndex: _i, favorite: _f, ...rest } = source;
  const hostname = await domainNameOf(ctx.db, source);
  const copy = await insertWithSlug(ctx, null, async (tx, newSlug) => {
    const named = [...fileRefs(source.type as LinkType, source.metaData), ...pageStyleFileRefs(source.pageStyle)];
    const copies = await copyFiles(
      tx,
      who.accountId,
      named.map((ref) => ref.fileId),
    );
    // Point the copy's data and page style at its own files.
    const data = withFileIds(source.metaData, copies);
    const [row] = await tx
      .insert(links)
      .values({
        ...rest,
        name: name ?? `${source.name} (copy)`,
        metaData: data,
        pageStyle: withFileIds(source.pageStyle, copies),
        // A cafe has one link; a copy of it is a menu link of no cafe (its images are not copied either).
        menu: null,
        urlActive: false,
        customUrl: null,
        qrOptions: resolvedQr(styling(source.qrOptions), linkShortUrl(ctx.config, hostname, newSlug)),
        slug: newSlug,
        slugCaseDuplicate: false,
        createdBy: actorIdOf(who),
        updatedBy: actorIdOf(who),
      })
      .returning();
    await attachFiles(tx, who.accountId, row!.id, [...copies.values()]);
    await assertLinkUsageWithinPlan(tx, who.accountId, { links: 1, dataBytes: 1 });
    await recordLinkEvent(tx, ctx.config, 'link.created', row!, hostname);
    return row!;
  });
  await invalidateLinks(ctx, [linkAddress(hostname, copy.slug)]);
  return copy;
}

/** Saves the link's QR styling (without its data) as a new template. */
export async function saveLinkAsTemplate(db: Database, scope: LinkScope, slug: string, name?: string) {
  const { accountId } = scope;
  const link = await findLinkRow(db, scope, slug);
  const [row] = await db
    .insert(templates)
    .values({ accountId, name: name ?? link.name, qrOptions: styling(link.qrOptions) as Record<string, unknown> })
    .returning({ id: templates.id });
  return row!;
}
