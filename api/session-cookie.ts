/**
 * The console's session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent with another
 * site's POST, fetch or frame), Secure when the api is served over https, Path=/ (the console at
 * `/` and the api under /api/v1 share it). Its Max-Age is the session's absolute end; the server
 * decides the rest (idle end, revocation).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError } from '#domain/errors.js';

export const SESSION_COOKIE = 'qrlinks_session';

export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

function attributes(secure: boolean, maxAgeSeconds: number): string {
  return `Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure ? '; Secure' : ''}`;
}

export function setSessionCookie(reply: FastifyReply, publicApiUrl: string, token: string, expiresAt: Date): void {
  const maxAge = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
  reply.header('set-cookie', `${SESSION_COOKIE}=${token}; ${attributes(isHttps(publicApiUrl), maxAge)}`);
}

export function clearSessionCookie(reply: FastifyReply, publicApiUrl: string): void {
  reply.header('set-cookie', `${SESSION_COOKIE}=; ${attributes(isHttps(publicApiUrl), 0)}`);
}

function isHttps(publicApiUrl: string): boolean {
  return new URL(publicApiUrl).protocol === 'https:';
}

/**
 * Whether a browser says this request came from another site (or, for a sibling host, the same
 * site but another origin): Sec-Fetch-Site when the browser sends it, else Origin against the
 * api's own origins (the Host it was reached at, and PUBLIC_API_URL's). A request with neither
 * header is not a browser's cross-site request; `strict` refuses it too (a cookie-carrying write).
 */
function isCrossOrigin(request: FastifyRequest, publicApiUrl: string, strict: boolean): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return strict;
  const own = [`${request.protocol}://${request.host}`, new URL(publicApiUrl).origin];
  return !own.includes(origin);
}

/**
 * 403 `csrf_rejected` for a request another site made (decision 0402): a cookie-carrying write
 * (`strict`), or a sign-in that would put the visitor in the other site's account ("login CSRF").
 */
export function refuseCrossSite(request: FastifyRequest, publicApiUrl: string, strict: boolean): void {
  if (isCrossOrigin(request, publicApiUrl, strict)) {
    throw new ForbiddenError('csrf_rejected', 'This request came from another site; it was refused to protect your session');
  }
}
