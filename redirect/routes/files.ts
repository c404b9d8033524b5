/**
 * GET and HEAD /files/:id: an uploaded file, streamed from object storage to whoever has its URL
 * (scanners, the hosted pages, api clients previewing an upload). The random UUID is the
 * capability: no account check, like any public file URL. One exception: a file of a
 * password-protected link is not served here (404, as if it did not exist); its pages link it as
 * `/<slug>/files/<id>` (routes/links.ts), served by `serveFile` below to visitors holding the
 * link's unlock cookie, with a short private cache instead of a year's public one.
 *
 * A file id is never reused and a file's bytes never change, so the id is the strong ETag, the
 * upload time is Last-Modified, and clients may cache for a year. The `files` row is the file's
 * record: HEAD, 304 and 416 are answered from it without touching storage; only a GET that sends
 * bytes reads the object (a row whose object is gone, as in the moment between a deletion's two
 * steps, is a 404). The object is the file's blob, which files with the same bytes share; the
 * ETag stays the file id (one file's bytes never change). Rows are read from Postgres on every request, not cached in memory: one
 * primary-key lookup costs far less than the storage read that follows it, and a cache would
 * keep serving 304s and HEADs for deleted files.
 *
 * Ranges (RFC 9110 §14): one `bytes=a-b`, `bytes=a-` or `bytes=-n` gets a 206; a range starting past
 * the end (or `-0`) a 416 with `Content-Range: bytes *\/size`; a malformed or multi-range header is
 * ignored (200 with the whole file); If-Range with this ETag or Last-Modified keeps the range,
 * anything else drops it.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { constants as zlibConstants, createBrotliCompress, createGzip } from 'node:zlib';
import { fileBlobs, files, links } from '#domain/schema.js';
import type { AppContext } from '#infra/context.js';
import type { ByteRange } from '#platform/storage/index.js';
import { isUuid } from '#platform/format/ids.js';
import { findVariant, variantStorageKey } from '#domain/files/image-variants.js';
import { acceptedCoding, type ContentCoding } from '#platform/http/accept-encoding.js';
import { encodeRfc5987 } from '../pages/common/download-name.js';
import { html } from '../pages/common/html.js';
import { renderServiceUnavailablePage, sendPage } from '../pages/index.js';
import { htmlPage } from '../pages/common/layout.js';
import type { Page } from '../pages/common/types.js';

const CACHE_FOREVER = 'public, max-age=31536000, immutable';
/** A protected link's file: the visitor's browser alone keeps it, briefly (a new password or a lock soon applies). */
const CACHE_PROTECTED = 'private, max-age=300';
/**
 * Every stored file, whatever its type: opened directly it is a document on the short-link
 * origin (an SVG, a PDF with /OpenAction JavaScript, HTML a browser might find in a PNG's tail),
 * so it gets an opaque origin (`sandbox`: no scripts, forms, popups or cookies) and may load
 * nothing. Inline styles stay allowed: browsers style their own image documents (centring) and
 * SVGs style themselves with them. Chromium's PDF viewer still shows a PDF under it, and an
 * <img> on a hosted page is not governed by the image's own CSP.
 */
const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const FILE_NOT_FOUND_PAGE = htmlPage({
  status: 404,
  title: 'File not found',
  content: html`<h1>File not found</h1><p>This file does not exist or has been deleted.</p>`,
});

/** Every header `sendFile` sets: a failure after it ran must not leave them on the error page. */
const FILE_HEADERS = [
  'content-type',
  'content-length',
  'content-range',
  'accept-ranges',
  'etag',
  'last-modified',
  'cache-control',
  'content-disposition',
  'content-security-policy',
  'x-content-type-options',
  'content-encoding',
  'vary',
] as const;
type FileHeaders = Partial<Record<(typeof FILE_HEADERS)[number], string>>;
type CacheHeaders = Pick<FileHeaders, 'vary'> & Required<Pick<FileHeaders, 'etag' | 'last-modified' | 'cache-control'>>;

type FileRow = NonNullable<Awaited<ReturnType<typeof findFile>>>;
type InclusiveRange = Required<ByteRange>;

const UNSATISFIABLE = 'unsatisfiable';

/**
 * Who may have the file: `anyone` (GET /files/:id: every file but a protected link's), or the
 * visitor of a link who may open it (the caller checked its password cookie): that link's own
 * files only.
 */
export type FileAccess = { anyone: true } | { link: { id: string; protected: boolean } };

/**
 * Answers a request for a file under `access`: the file (or a range of it), a 304, a 416, or the
 * not-found page. `variant` (`480.webp`, `960.jpg`) asks for one of a photo's web-sized copies
 * (domain/files/image-variants.ts) instead, served the same way under an ETag of its own.
 */
export async function serveFile(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  id: string,
  access: FileAccess,
  variant?: string,
): Promise<FastifyReply> {
  try {
    const found = isUuid(id) ? await findFile(ctx, id) : undefined;
    const allowed = found && ('anyone' in access ? !found.linkProtected : found.linkId === access.link.id);
    const file = allowed ? (variant === undefined ? found : variantOf(found, variant)) : undefined;
    if (!file) return sendPage(reply, FILE_NOT_FOUND_PAGE);
    const cacheControl = 'link' in access && access.link.protected ? CACHE_PROTECTED : CACHE_FOREVER;
    // An SVG is text and compresses severalfold: sent compressed to clients that take it, whole
    // (a range is of the stored bytes, so a Range request gets them as they are).
    const compressible = file.contentType === 'image/svg+xml';
    const wantsRange = request.headers.range !== undefined;
    const encoding = compressible && !wantsRange ? acceptedCoding(request.headers['accept-encoding']) : null;
    // What every answer about the file carries, 304s included; each encoding is its own representation.
    const cacheHeaders: CacheHeaders = {
      etag: `"${file.tag}${encoding ? `.${encoding}` : ''}"`,
      'last-modified': file.createdAt.toUTCString(),
      'cache-control': cacheControl,
      ...(compressible ? { vary: 'Accept-Encoding' } : {}),
    };
    if (isNotModified(request.headers, cacheHeaders.etag, file.createdAt)) return reply.code(304).headers(cacheHeaders).send();
    const range = requestedRange(request.headers, cacheHeaders, file.size);
    if (range === UNSATISFIABLE) return reply.code(416).header('content-range', `bytes */${file.size}`).send();
    if (request.method === 'HEAD') return sendFile(reply, file, cacheHeaders, file.size, range, encoding);
    const object = await ctx.storage.get(file.storageKey, range);
    if (!object) return sendPage(reply, FILE_NOT_FOUND_PAGE);
    return sendFile(reply, file, cacheHeaders, object.info.size, object.range, encoding, object.body);
  } catch (err) {
    // Postgres or storage failing (before any byte went out) is "try again", never a stack trace.
    request.log.error({ err }, 'file could not be served');
    for (const name of FILE_HEADERS) reply.removeHeader(name);
    return sendPage(reply, renderServiceUnavailablePage());
  }
}

const routes: FastifyPluginAsync<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.route<{ Params: { id: string } }>({
    method: ['GET', 'HEAD'],
    url: '/files/:id',
    handler: (request, reply) => serveFile(ctx, request, reply, request.params.id, { anyone: true }),
  });
  app.route<{ Params: { id: string; variant: string } }>({
    method: ['GET', 'HEAD'],
    url: '/files/:id/:variant',
    handler: (request, reply) => serveFile(ctx, request, reply, request.params.id, { anyone: true }, request.params.variant),
  });
};
export default routes;

/** A photo's web-sized copy named `name`, as a file to serve; undefined when it has none such. */
function variantOf(file: FileRow, name: string): FileRow | undefined {
  const variant = findVariant(file.variants, name);
  if (!variant) return undefined;
  return {
    ...file,
    tag: `${file.id}.${name}`,
    storageKey: variantStorageKey(file.storageKey, variant),
    contentType: `image/${variant.format}`,
    size: variant.size,
    originalName: null,
  };
}

async function findFile(ctx: AppContext, id: string) {
  const [row] = await ctx.db
    .select({
      id: files.id,
      storageKey: fileBlobs.storageKey,
      contentType: files.contentType,
      size: files.size,
      originalName: files.originalName,
      createdAt: files.createdAt,
      linkId: files.linkId,
      variants: fileBlobs.variants,
      linkProtected: sql<boolean>`coalesce(${links.passwordProtectedActive} and ${links.password} is not null, false)`,
    })
    .from(files)
    .innerJoin(fileBlobs, eq(fileBlobs.id, files.blobId))
    .leftJoin(links, eq(links.id, files.linkId))
    .where(eq(files.id, id))
    .limit(1);
  // The ETag: the file id (a file's bytes never change), or the copy's name under it.
  return row && { ...row, tag: row.id };
}

/**
 * Headers and status for the file or `range` of it, then `body` (none for HEAD). Fastify destroys
 * the body stream when the client goes away, which releases the file handle or S3 connection.
 */
function sendFile(
  reply: FastifyReply,
  file: FileRow,
  cacheHeaders: CacheHeaders,
  size: number,
  range: InclusiveRange | undefined,
  encoding: ContentCoding | null,
  body?: Readable,
) {
  const headers: FileHeaders = {
    ...cacheHeaders,
    'content-type': file.contentType,
    'accept-ranges': 'bytes',
    'x-content-type-options': 'nosniff',
    'content-security-policy': FILE_CSP,
  };
  // Compressed, the length is known only once it is sent (chunked).
  if (encoding) headers['content-encoding'] = encoding;
  else headers['content-length'] = String(range ? range.end - range.start + 1 : size);
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
  if (file.originalName) headers['content-disposition'] = `inline; filename*=UTF-8''${encodeRfc5987(file.originalName)}`;
  let sent = body;
  if (body && encoding) {
    const compressor =
      encoding === 'br'
        ? createBrotliCompress({ params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: size } })
        : createGzip({ level: 6 });
    // A failure on either side (storage, or the client gone) ends both; the compressor's error is
    // then the sent stream's, which Fastify logs, so this callback has nothing left to say.
    pipeline(body, compressor, () => undefined);
    sent = compressor;
  }
  return reply
    .code(range ? 206 : 200)
    .headers(headers)
    .send(sent);
}

/** If-None-Match (any listed tag, weak comparison, or `*`), else If-Modified-Since. */
function isNotModified(headers: IncomingHttpHeaders, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === '*') return true;
    return (ifNoneMatch.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => tag.replace(/^W\//, '') === etag);
  }
  const since = Date.parse(headers['if-modified-since'] ?? '');
  // HTTP dates have whole seconds; the upload time has milliseconds.
  return since >= Math.floor(lastModified.getTime() / 1000) * 1000;
}

/** The one range to serve, undefined for the whole file, or UNSATISFIABLE for a 416. */
function requestedRange(
  headers: IncomingHttpHeaders,
  validators: { etag: string; 'last-modified': string },
  size: number,
): InclusiveRange | undefined | typeof UNSATISFIABLE {
  const ifRange = headers['if-range'];
  if (ifRange !== undefined && ifRange !== validators.etag && ifRange !== validators['last-modified']) return undefined;
  // A comma (several ranges) or anything else off the grammar fails the match and is ignored.
  const spec = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i.exec(headers.range ?? '');
  const [, first = '', last = ''] = spec ?? [];
  if (first === '' && last === '') return undefined;
  if (first === '') {
    const suffixLength = Number(last);
    return suffixLength === 0 || size === 0 ? UNSATISFIABLE : { start: Math.max(0, size - suffixLength), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Infinity : Number(last);
  if (end < start) return undefined; // an invalid range-spec: the header is ignored
  if (start >= size) return UNSATISFIABLE;
  return { start, end: Math.min(end, size - 1) };
}
