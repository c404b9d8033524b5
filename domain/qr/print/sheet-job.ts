/**
 * POST /print-sheets as a use case: which links a sheet prints (chosen by ids, a folder or a bulk
 * job, always within the caller's scope: docs/decisions/0412), and, in the worker, the codes and
 * captions the sheet is drawn from (sheets.ts draws it on a render thread). Decision 0441.
 */
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { DomainContext } from '../../context.js';
import type { Database } from '../../database.js';
import { NotFoundError, ValidationError } from '../../errors.js';
import { getFolder } from '../../folders/folders.js';
import { getJobView, type JobViewer } from '../../jobs/records.js';
import type { BulkGenerateResult } from '../../bulk/job.js';
import { BULK_MAX_RECORDS } from '../../bulk/schemas.js';
import { cafes } from '../../cafes/tables.js';
import { linkShortUrl } from '../../links/link-addresses.js';
import { linksWithin, wholeAccount, type LinkScope } from '../../links/scope.js';
import { markedShortUrl } from '../../links/source-marker.js';
import { domains, links } from '../../schema.js';
import { loadQrImage } from '../image-source.js';
import { withQrDefaults } from '../options.js';
import type { QrImage } from '../render/index.js';
import { frameLanguageOf } from './frame-texts.js';
import type { PdfColorSpace } from '#platform/pdf/pdf-document.js';
import {
  gridLayout,
  sheetPages,
  type SheetCode,
  type SheetPaper,
  type SheetRequest,
  type SheetTemplate,
  type SheetTent,
} from './sheets.js';

/** The most links one sheet job prints: a bulk batch's worth (BULK_MAX_RECORDS), about 50 A4 pages at 30 mm. */
export const SHEET_MAX_LINKS = BULK_MAX_RECORDS;
export const PRINT_SHEET_FILE = 'print-sheet.pdf';

/** What a sheet is made of, once its links are chosen: the job's stored input. */
export interface PrintSheetPayload {
  /** Internal link ids, in print order. */
  linkIds: string[];
  template: SheetTemplate;
  paper: SheetPaper;
  sizeMm: number;
  marginsMm: number;
  caption: boolean;
  cropMarks: boolean;
  colorSpace: PdfColorSpace;
}

export interface PrintSheetResult {
  fileName: string;
  downloadUrl: string;
  /** Codes printed (grid), or tents (one per cafe). */
  count: number;
  pages: number;
  bytes: number;
  /** Links chosen that were not printed: deleted since, or (table-tent) not a cafe's menu. */
  skipped: number;
}

export type SheetSelection = { linkIds: string[] } | { folderId: string } | { bulkJobId: string };
export type PrintSheetOptions = Omit<PrintSheetPayload, 'linkIds'>;

/**
 * The internal ids of the links a sheet prints, in order: the ids asked for (any the caller
 * cannot reach is a 404, as every link route answers), a folder's links (oldest first), or a bulk
 * job's links in their batch order (those still there). Also refuses a sheet too big or empty,
 * or a size that fits no page.
 */
export async function chooseSheetLinks(
  db: Database,
  scope: LinkScope & JobViewer,
  selection: SheetSelection,
  options: PrintSheetOptions,
): Promise<string[]> {
  const ids = await selectedIds(db, scope, selection);
  const where = 'linkIds' in selection ? 'linkIds' : 'folderId' in selection ? 'folderId' : 'bulkJobId';
  if (ids.length === 0) throw new ValidationError([{ path: where, message: 'No links to print' }]);
  if (ids.length > SHEET_MAX_LINKS) {
    throw new ValidationError([{ path: where, message: `A sheet prints at most ${SHEET_MAX_LINKS} links; this chooses ${ids.length}` }]);
  }
  if (options.template === 'grid' && gridLayout(options).perPage === 0) {
    throw new ValidationError([
      { path: 'sizeMm', message: `A ${options.sizeMm} mm code does not fit a ${options.paper} page inside these margins` },
    ]);
  }
  return ids;
}

async function selectedIds(db: Database, scope: LinkScope & JobViewer, selection: SheetSelection): Promise<string[]> {
  if ('linkIds' in selection) {
    const slugs = [...new Set(selection.linkIds)];
    if (slugs.length > SHEET_MAX_LINKS) return slugs;
    const rows = slugs.length
      ? await db
          .select({ id: links.id, slug: links.slug })
          .from(links)
          .where(and(inArray(links.slug, slugs), linksWithin(scope)))
      : [];
    const bySlug = new Map(rows.map((r) => [r.slug, r.id]));
    const missing = slugs.find((s) => !bySlug.has(s));
    if (missing !== undefined) throw new NotFoundError('Link');
    return slugs.map((s) => bySlug.get(s)!);
  }
  if ('folderId' in selection) {
    const folder = await getFolder(db, scope, selection.folderId);
    const rows = await db
      .select({ id: links.id })
      .from(links)
      .where(and(eq(links.folderId, folder.id), linksWithin(scope)))
      .orderBy(asc(links.createdAt), asc(links.id))
      .limit(SHEET_MAX_LINKS + 1);
    return rows.map((r) => r.id);
  }
  const job = await getJobView(db, scope, selection.bulkJobId);
  if (job.type !== 'bulk-generate') throw new NotFoundError('Job');
  const made = (job.result as BulkGenerateResult | undefined)?.links;
  if (!made) throw new ValidationError([{ path: 'bulkJobId', message: 'The bulk job has not made its links yet; retry when it has' }]);
  const ids = made.map((l) => l.id);
  const reachable = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .select({ id: links.id })
      .from(links)
      .where(and(inArray(links.id, ids.slice(i, i + 500)), linksWithin(scope)));
    for (const r of rows) reachable.add(r.id);
  }
  return ids.filter((id) => reachable.has(id));
}

type SheetContext = Pick<DomainContext, 'db' | 'config' | 'storage'>;

interface SheetLinkRow {
  id: string;
  slug: string;
  name: string;
  host: string | null;
  qrOptions: Record<string, unknown>;
}

/**
 * What the render thread draws: each link's code (its own design, encoding its short URL with the
 * scan marker, as GET /links/:id/qr does) and caption; logos loaded once each. `onProgress` is
 * told how many links are ready.
 */
export async function prepareSheet(
  ctx: SheetContext,
  accountId: string,
  payload: PrintSheetPayload,
  onProgress: (ready: number) => Promise<void>,
): Promise<{ request: SheetRequest; skipped: number; pages: number }> {
  const rows = await linkRows(ctx.db, accountId, payload.linkIds);
  const logos: QrImage[] = [];
  const logoIndex = new Map<string, number>();
  const codeOf = async (row: SheetLinkRow, name = row.name): Promise<SheetCode> => {
    const shortUrl = linkShortUrl(ctx.config, row.host, row.slug);
    const options = withQrDefaults(row.qrOptions, markedShortUrl(shortUrl));
    let logo: number | null = null;
    if (options.image) {
      logo = logoIndex.get(options.image) ?? null;
      if (logo === null) {
        // A logo that cannot be loaded fails the job with its reason, as GET …/qr answers 400: a sheet is never printed without it.
        const image = await loadQrImage(ctx, accountId, options.image, { path: `links.${row.slug}.qr_options.image` });
        if (image) {
          logo = logos.push(image) - 1;
          logoIndex.set(options.image, logo);
        }
      }
    }
    return { options, logo, name, fallback: shortUrl.replace(/^https?:\/\//, '') };
  };

  const codes: SheetCode[] = [];
  const tents: SheetTent[] = [];
  if (payload.template === 'grid') {
    for (const row of rows) {
      codes.push(await codeOf(row));
      if (codes.length % 100 === 0) await onProgress(codes.length);
    }
  } else {
    for (const tent of await cafeTents(ctx.db, accountId, rows)) {
      tents.push({
        cafeName: tent.cafeName,
        language: tent.language,
        menu: await codeOf(tent.menu),
        wifi: tent.wifi ? await codeOf(tent.wifi.row, tent.wifi.ssid) : null,
      });
    }
  }
  await onProgress(rows.length);
  const request: SheetRequest = {
    template: payload.template,
    paper: payload.paper,
    sizeMm: payload.sizeMm,
    marginsMm: payload.marginsMm,
    caption: payload.caption,
    cropMarks: payload.cropMarks,
    colorSpace: payload.colorSpace,
    title:
      payload.template === 'grid' ? `QR codes: ${codes.length}` : `Table tents: ${tents.map((t) => t.cafeName).join(', ')}`.slice(0, 200),
    logos,
    codes,
    tents,
  };
  const printed = payload.template === 'grid' ? codes.length : tents.length;
  return { request, skipped: payload.linkIds.length - printed, pages: sheetPages(payload, printed) };
}

async function linkRows(db: Database, accountId: string, ids: string[]): Promise<SheetLinkRow[]> {
  const byId = new Map<string, SheetLinkRow>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .select({ id: links.id, slug: links.slug, name: links.name, host: domains.hostname, qrOptions: links.qrOptions })
      .from(links)
      .leftJoin(domains, eq(domains.id, links.domainId))
      .where(and(inArray(links.id, ids.slice(i, i + 500)), linksWithin(wholeAccount(accountId))));
    for (const r of rows) byId.set(r.id, r);
  }
  // Print order; links deleted since the job was made are left out (and counted as skipped).
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}

/**
 * The tents of the chosen links that serve a cafe's menu. A cafe keeps no Wi-Fi of its own: its
 * Wi-Fi code is the account's oldest `wifi` link in the menu link's folder, when there is one
 * (a folder is how an account groups one venue's links).
 */
async function cafeTents(db: Database, accountId: string, rows: SheetLinkRow[]) {
  if (rows.length === 0) return [];
  const cafeRows = await db
    .select({ linkId: cafes.linkId, name: cafes.name, language: cafes.language, folderId: links.folderId })
    .from(cafes)
    .innerJoin(links, eq(links.id, cafes.linkId))
    .where(
      and(
        eq(cafes.accountId, accountId),
        inArray(
          cafes.linkId,
          rows.map((r) => r.id),
        ),
      ),
    );
  const cafeByLink = new Map(cafeRows.map((c) => [c.linkId, c]));
  const folderIds = [...new Set(cafeRows.flatMap((c) => (c.folderId ? [c.folderId] : [])))];
  const wifiByFolder = new Map<string, { row: SheetLinkRow; ssid: string }>();
  if (folderIds.length) {
    const wifiRows = await db
      .select({
        id: links.id,
        slug: links.slug,
        name: links.name,
        host: domains.hostname,
        qrOptions: links.qrOptions,
        metaData: links.metaData,
        folderId: links.folderId,
      })
      .from(links)
      .leftJoin(domains, eq(domains.id, links.domainId))
      .where(and(eq(links.accountId, accountId), eq(links.type, 'wifi'), isNotNull(links.folderId), inArray(links.folderId, folderIds)))
      .orderBy(asc(links.createdAt), asc(links.id));
    for (const w of wifiRows) {
      if (w.folderId && !wifiByFolder.has(w.folderId)) {
        const ssid = typeof w.metaData.ssid === 'string' ? w.metaData.ssid : w.name;
        wifiByFolder.set(w.folderId, { row: w, ssid });
      }
    }
  }
  return rows.flatMap((row) => {
    const cafe = cafeByLink.get(row.id);
    if (!cafe) return [];
    return [
      {
        cafeName: cafe.name,
        language: frameLanguageOf(cafe.language),
        menu: row,
        wifi: cafe.folderId ? (wifiByFolder.get(cafe.folderId) ?? null) : null,
      },
    ];
  });
}
