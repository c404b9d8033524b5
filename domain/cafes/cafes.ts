/**
 * Cafes: a digital menu and the link that serves it. A cafe is created with its link (type
 * `menu`, `links.menu` = the cafe's id, so GET /links?menu=<cafe id> finds it) in one
 * transaction, and goes with it: deleting either deletes the cafe, its groups, categories, items
 * and images (its images are files attached to its link, so the link's deletion takes them).
 *
 * Every write to a cafe or its menu runs in a transaction that first locks the cafe row
 * (`writeMenu`), so single writes and a whole-menu replacement never interleave, then marks the
 * cafe updated and, once committed, invalidates the link's cached copy on every redirect process,
 * as a link edit does: the menu page can rely on the cache never outliving a change.
 */
import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { cafes, domains, links } from '../schema.js';
import type { Principal } from '../accounts/api-keys.js';
import type { DomainContext } from '../context.js';
import { attachFiles, detachFiles } from '../files/files.js';
import type { Executor } from '../database.js';
import { isUuid } from '#platform/format/ids.js';
import { NotFoundError } from '../errors.js';
import { createLink, deleteLink, updateLinkQr } from '../links/links.js';
import { invalidateLinks } from '../links/resolve/invalidation.js';
import { linkAddress } from '../links/link-addresses.js';
import { wholeAccount } from '../links/scope.js';
import type { QrOptions } from '../qr/options.js';
import type { CafeUpdateInput, ProfileInput, ThemeInput } from './schemas.js';

export type CafeContext = Pick<DomainContext, 'db' | 'config' | 'storage' | 'redis'> & Partial<Pick<DomainContext, 'logger'>>;

export type CafeRow = typeof cafes.$inferSelect;

/** A cafe with what its answers show of its link. */
export interface CafeWithLink {
  cafe: CafeRow;
  slug: string;
  /** The brand domain its link is on; null: the default domain. */
  host: string | null;
  qrOptions: Record<string, unknown>;
}

/** A cafe as its write sees it: the row, locked, and its link's slug. */
export interface LockedCafe {
  id: string;
  accountId: string;
  linkId: string;
  slug: string;
  /** Its link's brand domain; null: the default domain. */
  host: string | null;
  logoFileId: string | null;
  coverFileId: string | null;
}

const withLink = { cafe: cafes, slug: links.slug, host: domains.hostname, qrOptions: links.qrOptions };

async function readCafes(db: Executor, accountId: string, cafeId?: string) {
  const where = cafeId ? and(eq(cafes.accountId, accountId), eq(cafes.id, cafeId)) : eq(cafes.accountId, accountId);
  return db
    .select(withLink)
    .from(cafes)
    .innerJoin(links, eq(links.id, cafes.linkId))
    .leftJoin(domains, eq(domains.id, links.domainId))
    .where(where)
    .orderBy(desc(cafes.createdAt), desc(cafes.id));
}

/** Newest first, like every other list of the account's resources. */
export async function listCafes(ctx: CafeContext, accountId: string): Promise<CafeWithLink[]> {
  return readCafes(ctx.db, accountId);
}

export async function getCafe(ctx: CafeContext, accountId: string, cafeId: string): Promise<CafeWithLink> {
  const [row] = isUuid(cafeId) ? await readCafes(ctx.db, accountId, cafeId) : [];
  if (!row) throw new NotFoundError('Cafe');
  return row;
}

/** 404 "Cafe not found" unless the cafe is the account's; reads nothing else. */
export async function assertCafe(db: Executor, accountId: string, cafeId: string): Promise<void> {
  const [row] = isUuid(cafeId)
    ? await db
        .select({ id: cafes.id })
        .from(cafes)
        .where(and(eq(cafes.accountId, accountId), eq(cafes.id, cafeId)))
    : [];
  if (!row) throw new NotFoundError('Cafe');
}

/** Locks the account's cafe row for the transaction (FOR UPDATE), or 404. */
export async function lockCafe(tx: Executor, accountId: string, cafeId: string): Promise<LockedCafe> {
  const [row] = isUuid(cafeId)
    ? await tx
        .select({
          id: cafes.id,
          accountId: cafes.accountId,
          linkId: cafes.linkId,
          slug: links.slug,
          host: domains.hostname,
          logoFileId: cafes.logoFileId,
          coverFileId: cafes.coverFileId,
        })
        .from(cafes)
        .innerJoin(links, eq(links.id, cafes.linkId))
        .leftJoin(domains, eq(domains.id, links.domainId))
        .where(and(eq(cafes.accountId, accountId), eq(cafes.id, cafeId)))
        .for('update', { of: cafes })
    : [];
  if (!row) throw new NotFoundError('Cafe');
  return row;
}

/**
 * Runs one write to a cafe or its menu: in a transaction holding the cafe row, which is marked
 * updated; after the commit the link's cached copies are dropped everywhere.
 */
export async function writeMenu<T>(
  ctx: CafeContext,
  accountId: string,
  cafeId: string,
  work: (tx: Executor, cafe: LockedCafe) => Promise<T>,
): Promise<T> {
  const { result, address } = await ctx.db.transaction(async (tx) => {
    const cafe = await lockCafe(tx, accountId, cafeId);
    const result = await work(tx, cafe);
    await tx
      .update(cafes)
      .set({ updatedAt: sql`now()` })
      .where(eq(cafes.id, cafe.id));
    return { result, address: linkAddress(cafe.host, cafe.slug) };
  });
  await invalidateLinks(ctx, [address]);
  return result;
}

/**
 * An image row's file changes: the new upload (if any) is attached to the cafe's link, and the
 * file it replaces (if any) is released for the orphan sweep. Returns the id to store (a new one
 * when another link had the file).
 */
export async function swapImage(tx: Executor, cafe: LockedCafe, current: string | null, next: string | null): Promise<string | null> {
  if (next === current) return current;
  // A file another link has is, for the cafe, a new file on the same bytes.
  const own = next ? ((await attachFiles(tx, cafe.accountId, cafe.linkId, [next])).get(next.toLowerCase()) ?? next) : null;
  if (current) await detachFiles(tx, cafe.linkId, [current]);
  return own;
}

export async function createCafe(
  ctx: CafeContext,
  who: Principal,
  body: { name: string; description?: string | null; language?: string | null },
): Promise<CafeWithLink> {
  const cafeId = randomUUID();
  await createLink(
    ctx,
    who,
    { name: body.name, type: 'menu', data: { name: body.name } },
    {
      menu: cafeId,
      within: async (tx, link) => {
        await tx.insert(cafes).values({
          id: cafeId,
          accountId: who.accountId,
          linkId: link.id,
          name: body.name,
          description: body.description ?? null,
          language: body.language ?? null,
        });
      },
    },
  );
  return getCafe(ctx, who.accountId, cafeId);
}

/** The link's name and its page's name follow the cafe's. */
async function renameLink(tx: Executor, linkId: string, name: string) {
  await tx
    .update(links)
    .set({ name, metaData: sql`${links.metaData} || jsonb_build_object('name', ${name}::text)`, updatedAt: sql`now()` })
    .where(eq(links.id, linkId));
}

/**
 * PUT /cafes/:id: the cafe's own fields; `qr_options` restyle its link (checked and stored as
 * PATCH /links/:id does, before the cafe's fields are written).
 */
export async function updateCafe(ctx: CafeContext, who: Principal, cafeId: string, body: CafeUpdateInput): Promise<CafeWithLink> {
  const { accountId } = who;
  if (body.qr_options) {
    const { slug } = await ctx.db.transaction((tx) => lockCafe(tx, accountId, cafeId));
    await updateLinkQr(ctx, who, slug, body.qr_options, 'qr_options');
  }
  await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    const set: Partial<typeof cafes.$inferInsert> = {};
    if (body.name !== undefined) set.name = body.name;
    if (body.description !== undefined) set.description = body.description;
    if (body.timezone !== undefined) set.timezone = body.timezone;
    if (body.language !== undefined) set.language = body.language;
    if (body.operating_hours !== undefined) set.operatingHours = body.operating_hours;
    if (body.facilities !== undefined) set.facilities = body.facilities;
    if (body.social_links !== undefined) set.socialLinks = body.social_links;
    if (Object.keys(set).length > 0) await tx.update(cafes).set(set).where(eq(cafes.id, cafe.id));
    if (body.name !== undefined) await renameLink(tx, cafe.linkId, body.name);
  });
  return getCafe(ctx, accountId, cafeId);
}

/** New logo / cover uploads, already stored (unattached) by the caller. */
export interface ProfileImages {
  logo?: string;
  cover?: string;
}

/** PUT /cafes/:id/profile: contact fields, logo and cover (replaced, or removed by the flags). */
export async function updateProfile(
  ctx: CafeContext,
  accountId: string,
  cafeId: string,
  form: ProfileInput,
  images: ProfileImages,
): Promise<CafeWithLink> {
  const deleteCover = form.delete_cover === true || form['delete_cafe-cover'] === true;
  await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    const set: Partial<typeof cafes.$inferInsert> = {};
    for (const key of ['name', 'title', 'subtitle', 'address', 'phone', 'email', 'website', 'description'] as const) {
      if (form[key] !== undefined) (set as Record<string, unknown>)[key] = form[key];
    }
    const logo = images.logo ?? (form.delete_logo ? null : cafe.logoFileId);
    const cover = images.cover ?? (deleteCover ? null : cafe.coverFileId);
    set.logoFileId = await swapImage(tx, cafe, cafe.logoFileId, logo);
    set.coverFileId = await swapImage(tx, cafe, cafe.coverFileId, cover);
    await tx.update(cafes).set(set).where(eq(cafes.id, cafe.id));
    if (form.name !== undefined) await renameLink(tx, cafe.linkId, form.name);
  });
  return getCafe(ctx, accountId, cafeId);
}

/** PUT /cafes/:id/theme: the theme and its colors; a color left out keeps its value, null returns to the theme's. */
export async function updateTheme(ctx: CafeContext, accountId: string, cafeId: string, body: ThemeInput): Promise<CafeWithLink> {
  await writeMenu(ctx, accountId, cafeId, async (tx, cafe) => {
    await tx
      .update(cafes)
      .set({
        themeImage: body.themeImage,
        ...(body.primaryColor !== undefined ? { primaryColor: body.primaryColor } : {}),
        ...(body.secondaryColor !== undefined ? { secondaryColor: body.secondaryColor } : {}),
        ...(body.showDietarySection !== undefined ? { showDietarySection: body.showDietarySection } : {}),
      })
      .where(eq(cafes.id, cafe.id));
  });
  return getCafe(ctx, accountId, cafeId);
}

/**
 * Deletes the cafe's link the way DELETE /links/:id does (its files, QR renders, scans), which
 * deletes the cafe and its menu first (see deleteLink). If a later step fails, the link stays and
 * DELETE /links/:id finishes the work.
 */
export async function deleteCafe(ctx: CafeContext, accountId: string, cafeId: string): Promise<void> {
  const [row] = isUuid(cafeId)
    ? await ctx.db
        .select({ slug: links.slug })
        .from(cafes)
        .innerJoin(links, eq(links.id, cafes.linkId))
        .where(and(eq(cafes.accountId, accountId), eq(cafes.id, cafeId)))
    : [];
  if (!row) throw new NotFoundError('Cafe');
  try {
    await deleteLink(ctx, wholeAccount(accountId), row.slug);
  } catch (err) {
    // Deleted meanwhile by another request: the same outcome.
    if (!(err instanceof NotFoundError)) throw err;
    throw new NotFoundError('Cafe');
  }
}

/** The menu page's language of the cafe a menu link belongs to (null: none set, or no cafe). */
export async function cafeLanguageOfLink(db: Executor, linkId: string): Promise<string | null> {
  const [row] = await db.select({ language: cafes.language }).from(cafes).where(eq(cafes.linkId, linkId)).limit(1);
  return row?.language ?? null;
}
