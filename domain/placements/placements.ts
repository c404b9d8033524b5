/**
 * A link's placements (a table tent, a window, flyer A): each has a QR image of its own, the same
 * short link with `?q=<code>` (domain/links/attribution.ts), so one campaign's codes are compared
 * without making separate links. A placement's code is the count of the link's placements so far
 * in base 36, so it is short and never given twice: a removed placement keeps its row (hidden),
 * and its printed codes go on counting as QR scans of no placement
 * (docs/decisions/0430-placements.md).
 */
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { DomainContext } from '../context.js';
import { ConflictError, NotFoundError } from '../errors.js';
import { findLinkRow } from '../links/links.js';
import { linkAddress } from '../links/link-addresses.js';
import { domainNameOf } from '../links/link-domains.js';
import { invalidateLinks } from '../links/resolve/invalidation.js';
import type { LinkScope } from '../links/scope.js';
import { links } from '../links/tables.js';
import { linkPlacements } from './tables.js';
import { isUuid } from '#platform/format/ids.js';

/** The most placements a link has at once: a campaign's spots, not a mailing list (codes for many people are bulk links). */
export const PLACEMENTS_PER_LINK = 100;

export type PlacementRow = typeof linkPlacements.$inferSelect;
type PlacementContext = Pick<DomainContext, 'db' | 'redis' | 'config' | 'logger'>;

/** The link's placements, oldest first (removed ones left out). */
export async function listPlacements(ctx: Pick<DomainContext, 'db'>, scope: LinkScope, slug: string): Promise<PlacementRow[]> {
  const link = await findLinkRow(ctx.db, scope, slug);
  return ctx.db
    .select()
    .from(linkPlacements)
    .where(and(eq(linkPlacements.linkId, link.id), isNull(linkPlacements.deletedAt)))
    .orderBy(asc(linkPlacements.createdAt), asc(linkPlacements.id));
}

/** One live placement of the link, or a 404 (another link's, another account's, removed). */
export async function findPlacement(ctx: Pick<DomainContext, 'db'>, linkId: string, id: string): Promise<PlacementRow> {
  if (!isUuid(id)) throw new NotFoundError('Placement');
  const [row] = await ctx.db
    .select()
    .from(linkPlacements)
    .where(and(eq(linkPlacements.id, id), eq(linkPlacements.linkId, linkId), isNull(linkPlacements.deletedAt)));
  if (!row) throw new NotFoundError('Placement');
  return row;
}

const nameTaken = () => new ConflictError('placement_name_taken', 'The link already has a placement of that name', 'name');

/** Whether `err` is the unique index on a link's live placement names refusing a second one. */
const isNameTaken = (err: unknown) => {
  const pg = (err as { cause?: { code?: string; constraint?: string } }).cause ?? (err as { code?: string; constraint?: string });
  return pg.code === '23505' && pg.constraint === 'link_placements_link_name_key';
};

/** The link's redirect copies must learn the new code → placement map. */
async function invalidate(ctx: PlacementContext, link: { domainId: string | null; slug: string }) {
  await invalidateLinks(ctx, [linkAddress(await domainNameOf(ctx.db, link), link.slug)]);
}

export async function createPlacement(ctx: PlacementContext, scope: LinkScope, slug: string, name: string): Promise<PlacementRow> {
  const link = await findLinkRow(ctx.db, scope, slug);
  const row = await ctx.db
    .transaction(async (tx) => {
      // The link's row lock orders the placements made at once, so each takes the next code.
      await tx.select({ id: links.id }).from(links).where(eq(links.id, link.id)).for('update');
      const [made] = await tx
        .select({ all: count(), live: sql<number>`count(*) filter (where ${linkPlacements.deletedAt} is null)::int` })
        .from(linkPlacements)
        .where(eq(linkPlacements.linkId, link.id));
      if (made!.live >= PLACEMENTS_PER_LINK)
        throw new ConflictError('placement_limit_reached', `A link can have ${PLACEMENTS_PER_LINK} placements; remove one to add another`);
      const code = (made!.all + 1).toString(36);
      const [inserted] = await tx.insert(linkPlacements).values({ accountId: link.accountId, linkId: link.id, name, code }).returning();
      return inserted!;
    })
    .catch((err: unknown) => {
      throw isNameTaken(err) ? nameTaken() : err;
    });
  await invalidate(ctx, link);
  return row;
}

export async function renamePlacement(ctx: PlacementContext, scope: LinkScope, slug: string, id: string, name: string) {
  const link = await findLinkRow(ctx.db, scope, slug);
  await findPlacement(ctx, link.id, id);
  const [row] = await ctx.db
    .update(linkPlacements)
    .set({ name, updatedAt: new Date() })
    .where(and(eq(linkPlacements.id, id), eq(linkPlacements.linkId, link.id), isNull(linkPlacements.deletedAt)))
    .returning()
    .catch((err: unknown) => {
      throw isNameTaken(err) ? nameTaken() : err;
    });
  if (!row) throw new NotFoundError('Placement');
  // The name is not in the redirect's copy: nothing to invalidate.
  return row;
}

/** Hides the placement; its code is not given again, and scans of it count as QR scans of no placement. */
export async function removePlacement(ctx: PlacementContext, scope: LinkScope, slug: string, id: string): Promise<void> {
  const link = await findLinkRow(ctx.db, scope, slug);
  await findPlacement(ctx, link.id, id);
  const [row] = await ctx.db
    .update(linkPlacements)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(linkPlacements.id, id), eq(linkPlacements.linkId, link.id), isNull(linkPlacements.deletedAt)))
    .returning({ id: linkPlacements.id });
  if (!row) throw new NotFoundError('Placement');
  await invalidate(ctx, link);
}
