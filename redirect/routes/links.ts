/**
 * The scan endpoint: `GET`/`HEAD /<slug>` (resolve, record the scan, redirect or show the page),
 * `POST /<slug>` (the password form), and the downloads a page offers
 * (`/<slug>/contact.vcf`, `/<slug>/event.ics`), which answer under the same rules but are not
 * scans of their own.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { CUSTOM_SLUG_PATTERN } from '#domain/links/slug-rules.js';
import { linkAddress, linkShortUrl, splitLinkAddress } from '#domain/links/link-addresses.js';
import type { HostRoute } from '#domain/domains/served-hosts.js';
import { windowStatus } from '#domain/links/status.js';
import { LinkLookupUnavailableError } from '#domain/links/resolve/link-resolver.js';
import { PASSWORD_COOKIE, PASSWORD_COOKIE_TTL_SECONDS, passwordMatches } from '#domain/links/resolve/password.js';
import type { ResolvedLink } from '#domain/links/resolve/resolved-link.js';
import { smartUrlDestination } from '#domain/links/smart-url.js';
import { withVisitorQuery } from '#domain/links/utm.js';
import {
  attachmentDisposition,
  eventFileName,
  renderClientErrorPage,
  pageLocale,
  platformOf,
  renderIcs,
  renderLinkPage,
  renderPasswordPage,
  renderServiceUnavailablePage,
  renderTooManyNotFoundPage,
  renderUnavailablePage,
  notFoundPage,
  renderVcard,
  statusBrand,
  sendPage,
  vcardFileName,
  type PasswordPageOptions,
} from '../pages/index.js';
import type { EncodedPage, Page } from '../pages/common/types.js';
import { newScanId } from '#domain/scans/scan-id.js';
import { linkPageUrls } from '../pages/common/file-urls.js';
import { NOT_FOUND_PAGE, notFoundResponder } from '../not-found.js';
import type { ScanPath } from '../scan-path.js';
import { PreviewsBusyError } from '../menu-preview.js';
import type { ScanOrigin, Visitor } from '#domain/scans/types.js';
import { scanOriginOf } from '#domain/links/attribution.js';

type SlugRequest = FastifyRequest<{ Params: { slug: string } }>;
/** A scan: `preview` names a menu preview (menu-preview.ts). */
type ScanRequest = FastifyRequest<{ Params: { slug: string }; Querystring: { preview?: unknown } }>;
/** A scan's query: the QR marker (domain/links/attribution.ts) and whatever else the visitor brought. */
type ScanQuery = Record<string, unknown>;

/** The longest password the API accepts; anything longer cannot match, so bcrypt is not asked. */
const PASSWORD_MAX = 32;
const FORM_BODY_LIMIT = 4096;

const routes: FastifyPluginAsync<{ scanPath: ScanPath }> = async (app, { scanPath }) => {
  const { resolver, scanLimiter, notFoundLimit, passwordAttempts, passwordCookies } = scanPath;

  // The password form is the only body this process reads: anything but a web form is a 415 page.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  const answerNotFound = notFoundResponder(notFoundLimit);
  const DEFAULT_ROUTE: HostRoute = { kind: 'default' };
  const linkConfig = { SHORT_URL_BASE: scanPath.shortUrlBase };

  /**
   * What the resolver knows the slug under the request's Host by (domain/links/link-addresses.ts):
   * the slug itself on the default domain, `<host>/<slug>` on a brand domain; null where nothing
   * is served (a brand domain not verified, or turned off).
   */
  function addressOf(route: HostRoute, slug: string): string | null {
    if (route.kind === 'default') return slug;
    return route.kind === 'brand' ? linkAddress(route.domain.hostname, slug) : null;
  }

  /** The link, or the page to answer instead, when the slug is settled without a lookup; undefined when this process's cache does not hold it. */
  function findCachedLink(
    route: HostRoute,
    slug: string,
    now: number,
    acceptLanguage: string | undefined,
  ): ResolvedLink | Page | undefined {
    const address = CUSTOM_SLUG_PATTERN.test(slug) ? addressOf(route, slug) : null;
    if (address === null) return NOT_FOUND_PAGE;
    const link = resolver.cached(address);
    return link === undefined ? undefined : availableLink(route, link, now, acceptLanguage);
  }

  /** The link, or the page to answer instead (unknown, unavailable, lookup down). */
  async function findLink(request: SlugRequest, now: number): Promise<ResolvedLink | Page> {
    const route = scanPath.routeOf(request.headers.host);
    return findCachedLink(route, request.params.slug, now, request.headers['accept-language']) ?? lookUpLink(request, route, now);
  }

  /**
   * A slug this process's cache does not hold, from Redis or Postgres; for a client over its
   * allowance of unknown slugs (on any redirect process) from Redis only (a slug Redis does not
   * hold is a 429 for it). Redis is asked for the link and for the client's count at once.
   */
  async function lookUpLink(request: SlugRequest, route: HostRoute, now: number): Promise<ResolvedLink | Page> {
    // findCachedLink settled every slug without an address.
    const address = addressOf(route, request.params.slug)!;
    try {
      const [blockedFor, cachedLink] = await Promise.all([
        notFoundLimit.blockedAnywhere(notFoundLimit.clientOf(request.ip), now),
        resolver.resolveFromCache(address),
      ]);
      const acceptLanguage = request.headers['accept-language'];
      if (cachedLink !== undefined) return availableLink(route, cachedLink, now, acceptLanguage);
      if (blockedFor > 0) return renderTooManyNotFoundPage(blockedFor, acceptLanguage);
      return availableLink(route, await resolver.resolve(address), now, acceptLanguage);
    } catch (err) {
      if (err instanceof LinkLookupUnavailableError) return renderServiceUnavailablePage(request.headers['accept-language']);
      throw err;
    }
  }

  function availableLink(
    route: HostRoute,
    link: ResolvedLink | null,
    now: number,
    acceptLanguage: string | undefined,
  ): ResolvedLink | Page {
    if (!link) return NOT_FOUND_PAGE;
    const reason = windowStatus(link, now) ?? (link.brokenDestination ? 'broken_destination' : null);
    if (reason === null) return link;
    const elsewhere = route.kind === 'brand' && reason !== 'scheduled' && reason !== 'broken_destination' ? route.domain.expiredUrl : null;
    return elsewhere ? redirectPage(elsewhere) : renderUnavailablePage(reason, link, acceptLanguage);
  }

  /** A link used up: its brand domain's expired URL when it has one, else the status page. */
  function limitReachedPage(request: FastifyRequest, link: ResolvedLink): Page {
    const route = scanPath.routeOf(request.headers.host);
    if (route.kind === 'brand' && route.domain.expiredUrl) return redirectPage(route.domain.expiredUrl);
    return renderUnavailablePage('limit_reached', link, request.headers['accept-language']);
  }

  /** Where the request's brand domain sends an unknown slug; null: the not-found page. */
  function notFoundUrlOf(request: FastifyRequest): string | null {
    const route = scanPath.routeOf(request.headers.host);
    return route.kind === 'brand' ? route.domain.notFoundUrl : null;
  }

  const isPage = (found: ResolvedLink | Page): found is Page => 'body' in found;
  /** The link's password form (posting to the link), in its owner's brand. */
  const passwordPage = (
    link: ResolvedLink,
    request: FastifyRequest,
    options: Pick<PasswordPageOptions, 'error' | 'retryAfterSeconds'> = {},
  ) =>
    renderPasswordPage({
      action: `/${link.slug}`,
      brand: statusBrand(link),
      locale: pageLocale(link.pageStyle?.language, request.headers['accept-language']),
      ...options,
    });
  /** A page instead of the link; "not found" counts towards the client's allowance of unknown slugs. */
  const answerPage = (request: FastifyRequest, reply: FastifyReply, page: Page) =>
    page === NOT_FOUND_PAGE ? answerNotFound(request, reply, notFoundUrlOf(request)) : sendPage(reply, page);
  const locked = (link: ResolvedLink, request: FastifyRequest, now: number) =>
    link.passwordHash !== null && !passwordCookies.isValid({ id: link.id, passwordHash: link.passwordHash }, request.headers.cookie, now);

  // Not an async handler: a link in this process's cache (nearly every scan) is answered within
  // this call, with no promise for Fastify to wait on. A cache miss or a scan limit returns one.
  // Its latency is sampled (platform/metrics/http.ts): a hook on every scan costs a sixth of its time.
  app.get('/:slug', { config: { sampledLatency: true } }, (request: ScanRequest, reply) => {
    const now = Date.now();
    // The scan path's one check for a preview: without the parameter, nothing below changes.
    if (request.query.preview !== undefined) return answerPreview(request, reply, request.query.preview, now);
    const route = scanPath.routeOf(request.headers.host);
    const cached = findCachedLink(route, request.params.slug, now, request.headers['accept-language']);
    if (cached === undefined) return lookUpLink(request, route, now).then((found) => answerScan(request, reply, found, now));
    const answered = answerScan(request, reply, cached, now);
    // The reply itself must not be returned from a handler that is not async (Fastify would send it).
    return answered instanceof Promise ? answered : undefined;
  });

  /**
   * A menu link's page in the look a live preview record of THIS link holds (the console's frame):
   * not a scan, so nothing is taken from a scan limit or recorded. Anything else (no such
   * record, another link's, a locked link, Redis or Postgres away) is answered as a scan is.
   */
  async function answerPreview(request: SlugRequest, reply: FastifyReply, id: unknown, now: number) {
    // A brand domain's menu is previewed from the default domain (the console frames that origin
    // alone): the preview names its link's address, and the link there must be the preview's.
    const address = typeof id === 'string' ? await scanPath.menuPreviews.addressOf(id).catch(() => null) : null;
    const found =
      address && splitLinkAddress(address).hostname !== null && scanPath.routeOf(request.headers.host).kind === 'default'
        ? await resolver.resolve(address).then(
            (link) => availableLink(DEFAULT_ROUTE, link, now, request.headers['accept-language']),
            () => renderServiceUnavailablePage(request.headers['accept-language']),
          )
        : await findLink(request, now);
    if (!isPage(found) && found.type === 'menu' && typeof id === 'string' && !locked(found, request, now)) {
      const page = await scanPath.menuPreviews
        .page(found, id, now, request.headers['accept-encoding'], request.headers['accept-language'])
        .catch((err: unknown) => {
          // Its account's previews are being made already: a retry soon finds this one made or its turn.
          if (err instanceof PreviewsBusyError) return renderServiceUnavailablePage(request.headers['accept-language']);
          request.log.warn({ err, slug: found.slug }, 'menu preview could not be made');
          return null;
        });
      if (page) return sendPage(reply, page);
    }
    return answerScan(request, reply, found, now);
  }

  function answerScan(request: SlugRequest, reply: FastifyReply, found: ResolvedLink | Page, now: number) {
    if (isPage(found)) return answerPage(request, reply, found);
    if (locked(found, request, now)) return sendPage(reply, passwordPage(found, request));
    return resolveScan(request, reply, found, now);
  }

  /**
   * The link resolves for this request. Its answer (the Location, or the page) is built first, and
   * only then is the scan taken from the limit and recorded: a scan is never counted for an answer
   * that could not be made. A Location is always sendable: the resolver put every destination in
   * its ASCII serialisation when the link entered the cache (`withSendableDestinations`), and a
   * link without a valid one never gets here (`availableLink`).
   */
  function resolveScan(request: SlugRequest, reply: FastifyReply, link: ResolvedLink, now: number): FastifyReply | Promise<FastifyReply> {
    const visitor = scanPath.describeVisitor(request.headers['user-agent'], request.ip, { head: request.method === 'HEAD' });
    const answer = answerOf(request, link, visitor, now);
    if (!(answer instanceof Promise)) return takeScan(request, reply, link, visitor, now, answer);
    return answer.then(
      (page) => takeScan(request, reply, link, visitor, now, page),
      (err: unknown) => {
        request.log.error({ err, slug: link.slug }, 'page could not be made');
        return sendPage(reply, renderServiceUnavailablePage(request.headers['accept-language']));
      },
    );
  }

  /** The scan is taken from the link's limit (when it has one: once per visitor and day) and recorded, and the answer sent. */
  function takeScan(
    request: SlugRequest,
    reply: FastifyReply,
    link: ResolvedLink,
    visitor: Readonly<Visitor>,
    now: number,
    answer: string | EncodedPage,
  ) {
    const visitorKey = scanPath.visitorKeys.keyOf(request.ip, request.headers['user-agent'], now);
    const origin = scanOriginOf(link, request.query as ScanQuery, request.headers.referer);
    if (!link.scanLimitActive) return recordAndSend(reply, link, visitor, visitorKey, origin, now, answer);
    return scanLimiter.take(link, !visitor.isBot, visitorKey, now).then(
      (taken) =>
        taken === 'limit_reached'
          ? sendPage(reply, limitReachedPage(request, link))
          : recordAndSend(reply, link, visitor, visitorKey, origin, now, answer),
      // Without Redis the limit cannot be kept exact; "try again" is better than a scan past it.
      () => sendPage(reply, renderServiceUnavailablePage(request.headers['accept-language'])),
    );
  }

  /** Where a scan of the link goes (a URL for Location) or the page it shows (from the page cache, but an event's). */
  function answerOf(
    request: SlugRequest,
    link: ResolvedLink,
    visitor: Readonly<Visitor>,
    now: number,
  ): string | EncodedPage | Promise<EncodedPage> {
    // The destinations carry the link's UTM already (made when it entered the cache); only a link
    // that merges the visitor's query does more per scan, and only when there is a query.
    if (link.type === 'website')
      return link.queryPolicy === 'merge' ? withVisitorQuery(link.data.url, request.query as Record<string, unknown>) : link.data.url;
    if (link.type === 'smart-url') {
      const destination = smartUrlDestination(link.data, visitor, new Date(now));
      return link.queryPolicy === 'merge' ? withVisitorQuery(destination, request.query as Record<string, unknown>) : destination;
    }
    if (link.type === 'menu') return scanPath.pages.menu(link, now, request.headers['accept-encoding'], request.headers['accept-language']);
    if (link.type === 'landing') return scanPath.pages.landing(link, request.headers['accept-encoding']);
    const scanner = { platform: platformOf(visitor.osName), now, acceptLanguage: request.headers['accept-language'] };
    // An event's page changes as the event ends: made for each scan.
    if (link.type === 'event') return renderLinkPage(link, linkPageUrls(link, scanPath.shortUrlBase), scanner);
    return scanPath.pages.linkPage(link, scanner, request.headers['accept-encoding']);
  }

  function recordAndSend(
    reply: FastifyReply,
    link: ResolvedLink,
    visitor: Readonly<Visitor>,
    visitorKey: string,
    origin: ScanOrigin,
    now: number,
    answer: string | EncodedPage,
  ) {
    const send = () => (typeof answer === 'string' ? redirectTo(reply, answer) : sendPage(reply, answer));
    // The answer waits until the scan is written ahead: a kill can lose neither alone. Meanwhile
    // the reply is returned, which tells Fastify it will be sent (no promise per scan); a page
    // compressed off the thread that fails is Fastify's error to answer, as it is when sent at once.
    const sendWritten = () => {
      const sent = send();
      if (sent instanceof Promise) sent.catch((err: unknown) => reply.send(err as Error));
    };
    const scan = { id: newScanId(now), linkId: link.id, accountId: link.accountId, at: now, visitor, visitorKey, origin };
    return scanPath.recordScan(scan, sendWritten) ? reply : send();
  }

  const ownHosts = new Set([new URL(scanPath.shortUrlBase).host]);
  /**
   * Whether the password form was sent from another site: a page elsewhere posting guesses with a
   * visitor's address, or logging a visitor in unasked. The form posts to its own page, so a
   * browser marks it `Sec-Fetch-Site: same-origin`; one too old for that header sends Origin, which
   * must then be this host (the address it was reached by, or SHORT_URL_BASE's). The pages'
   * no-referrer policy makes a browser's own Origin "null", which says nothing. A request with
   * neither header (curl, a script) is no browser acting for someone else.
   */
  function isCrossSite(request: FastifyRequest): boolean {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined) return site !== 'same-origin' && site !== 'none';
    const origin = request.headers.origin;
    if (origin === undefined || origin === 'null') return false;
    const host = URL.canParse(origin) ? new URL(origin).host : null;
    return host === null || (host !== request.headers.host?.toLowerCase() && !ownHosts.has(host));
  }

  // A brand domain's root sends people where its owner chose; otherwise `/` is a not-found page, as every unknown path is.
  app.get('/', (request, reply) => {
    const route = scanPath.routeOf(request.headers.host);
    if (route.kind === 'brand' && route.domain.rootUrl) return sendPage(reply, redirectPage(route.domain.rootUrl));
    return answerNotFound(request, reply, null);
  });

  app.post('/:slug', async (request: FastifyRequest<{ Params: { slug: string }; Body: unknown }>, reply) => {
    // Before anything is looked up or counted: a form from elsewhere learns nothing, not even whether the link exists.
    if (isCrossSite(request)) return sendPage(reply, renderClientErrorPage(403, undefined, request.headers['accept-language']));
    const now = Date.now();
    const found = await findLink(request, now);
    if (isPage(found)) return answerPage(request, reply, found);
    const action = `/${found.slug}`;
    // No password, or a visitor whose cookie already opens it (a form sent again): nothing to try.
    if (found.passwordHash === null || !locked(found, request, now)) return reply.code(303).header('location', action).send();
    // Limited per link and client and per link; visitors holding a cookie never reach this.
    const attempt = await passwordAttempts.begin(found.id, request.ip);
    if (!attempt.allowed)
      return sendPage(reply, passwordPage(found, request, { error: 'too_many', retryAfterSeconds: attempt.retryAfterSeconds }));
    const body = request.body as Record<string, unknown> | undefined;
    const password = typeof body?.password === 'string' ? body.password : '';
    const right =
      password.length > 0 &&
      password.length <= PASSWORD_MAX &&
      (await passwordMatches(found.passwordHash, password).catch((err: unknown) => {
        attempt.succeeded(); // our failure, not a wrong password
        throw err;
      }));
    if (right) {
      attempt.succeeded();
      const cookie = [
        `${PASSWORD_COOKIE}=${passwordCookies.value({ id: found.id, passwordHash: found.passwordHash }, now)}`,
        `Path=${action}`,
        `Max-Age=${PASSWORD_COOKIE_TTL_SECONDS}`,
        'HttpOnly',
        'SameSite=Lax',
        ...(scanPath.shortUrlBase.startsWith('https:') ? ['Secure'] : []),
      ].join('; ');
      // Post/redirect/get: the GET that follows resolves the link and is the one scan counted.
      return reply.code(303).header('set-cookie', cookie).header('cache-control', 'no-store').header('location', action).send();
    }
    const after = attempt.failed();
    return sendPage(
      reply,
      passwordPage(found, request, after.allowed ? { error: 'wrong' } : { error: 'too_many', retryAfterSeconds: after.retryAfterSeconds }),
    );
  });

  /**
   * What a page offers beside the scan (a download, a file) is served only while the link resolves
   * for this visitor, unlocked; it is not another scan. The link, or the page to answer instead:
   * unknown, unavailable, or the password form.
   */
  async function openedLink(request: SlugRequest): Promise<ResolvedLink | Page> {
    const now = Date.now();
    const found = await findLink(request, now);
    return !isPage(found) && locked(found, request, now) ? passwordPage(found, request) : found;
  }

  /** A download a page offers. */
  function download(file: 'contact.vcf' | 'event.ics') {
    return async (request: SlugRequest, reply: FastifyReply) => {
      const found = await openedLink(request);
      if (isPage(found)) return answerPage(request, reply, found);
      const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
      if (file === 'contact.vcf' && found.type === 'vcard') {
        return reply
          .headers({
            ...headers,
            'content-type': 'text/vcard; charset=utf-8',
            'content-disposition': attachmentDisposition(vcardFileName(found.data)),
          })
          .send(renderVcard(found.data));
      }
      if (file === 'event.ics' && found.type === 'event') {
        return reply
          .headers({
            ...headers,
            'content-type': 'text/calendar; charset=utf-8',
            'content-disposition': attachmentDisposition(eventFileName(found.data)),
          })
          .send(renderIcs(found.data, { uid: `${found.id}@qrlinks`, url: linkShortUrl(linkConfig, found.host ?? null, found.slug) }));
      }
      return sendPage(reply, notFoundPage(request.headers['accept-language']));
    };
  }
  app.get('/:slug/contact.vcf', download('contact.vcf'));
  app.get('/:slug/event.ics', download('event.ics'));

  // A file of the link (or a web-sized copy of it), for visitors who may open the link: how a protected link's pages show its files.
  async function linkFile(request: FastifyRequest<{ Params: { slug: string; id: string; variant?: string } }>, reply: FastifyReply) {
    const found = await openedLink(request);
    if (isPage(found)) return answerPage(request, reply, found);
    return scanPath.serveFile(
      request,
      reply,
      request.params.id,
      { link: { id: found.id, protected: found.passwordHash !== null } },
      request.params.variant,
    );
  }
  app.route({ method: ['GET', 'HEAD'], url: '/:slug/files/:id', handler: linkFile });
  app.route({ method: ['GET', 'HEAD'], url: '/:slug/files/:id/:variant', handler: linkFile });
};

/** A page that is a redirect: where a brand domain sends people instead of a page of ours. */
function redirectPage(url: string): Page {
  return { status: 302, body: '', headers: { Location: url, 'Cache-Control': 'no-store' } };
}

function redirectTo(reply: FastifyReply, url: string) {
  return reply.code(302).header('location', url).header('cache-control', 'no-store').send();
}

export default routes;
