/**
 * `POST /_/tap/<slug>/<action>`: a hosted page reports a tap on one of its actions (a link's
 * `ping`, or a script's `navigator.sendBeacon`; redirect/pages/common/taps.ts). Under `_`, a
 * reserved root segment no slug may take. Cheap before it is counted: the action is one of a
 * fixed few, the body at most a ping's "PING", and the link is looked up in the caches the scan
 * that showed the page filled (this process's, then Redis), never in Postgres. Only a browser's
 * beacon from the page itself counts, never a bot's; whether it counted is not said (204 either way).
 */
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { actionsOf, isPageAction } from '#domain/page-actions/actions.js';
import type { PageTaps } from '#domain/page-actions/taps.js';
import { CUSTOM_SLUG_PATTERN } from '#domain/links/slug-rules.js';
import { linkAddress } from '#domain/links/link-addresses.js';
import { windowStatus } from '#domain/links/status.js';
import type { ScanPath } from '../scan-path.js';

/** A ping's body is "PING"; a beacon sent by our scripts has none. */
const BODY_LIMIT = 16;

type TapRequest = FastifyRequest<{ Params: { slug: string; action: string } }>;

/**
 * What a browser sends with a ping or a beacon from the page itself (Fetch Metadata, sent by every
 * current browser): a script elsewhere, a form, a crawler or curl without these headers is not a tap.
 */
function isOwnBeacon(request: FastifyRequest): boolean {
  const { headers } = request;
  return headers['sec-fetch-site'] === 'same-origin' && headers['sec-fetch-mode'] === 'no-cors' && headers['sec-fetch-dest'] === 'empty';
}

const refuse = (reply: FastifyReply, status: number, code: string, message: string) =>
  reply.code(status).header('cache-control', 'no-store').send({ code, message });

const routes: FastifyPluginAsync<{ scanPath: ScanPath; taps: PageTaps }> = async (app, { scanPath, taps }) => {
  // A ping's text/ping and a bodiless beacon only; anything else is refused unread.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('text/ping', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, _body, done) => done(null, null));
  app.setErrorHandler((err: FastifyError, _request, reply) => {
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return refuse(reply, 415, 'unsupported_body', 'A tap has no body but a ping');
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return refuse(reply, 413, 'body_too_large', 'A tap has no body but a ping');
    throw err;
  });

  app.post('/_/tap/:slug/:action', { bodyLimit: BODY_LIMIT }, async (request: TapRequest, reply) => {
    const { slug, action } = request.params;
    if (!isPageAction(action)) return refuse(reply, 404, 'unknown_action', 'No page offers this action');
    if (!isOwnBeacon(request)) return refuse(reply, 400, 'not_a_beacon', 'Taps are reported by the page itself');
    const done = () => reply.code(204).header('cache-control', 'no-store').send();
    const userAgent = request.headers['user-agent'];
    if (scanPath.describeVisitor(userAgent, undefined).isBot || !CUSTOM_SLUG_PATTERN.test(slug)) return done();
    const route = scanPath.routeOf(request.headers.host);
    if (route.kind === 'closed') return done();
    const address = route.kind === 'default' ? slug : linkAddress(route.domain.hostname, slug);
    const now = Date.now();
    // The scan that showed the page put its link in these caches; a link neither holds is not counted.
    const link = await scanPath.resolver.resolveFromCache(address).catch(() => undefined);
    if (!link || windowStatus(link, now) !== null || !actionsOf(link.type).includes(action)) return done();
    await taps.tap(link.id, action, scanPath.visitorKeys.keyOf(request.ip, userAgent, now), now);
    return done();
  });
};

export default routes;
