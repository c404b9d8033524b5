/**
 * The public scan endpoint's composition root: `/<slug>` and its pages, `/files/:id`, `/health`,
 * `/ready`, `/internal/tls-ask` (a TLS proxy's question, routes/tls-ask.ts) and brand domains'
 * HTTP challenge (`/.well-known/qrlinks-challenge/:token`). Builds the process's scan path (link cache, scan limit, visitor description and
 * key, scan recorder) and closes it with the app.
 */
import { Gauge } from 'prom-client';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify';
import { passwordCookieSecrets } from '#platform/config/secrets.js';
import { checkReadiness } from '#infra/context.js';
import type { AppContext } from '#infra/context.js';
import { gracefulHttp } from '#platform/http/graceful.js';
import { lingerBeforeClose } from '#platform/http/lingering-close.js';
import routeTablePlugin from '#platform/http/route-table.js';
import { keepTickObjectShape } from '#platform/http/tick-object-shape.js';
import { counterFrom, createRoleMetrics, observePostgresPool, type RoleMetrics } from '#platform/metrics/index.js';
import { registerHttpMetrics } from '#platform/metrics/http.js';
import { ProxyTrust, warnOfUntrustedForwarding } from '#platform/net/client-identity.js';
import { linkCacheKeys } from '#domain/links/resolve/keys.js';
import { LinkResolver } from '#domain/links/resolve/link-resolver.js';
import { NotFoundLimit } from '#domain/links/resolve/not-found-limit.js';
import { PasswordAttempts, PasswordCookies } from '#domain/links/resolve/password.js';
import { ScanLimiter } from '#domain/links/resolve/scan-limit.js';
import { createFailFastRedis, createRedis } from '#platform/redis/client.js';
import { Invalidations } from '#platform/redis/invalidations.js';
import { createVisitorDescriber } from '#domain/scans/visitor.js';
import { VisitorKeys } from '#domain/scans/visitor-key.js';
import { serviceHosts } from '#domain/domains/domains.js';
import { ServedHosts } from '#domain/domains/served-hosts.js';
import { ScanRecorder } from '#infra/scans/recorder.js';
import { PageTaps } from '#domain/page-actions/taps.js';
import { answerClientError, answerFrameworkError } from './client-errors.js';
import { notFoundResponder } from './not-found.js';
import { renderClientErrorPage, renderServiceUnavailablePage, sendPage } from './pages/index.js';
import filesRoutes, { serveFile } from './routes/files.js';
import linkRoutes from './routes/links.js';
import tapRoutes from './routes/taps.js';
import tlsAskRoutes from './routes/tls-ask.js';
import domainChallengeRoutes from './routes/domain-challenge.js';
import { MenuPreviews } from './menu-preview.js';
import { PageCache } from './page-cache.js';
import { createPageRenderer } from './page-renderer.js';
import type { ScanPath } from './scan-path.js';

/**
 * Crawlers may read the pages (a shared link previews and a menu is found); a protected link's
 * files, under /<slug>/files/, are for visitors who unlocked it, not for an index.
 */
const ROBOTS_TXT = 'User-agent: *\nDisallow: /*/files/\nAllow: /\n';

/**
 * How often a link's copy is checked against Redis while pub/sub is up. The check covers only a
 * change message lost on a connection that looked up, and each one is a Redis command: every 5 s,
 * a redirect serving 10,000 links spent a large share of its time on them (docs/decisions/0353).
 */
const SUBSCRIBED_LINK_REFRESH_MS = 60_000;

export async function buildRedirectApp(ctx: AppContext, metrics: RoleMetrics = createRoleMetrics('redirect')): Promise<FastifyInstance> {
  const { config } = ctx;
  keepTickObjectShape();
  const graceful = gracefulHttp();
  // Fastify's instance type follows its logger's: it is the base type the plugins are typed with.
  const logger: FastifyBaseLogger = ctx.logger;
  const app = Fastify({
    http: graceful.serverOptions,
    loggerInstance: logger,
    forceCloseConnections: 'idle',
    trustProxy: config.TRUSTED_PROXIES || false,
    // No log line per scan, and no child logger per request either: at tens of thousands of scans
    // a second, making a child logger alone took a quarter of the process's time (measured with wrk).
    // Requests that need logging (errors) log on the process logger with their URL.
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: (logger) => logger,
    // Errors before routing and from Node's HTTP parser get the redirect's HTML pages too.
    frameworkErrors: answerFrameworkError(ctx.logger),
    clientErrorHandler: answerClientError,
  });
  graceful.register(app);
  // Before any route: every path the redirect answers at its root is a reserved slug
  // (domain/links/slug-rules.ts), which a test checks against this table.
  await app.register(routeTablePlugin);
  const proxyTrust = new ProxyTrust(config.TRUSTED_PROXIES);
  warnOfUntrustedForwarding(app.server, proxyTrust, ctx.logger);

  const keys = linkCacheKeys(config.REDIS_NAMESPACE);
  const redis = createFailFastRedis(config.REDIS_URL, 500, ctx.logger);
  // A connection of its own: a subscribed one can run nothing else.
  const subscriber = createRedis(config.REDIS_URL, ctx.logger);
  const invalidations = new Invalidations(subscriber, ctx.logger);
  const resolver = new LinkResolver(
    { redis, invalidations, pool: ctx.database.pool, keys, logger: ctx.logger },
    {
      localTtlMs: config.LINK_CACHE_TTL_MS,
      subscribedRefreshMs: Math.max(SUBSCRIBED_LINK_REFRESH_MS, config.LINK_CACHE_TTL_MS),
      localMax: config.LINK_CACHE_MAX_ENTRIES,
      localMaxBytes: config.LINK_CACHE_MB * 1024 * 1024,
      redisTtlSeconds: 3600,
      missingTtlSeconds: 60,
      missingRedisMax: 100_000,
      missingLocalMax: Math.min(config.LINK_CACHE_MAX_ENTRIES, 10_000),
    },
  );
  // On the scan path's fail-fast connection: a salt refresh must fail, not wait, while Redis is away.
  const visitorKeys = new VisitorKeys({ redis, prefix: config.REDIS_NAMESPACE, logger: ctx.logger });
  // Started beside the link cache: without Redis both wait for it a little, together rather than in turn.
  const visitorKeysStarted = visitorKeys.start();
  await resolver.start();
  // The names TLS may be got for: the service's own, and brand domains that serve links.
  const served = new ServedHosts(
    { db: ctx.db, invalidations, namespace: config.REDIS_NAMESPACE, logger: ctx.logger },
    serviceHosts(config),
  );
  await served.start();
  const recorder = new ScanRecorder(config, ctx.logger, ctx.database.pool);
  const renderer = createPageRenderer(config.PAGE_RENDER_THREADS);
  await recorder.start();
  // Taps on pages' actions, counted once per visitor in Redis and written to Postgres every second.
  const pageTaps = new PageTaps({ redis, db: ctx.db, prefix: config.REDIS_NAMESPACE, logger: ctx.logger });
  pageTaps.start();
  await visitorKeysStarted;
  const scanPath: ScanPath = {
    resolver,
    routeOf: (host) => served.routeOf(host),
    scanLimiter: new ScanLimiter(redis, ctx.database.pool, keys),
    notFoundLimit: new NotFoundLimit(redis, ctx.logger, keys, {
      max: config.REDIRECT_NOT_FOUND_LIMIT,
      windowMs: config.REDIRECT_NOT_FOUND_WINDOW_MS,
    }),
    passwordAttempts: new PasswordAttempts(redis, ctx.logger, keys),
    passwordCookies: new PasswordCookies(await passwordCookieSecrets(config)),
    describeVisitor: await createVisitorDescriber(),
    visitorKeys,
    recordScan: (scan, written) => recorder.recordThen(scan, written),
    shortUrlBase: config.SHORT_URL_BASE,
    serveFile: (request, reply, id, access, variant) => serveFile(ctx, request, reply, id, access, variant),
    pages: new PageCache(ctx.database.pool, renderer, {
      maxBytes: config.PAGE_CACHE_MB * 1024 * 1024,
      baseUrl: config.SHORT_URL_BASE,
    }),
    menuPreviews: new MenuPreviews(redis, ctx.database.pool, renderer, {
      prefix: config.REDIS_NAMESPACE,
      baseUrl: config.SHORT_URL_BASE,
      // Apart from the saved pages' budget, which previews never take from (decision 0360).
      maxBytes: (config.PAGE_CACHE_MB * 1024 * 1024) / 8,
    }),
  };
  // The server has stopped taking requests when this runs, so every scan it answered is in the recorder.
  app.addHook('onClose', async () => {
    await recorder.close();
    await pageTaps.close();
    await renderer.close();
    visitorKeys.stop();
    served.stop();
    subscriber.disconnect();
    redis.disconnect();
  });

  observePostgresPool(metrics, ctx.database.pool);
  counterFrom(
    metrics,
    'qrlinks_scans_total',
    'Scans this process answered (received), and of them: queued (handed to Redis), spooled (written to disk at shutdown), dropped (buffer full); resent: scans sent from write-ahead or spool files, found neither in Redis nor in Postgres, or left by a process that is gone',
    () => {
      const { received, flushed, resent, spooled, dropped } = recorder.stats();
      return { received, queued: flushed, resent, spooled, dropped };
    },
    'event',
  );
  new Gauge({
    name: 'qrlinks_scans_buffered',
    help: 'Scans held in memory now, not yet in Redis',
    registers: [metrics.registry],
    collect() {
      this.set(recorder.stats().buffered);
    },
  });
  counterFrom(
    metrics,
    'qrlinks_page_taps_total',
    "Taps on hosted pages' actions: counted (a visitor's first of the day), repeated (not counted again), written (to Postgres)",
    () => ({ ...pageTaps.stats }),
    'outcome',
  );
  counterFrom(
    metrics,
    'qrlinks_link_lookups_total',
    'Slug look-ups by where the answer came from: local (in-process cache), redis (shared cache), postgres (a miss of both)',
    () => resolver.lookups,
    'source',
  );
  new Gauge({
    name: 'qrlinks_page_cache_bytes',
    help: 'Bytes of landing and menu pages (compressed copies included) kept now, at most PAGE_CACHE_MB',
    registers: [metrics.registry],
    collect() {
      this.set(scanPath.pages.stats().bytes);
    },
  });
  counterFrom(
    metrics,
    'qrlinks_pages_rendered_total',
    'Pages made once and kept (landing, menu and menu preview pages in the render thread, per version of each; other link pages per copy of the link), by kind',
    () => ({ ...scanPath.pages.rendered, preview: scanPath.menuPreviews.rendered }),
    'kind',
  );
  const httpMetrics = registerHttpMetrics(app, metrics, { token: config.METRICS_TOKEN, proxyTrust });
  app.get('/health', async (_request, reply) =>
    // Stopping fails /health too: a balancer that checks /health (docker-compose.yml's, so that a
    // Redis outage does not take every replica out) moves away before the process closes.
    graceful.draining ? reply.code(503).send({ status: 'draining' }) : { status: 'ok' },
  );
  app.get('/robots.txt', (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=86400').send(ROBOTS_TXT),
  );
  app.get('/ready', async (_request, reply) => {
    const checks = await checkReadiness(ctx);
    // Stopping: balancers are to send new requests elsewhere while this process still answers them.
    if (graceful.draining) return reply.code(503).send({ status: 'draining', ...checks });
    const ready = checks.postgres && checks.redis;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', ...checks });
  });
  // Set before the route plugins are registered, so their encapsulated contexts inherit them.
  const answerNotFound = notFoundResponder(scanPath.notFoundLimit);
  app.setNotFoundHandler({ preHandler: httpMetrics.timeNotFound }, (request, reply) => {
    // Every path answers GET and HEAD (a page, if only "not found"); one-segment paths are slugs, which also take the password form.
    if (request.method === 'GET' || request.method === 'HEAD') return answerNotFound(request, reply);
    const slugPath = request.url.split('?')[0]!.lastIndexOf('/') === 0;
    return sendPage(reply, renderClientErrorPage(405, slugPath ? 'GET, HEAD, POST' : 'GET, HEAD', request.headers['accept-language']));
  });
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // Headers set before the failure (perhaps its cause: a value Node refuses) are not the page's.
    for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
    // A form refused before it was all read: the sender gets this page, not a reset (platform/http/lingering-close.ts).
    if (lingerBeforeClose(request.raw).mustClose) reply.header('connection', 'close');
    // A bad request (a body over the form limit, not a form, a malformed form) is the client's; anything else is ours.
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500)
      return sendPage(reply, renderClientErrorPage(err.statusCode, undefined, request.headers['accept-language']));
    request.log.error({ err, url: request.url }, 'redirect request failed');
    return sendPage(reply, renderServiceUnavailablePage(request.headers['accept-language']));
  });
  await app.register(tlsAskRoutes, { served, token: config.TLS_ASK_TOKEN });
  await app.register(domainChallengeRoutes, { served });
  await app.register(filesRoutes, { ctx });
  await app.register(linkRoutes, { scanPath });
  await app.register(tapRoutes, { scanPath, taps: pageTaps });
  return app;
}
