/**
 * The browser console's static files (console/, built by console/build.ts into console/dist): the
 * page at `/`, its content-hashed files under `/assets/`. The console routes with the URL's hash
 * (`/#/links`), so `/` is the only page path and every other unknown path stays the api's JSON 404.
 * Every answer carries a CSP that lets the page load only its own files and talk only to this
 * origin (images also from https origins: destinations' favicons); its one frame is the menu page preview, from the short-URL origin (SHORT_URL_BASE). Without a build (a dev checkout before `npm start` built it) `/` is a 503 page saying so.
 * Text files are sent compressed to a client that accepts it, from the copies the build wrote
 * beside them (console/build.ts), so nothing is compressed per request (decision 0376).
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PRECOMPRESSED_EXTENSIONS, PRECOMPRESSED_SUFFIX } from '#console/build.js';
import { acceptedCoding } from '#platform/http/accept-encoding.js';
import { varyWithAcceptEncoding } from './plugins/app/compression.js';
import { notFoundReply } from './plugins/app/errors.js';

/** The console's policy; `shortUrlBase` (SHORT_URL_BASE) is the one origin it may frame. */
export const consoleCsp = (shortUrlBase: string) =>
  [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // Images from any https origin: the links list shows each website link's own favicon (decision 0379).
    "img-src 'self' data: blob: https:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    `frame-src ${new URL(shortUrlBase).origin}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

/**
 * The origin of the console that sent `request`: the one its browser names in `Origin`, when that
 * is the origin the request was addressed to (scheme and Host, as a trusted proxy forwards them),
 * which is what the console served by this api sends, whichever name or address it was opened at
 * (localhost, 127.0.0.1, a LAN address). Anything else (no Origin: a script; another site's page;
 * a proxy that rewrote the Host) gets PUBLIC_API_URL's origin, where the console is published.
 */
export function consoleOriginOf(request: FastifyRequest, publicApiUrl: string): string {
  const published = new URL(publicApiUrl).origin;
  const named = request.headers.origin;
  const addressed = `${request.protocol}://${request.host}`;
  if (typeof named !== 'string' || !URL.canParse(named) || !URL.canParse(addressed)) return published;
  const origin = new URL(named).origin;
  return /^https?:/.test(origin) && origin === new URL(addressed).origin ? origin : published;
}

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

// Vite names every emitted file `<name>-<hash>.<ext>`; nothing else is looked up on disk.
const ASSET_NAME = /^[A-Za-z0-9_-]+\.[a-z0-9]+$/;

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>qrlinks console not built</title></head>
<body><h1>The console is not built</h1><p>Start the service with <code>npm start</code>, which builds it, or run
<code>npm run build:console</code>. The API is available under <a href="/api/v1/docs">/api/v1/docs</a>.</p></body></html>
`;

/**
 * The compressed copy of the built file at `path` to send, in a coding the client accepts, when
 * the build wrote one (null: send the file itself). A text file's answer varies with
 * Accept-Encoding either way, and says so for caches.
 */
async function compressedCopy(request: FastifyRequest, reply: FastifyReply, path: string) {
  if (!PRECOMPRESSED_EXTENSIONS.has(extname(path))) return null;
  reply.header('vary', varyWithAcceptEncoding(reply.getHeader('vary')));
  const coding = acceptedCoding(request.headers['accept-encoding']);
  if (coding === null) return null;
  const copy = `${path}${PRECOMPRESSED_SUFFIX[coding]}`;
  const found = await stat(copy).catch(() => null);
  if (!found?.isFile()) return null;
  reply.header('content-encoding', coding);
  return { path: copy, size: found.size };
}

export function registerConsole(app: FastifyInstance, distDir: string, shortUrlBase: string): void {
  const csp = consoleCsp(shortUrlBase);
  const page = (reply: FastifyReply) => reply.header('content-security-policy', csp).header('x-content-type-options', 'nosniff');

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    page(reply).header('cache-control', 'no-cache');
    const path = join(distDir, 'index.html');
    const copy = await compressedCopy(request, reply, path);
    const html = await readFile(copy?.path ?? path).catch(() => null);
    if (html === null) {
      reply.removeHeader('content-encoding');
      return reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    }
    return reply.type('text/html; charset=utf-8').send(html);
  });

  app.get<{ Params: { file: string } }>('/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params;
    const type = CONTENT_TYPES[extname(file)];
    const path = join(distDir, 'assets', file);
    const found = type && ASSET_NAME.test(file) ? await stat(path).catch(() => null) : null;
    if (!found?.isFile()) return notFoundReply(request, reply);
    page(reply).header('cache-control', 'public, max-age=31536000, immutable');
    const copy = await compressedCopy(request, reply, path);
    return reply
      .header('content-length', copy?.size ?? found.size)
      .type(type!)
      .send(createReadStream(copy?.path ?? path));
  });
}
