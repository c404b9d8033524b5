/**
 * The api's composition root: plugins first (third-party, then ours), then routes laid out like
 * the URL space under /api/v1. Building the app does no I/O; the caller owns the context.
 */
import { randomUUID } from 'node:crypto';
import { maxHeaderSize } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import { CONSOLE_DIST_DIR } from '#console/build.js';
import { checkReadiness } from '#infra/context.js';
import type { AppContext } from '#infra/context.js';
import { gracefulHttp } from '#platform/http/graceful.js';
import { OneLinePerRequest } from '#platform/http/request-log.js';
import { keepTickObjectShape } from '#platform/http/tick-object-shape.js';
import { JobWaiter } from '#infra/jobs/job-waiter.js';
import { createRoleMetrics, observePostgresPool, observeQrRenderer, type RoleMetrics } from '#platform/metrics/index.js';
import { registerHttpMetrics } from '#platform/metrics/http.js';
import { ProxyTrust, warnOfUntrustedForwarding } from '#platform/net/client-identity.js';
import routeTablePlugin from '#platform/http/route-table.js';
import auditPlugin from './plugins/app/audit.js';
import authPlugin from './plugins/app/auth.js';
import compressionPlugin from './plugins/app/compression.js';
import contextPlugin from './plugins/app/context.js';
import requestRedisPlugin from './plugins/app/request-redis.js';
import errorsPlugin, { clientErrorReply, frameworkErrorReply, notFoundReply } from './plugins/app/errors.js';
import validationPlugin, { prototypeKeyError, jsonShapeError } from './plugins/app/validation.js';
import rateLimitPlugin from './plugins/external/rate-limit.js';
import swaggerPlugin from './plugins/external/swagger.js';
import analyticsRoutes from './routes/analytics/index.js';
import bulkGenerateRoutes from './routes/bulk-generate/index.js';
import apiKeysRoutes from './routes/api-keys/index.js';
import auditEventsRoutes from './routes/audit-events/index.js';
import cafesRoutes from './routes/cafes/index.js';
import domainsRoutes from './routes/domains/index.js';
import webhooksRoutes from './routes/webhooks/index.js';
import foldersRoutes from './routes/folders/index.js';
import filesRoutes from './routes/files/index.js';
import invitationsRoutes from './routes/invitations/index.js';
import jobsRoutes from './routes/jobs/index.js';
import linksRoutes from './routes/links/index.js';
import meRoutes from './routes/me/index.js';
import membersRoutes from './routes/members/index.js';
import sessionsRoutes from './routes/sessions/index.js';
import setupRoutes from './routes/setup/index.js';
import sessionsOidcRoutes from './routes/sessions/oidc/index.js';
import minimalLinksRoutes from './routes/minimal-links/index.js';
import passwordResetsRoutes from './routes/password-resets/index.js';
import templatesRoutes from './routes/templates/index.js';
import qrRoutes from './routes/qr/index.js';
import printSheetRoutes from './routes/print-sheets/index.js';
import utmTemplatesRoutes from './routes/utm-templates/index.js';
import usageRoutes from './routes/usage/index.js';
import usersRoutes from './routes/users/index.js';
import { registerConsole } from './console.js';
import { API_PREFIX } from './prefix.js';
import './types.js';

export async function buildApiApp(ctx: AppContext, metrics: RoleMetrics = createRoleMetrics('api')): Promise<FastifyInstance> {
  keepTickObjectShape();
  const graceful = gracefulHttp();
  // Fastify's instance type follows its logger's: it is the base type the plugins are typed with.
  const logger: FastifyBaseLogger = ctx.logger;
  const app = Fastify({
    http: graceful.serverOptions,
    loggerInstance: logger,
    logController: new OneLinePerRequest(['/health', '/ready', '/metrics']),
    bodyLimit: ctx.config.BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    genReqId: () => randomUUID(),
    // Idle keep-alive sockets are closed on shutdown so SIGTERM does not wait for them.
    forceCloseConnections: 'idle',
    // /folders and /folders/ are the same resource. A path id of any length Node's parser lets
    // through reaches its route, whose params schema answers that resource's 404 for an id no
    // resource can have, as for any unknown id (never the router's 414).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    trustProxy: ctx.config.TRUSTED_PROXIES || false,
    // What the router and Node's HTTP parser refuse is answered in our error shapes too.
    frameworkErrors: frameworkErrorReply,
    clientErrorHandler: (err, socket) => clientErrorReply(err, socket, maxHeaderSize),
  });
  // JSON, and multipart in the upload routes only: a text/plain body is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain');
  // Some clients send `Content-Type: application/json` with no body on DELETE or POST actions; that
  // is "no body", left to the route's schema, not a parse error.
  // Fastify's default JSON parser is the callback kind (its type admits the promise kind too): it
  // answers through `done` and returns nothing.
  const parseJson = app.getDefaultJsonParser('error', 'error') as (
    request: FastifyRequest,
    body: string,
    done: (err: Error | null, value?: unknown) => void,
  ) => void;
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    const misshapen = jsonShapeError(body as string);
    if (misshapen) return done(misshapen, undefined);
    parseJson(request, body as string, (err, value) => {
      if (err) return done(prototypeKeyError(body as string) ?? err, undefined);
      done(null, value);
    });
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  graceful.register(app);
  const proxyTrust = new ProxyTrust(ctx.config.TRUSTED_PROXIES);
  warnOfUntrustedForwarding(app.server, proxyTrust, ctx.logger);

  await app.register(contextPlugin, { ctx });
  const jobWaiter = new JobWaiter({ db: ctx.db, redis: ctx.redis, prefix: ctx.config.REDIS_NAMESPACE, logger: ctx.logger });
  app.decorate('jobWaiter', jobWaiter);
  // Requests waiting for a job answer 202 at once when the server begins to stop, not at JOB_WAIT_MS.
  app.addHook('preClose', async () => jobWaiter.stopWaiting());
  app.addHook('onClose', async () => jobWaiter.close());
  await app.register(routeTablePlugin);
  await app.register(validationPlugin);
  await app.register(errorsPlugin);
  await app.register(compressionPlugin);
  await app.register(helmet, { contentSecurityPolicy: false, global: true });
  await app.register(swaggerPlugin);
  await app.register(requestRedisPlugin);
  await app.register(rateLimitPlugin);
  await app.register(authPlugin);
  await app.register(auditPlugin);

  observePostgresPool(metrics, ctx.database.pool);
  observeQrRenderer(metrics, ctx.qr);
  const httpMetrics = registerHttpMetrics(app, metrics, { token: ctx.config.METRICS_TOKEN, proxyTrust });
  app.setNotFoundHandler({ preHandler: httpMetrics.timeNotFound }, notFoundReply);
  app.get('/health', { schema: { hide: true } }, async (_request, reply) =>
    // Stopping fails /health too: a balancer that checks /health (docker-compose.yml's, so that a
    // Redis outage does not take every replica out) moves away before the process closes.
    graceful.draining ? reply.code(503).send({ status: 'draining' }) : { status: 'ok' },
  );
  app.get('/ready', { schema: { hide: true } }, async (_request, reply) => {
    const checks = await checkReadiness(ctx);
    // Stopping: balancers are to send new requests elsewhere while this process still answers them.
    if (graceful.draining) return reply.code(503).send({ status: 'draining', ...checks });
    const ready = checks.postgres && checks.redis;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', ...checks });
  });
  registerConsole(app, CONSOLE_DIST_DIR, ctx.config.SHORT_URL_BASE);

  await app.register(
    async (api) => {
      await api.register(analyticsRoutes, { prefix: '/analytics' });
      await api.register(apiKeysRoutes, { prefix: '/api-keys' });
      await api.register(auditEventsRoutes, { prefix: '/audit-events' });
      await api.register(cafesRoutes, { prefix: '/cafes' });
      await api.register(bulkGenerateRoutes, { prefix: '/bulk-generate' });
      await api.register(domainsRoutes, { prefix: '/domains' });
      await api.register(webhooksRoutes, { prefix: '/webhooks' });
      await api.register(foldersRoutes, { prefix: '/folders' });
      await api.register(filesRoutes, { prefix: '/files' });
      await api.register(templatesRoutes, { prefix: '/templates' });
      await api.register(invitationsRoutes, { prefix: '/invitations' });
      await api.register(jobsRoutes, { prefix: '/jobs' });
      await api.register(linksRoutes, { prefix: '/links' });
      await api.register(meRoutes, { prefix: '/me' });
      await api.register(membersRoutes, { prefix: '/members' });
      await api.register(minimalLinksRoutes, { prefix: '/minimal-links' });
      await api.register(passwordResetsRoutes, { prefix: '/password-resets' });
      await api.register(qrRoutes, { prefix: '/qr' });
      await api.register(printSheetRoutes, { prefix: '/print-sheets' });
      await api.register(sessionsRoutes, { prefix: '/sessions' });
      await api.register(setupRoutes, { prefix: '/setup' });
      await api.register(sessionsOidcRoutes, { prefix: '/sessions/oidc' });
      await api.register(usageRoutes, { prefix: '/usage' });
      await api.register(usersRoutes, { prefix: '/users' });
      await api.register(utmTemplatesRoutes, { prefix: '/utm-templates' });
    },
    { prefix: API_PREFIX },
  );
  return app;
}
