/**
 * Everything the redirect routes need to answer a scan, built once per process by app.ts: the
 * cached slug resolution, the scan limit, unknown slugs per client, password attempts and cookies, who the visitor is, their
 * visitor key, and the scan recorder. Routes stay thin; these are the domain's parts (domain/links/resolve, domain/scans).
 */
import type { LinkResolver } from '#domain/links/resolve/link-resolver.js';
import type { HostRoute } from '#domain/domains/served-hosts.js';
import type { NotFoundLimit } from '#domain/links/resolve/not-found-limit.js';
import type { PasswordAttempts, PasswordCookies } from '#domain/links/resolve/password.js';
import type { ScanLimiter } from '#domain/links/resolve/scan-limit.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MenuPreviews } from './menu-preview.js';
import type { PageCache } from './page-cache.js';
import type { FileAccess } from './routes/files.js';
import type { DescribeVisitor } from '#domain/scans/visitor.js';
import type { VisitorKeys } from '#domain/scans/visitor-key.js';
import type { RecordedScan } from '#domain/scans/types.js';

export interface ScanPath {
  resolver: LinkResolver;
  /** How a request's Host header is routed: the default domain's links, a brand domain's, or nothing (domain/domains/served-hosts.ts). */
  routeOf(host: string | undefined): HostRoute;
  scanLimiter: ScanLimiter;
  /** Unknown slugs per client: 404s up to the limit, then 429. */
  notFoundLimit: NotFoundLimit;
  passwordAttempts: PasswordAttempts;
  /** Signs and checks the cookie a correct password sets, with the server's secrets. */
  passwordCookies: PasswordCookies;
  describeVisitor: DescribeVisitor;
  /** A scan's unique-visitor key: its address and user agent hashed under the UTC day's salt. */
  visitorKeys: Pick<VisitorKeys, 'keyOf'>;
  /**
   * Records the scan. True: the scan is being written ahead, and `written` is called once it is
   * (the answer goes from there); false: nothing to wait for, the caller answers at once.
   */
  recordScan(scan: RecordedScan, written: () => void): boolean;
  /** Landing and cafe menu pages, rendered off the event loop once per version and kept. */
  pages: PageCache;
  /** A menu page in a look not saved yet (`?preview=<id>`), for the console's frame. */
  menuPreviews: MenuPreviews;
  /** Answers a request for a stored file under `access` (routes/files.ts). */
  serveFile(request: FastifyRequest, reply: FastifyReply, id: string, access: FileAccess, variant?: string): Promise<FastifyReply>;
  /** SHORT_URL_BASE: absolute links in downloads; https means cookies get `Secure`. */
  shortUrlBase: string;
}
