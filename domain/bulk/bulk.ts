/**
 * Bulk generation: many links of one type in one all-or-nothing batch (POST /bulk-generate).
 *
 * The api checks the whole request (every record; then, in prepareBulkJob, the folder, the
 * template or options) and queues one `bulk-generate` job whose payload holds the records as they
 * will be stored. The worker (workers/processors/bulk-generate.ts) inserts every link in one
 * transaction, keyed by (source_job_id, source_index), so a retried job finds the batch it already
 * committed instead of inserting it again, then renders the batch's codes into one ZIP.
 */
import { and, eq, sql } from 'drizzle-orm';
import { folders, templates } from '../schema.js';
import { csvRecords } from '../csv.js';
import type { DomainContext } from '../context.js';
import { isUuid } from '#platform/format/ids.js';
import { firstCodePoints } from '#platform/format/text.js';
import { AppError, FieldErrorList, type FieldError } from '../errors.js';
import { isReservedSlug } from '../links/slug-rules.js';
import { AUTO_SLUG_LENGTH, generateSlug, shortUrl } from '../links/slugs.js';
import { linkShortUrl, shortUrlBaseOf } from '../links/link-addresses.js';
import { chooseLinkDomain, type LinkDomain } from '../links/link-domains.js';
import { checkStoredQrImage } from '../qr/image-source.js';
import { withQrDefaults, type QrOptions } from '../qr/options.js';
import { assertEncodable } from '../qr/qr-images.js';
import { BULK_PLACEMENT_CODE, type BulkGeneratePayload, type BulkLink } from './job.js';
import { recordToLink, type BulkLinkRecord, type BulkRequest } from './schemas.js';
import { assertLinkUsageWithinPlan } from '../links/usage.js';
import { assertFolderReachable, type LinkScope } from '../links/scope.js';
import { storedUtm } from '../links/schemas.js';

/**
 * The checks a schema cannot make, on a request whose records are checked already: a client's
 * batch lands in one of its folders, as a link it makes alone must (403 otherwise); the folder and
 * the template must be the account's, and the styling must draw every link's short URL (a centre
 * image that loads, a mode that can encode it). Returns the job's payload, or every problem found.
 */
export async function prepareBulkJob(
  ctx: Pick<DomainContext, 'db' | 'config' | 'storage'>,
  scope: LinkScope,
  body: BulkRequest,
): Promise<{ payload: BulkGeneratePayload | null; errors: FieldErrorList }> {
  const { accountId } = scope;
  assertFolderReachable(scope, body.folderId);
  const errors = new FieldErrorList();
  let folderId: string | null = null;
  if (body.folderId) {
    const [found] = isUuid(body.folderId)
      ? await ctx.db
          .select({ id: folders.id })
          .from(folders)
          .where(and(eq(folders.id, body.folderId), eq(folders.accountId, accountId)))
      : [];
    if (found) folderId = body.folderId;
    else errors.add({ path: 'folderId', message: 'Folder not found' });
  }
  let qrStyle: QrOptions = body.qrOptions ?? {};
  let stylePath = 'qrOptions';
  if (body.templateId) {
    stylePath = 'templateId';
    const [row] = isUuid(body.templateId)
      ? await ctx.db
          .select({ qrOptions: templates.qrOptions })
          .from(templates)
          .where(and(eq(templates.id, body.templateId), eq(templates.accountId, accountId)))
      : [];
    if (row) qrStyle = row.qrOptions;
    else errors.add({ path: 'templateId', message: 'Template not found' });
  }
  let domain: LinkDomain | null = null;
  try {
    domain = await chooseLinkDomain(ctx.db, ctx.config, accountId, body.domain);
  } catch (err) {
    // A turned-off domain is the whole request's 409; a name not the account's is one more 400 beside the others.
    if (!(err instanceof AppError) || err.statusCode !== 400) throw err;
    for (const error of err.body.errors as FieldError[]) errors.add(error);
  }
  try {
    await checkStoredQrImage(ctx, accountId, qrStyle.image, { path: stylePath === 'qrOptions' ? 'qrOptions.image' : 'templateId' });
    // Every random slug has the same length, so one sample stands for the batch's short URLs.
    assertEncodable(withQrDefaults(qrStyle, linkShortUrl(ctx.config, domain?.hostname ?? null, 'a'.repeat(AUTO_SLUG_LENGTH))), stylePath);
  } catch (err) {
    if (!(err instanceof AppError) || !Array.isArray(err.body.errors)) throw err;
    for (const error of err.body.errors as FieldError[]) errors.add(error);
  }
  if (errors.size > 0) return { payload: null, errors };
  const { data: _data, ...style } = qrStyle;
  return {
    payload: {
      type: body.type,
      records: body.data.map((r) => recordToLink(r as Record<string, unknown>)),
      folderId,
      qrStyle: style,
      domain,
      placement: body.placement ?? null,
      utm: storedUtm(body.utm ?? null),
      queryPolicy: body.queryPolicy ?? 'drop',
      ...(body.print && { print: body.print }),
    },
    errors,
  };
}

/** Draws `count` random slugs, none reserved and no two equal ignoring case (slugs are unique both ways). */
function drawSlugs(count: number, taken: Set<string>): string[] {
  const out: string[] = [];
  while (out.length < count) {
    const slug = generateSlug();
    const lower = slug.toLowerCase();
    if (taken.has(lower) || isReservedSlug(slug)) continue;
    taken.add(lower);
    out.push(slug);
  }
  return out;
}

/** Rounds of redrawing slugs that collided with existing links before the job gives up (62^7 slugs: never in practice). */
const SLUG_ROUNDS = 10;

/**
 * Inserts the batch's links in one transaction, one multi-row statement (arrays unnested) per
 * round: rows whose random slug is taken (exactly or ignoring case) are skipped by
 * `on conflict do nothing` and drawn again in the next round. Run under a lock on the job's id,
 * and a no-op when the job's rows exist already: a retried job (its worker killed after the
 * commit) gets the same links back, and one killed before it left nothing. The links come back in
 * record order.
 */
export async function insertBulkLinks(
  ctx: Pick<DomainContext, 'db' | 'config'>,
  accountId: string,
  jobId: string,
  payload: BulkGeneratePayload,
): Promise<BulkLink[]> {
  const total = payload.records.length;
  const base = `${shortUrlBaseOf(ctx.config, payload.domain?.hostname ?? null).replace(/\/+$/, '')}/`;
  // The defaults are applied once; each row's data (its short URL) is added in SQL.
  const style = JSON.stringify(withQrDefaults(payload.qrStyle, ''));
  const utm = payload.utm ? JSON.stringify(payload.utm) : null;
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${jobId}, 0))`);
    const existing = await tx.execute<{ id: string; slug: string; source_index: number }>(
      sql`select id, slug, source_index from links where source_job_id = ${jobId}::uuid and account_id = ${accountId}::uuid order by source_index`,
    );
    if (existing.rows.length > 0) {
      if (existing.rows.length !== total) throw new Error(`bulk job ${jobId} has ${existing.rows.length} of its ${total} links`);
      return existing.rows.map((r) => ({ id: r.id, dynamicLinkId: r.slug }));
    }
    const made: Array<BulkLink | undefined> = new Array(total);
    const taken = new Set<string>();
    let pending = payload.records.map((_, i) => i);
    for (let round = 1; pending.length > 0; round++) {
      if (round > SLUG_ROUNDS) throw new Error('Could not draw free slugs for the batch');
      const slugs = drawSlugs(pending.length, taken);
      const inserted = await tx.execute<{ id: string; slug: string; source_index: number }>(sql`
        insert into links (account_id, domain_id, slug, name, type, meta_data, qr_options, folder_id, source_job_id, source_index, utm, query_policy)
        select ${accountId}::uuid, ${payload.domain?.id ?? null}::uuid, r.slug, r.name, ${payload.type}::text, r.data, ${style}::jsonb || jsonb_build_object('data', ${base}::text || r.slug),
          (select f.id from folders f where f.id = ${payload.folderId}::uuid and f.account_id = ${accountId}::uuid), ${jobId}::uuid, r.idx,
          ${utm}::jsonb, ${payload.queryPolicy ?? 'drop'}::text
        from unnest(${sql.param(slugs)}::text[], ${sql.param(pending.map((i) => payload.records[i]!.name))}::text[],
          ${sql.param(pending.map((i) => JSON.stringify(payload.records[i]!.data)))}::jsonb[], ${sql.param(pending)}::int[]) as r(slug, name, data, idx)
        on conflict do nothing
        returning id, slug, source_index`);
      for (const row of inserted.rows) made[row.source_index] = { id: row.id, dynamicLinkId: row.slug };
      pending = pending.filter((i) => made[i] === undefined);
    }
    if (payload.placement) {
      // Each link's first placement, made with it: a retried job finds both or neither.
      await tx.execute(sql`
        insert into link_placements (account_id, link_id, name, code)
        select ${accountId}::uuid, id, ${payload.placement}::text, ${BULK_PLACEMENT_CODE}::text
        from unnest(${sql.param(made.map((m) => m!.id))}::uuid[]) as t(id)`);
    }
    await assertLinkUsageWithinPlan(tx, accountId, { links: total, dataBytes: 1 });
    return made as BulkLink[];
  });
}

/**
 * A record's name as a ZIP entry: letters, digits, `-` and `_` kept (any script), every other run
 * of characters one `_`, at most 60 characters (code points, so no pair is split), then `-<slug>`,
 * which makes it unique in the batch.
 */
export function zipEntryName(name: string, slug: string): string {
  const safe = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}_-]+/gu, '_')
    .replace(/^[_-]+|[_-]+$/g, '');
  return `${firstCodePoints(safe, 60) || 'link'}-${slug}`;
}

export const MANIFEST_COLUMNS = ['index', 'name', 'slug', 'short_url', 'png', 'svg'] as const;

/** manifest.csv: one row per link in request order (index from 0, as `data[i]`), for a print shop's merge. */
export function bulkManifest(shortUrlBase: string, rows: ReadonlyArray<{ name: string; slug: string }>): Buffer {
  const records = rows.map((r, i) => {
    const entry = zipEntryName(r.name, r.slug);
    return [String(i), r.name, r.slug, shortUrl(shortUrlBase, r.slug), `${entry}.png`, `${entry}.svg`];
  });
  return Buffer.from(`${MANIFEST_COLUMNS.join(',')}\r\n${csvRecords(records)}`, 'utf8');
}
