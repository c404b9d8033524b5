/**
 * The public scan endpoint's composition root. For now it answers only /health and /ready; the
 * slug resolution and the hosted pages come with the scan path.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { checkReadiness, type AppContext } from '../shared/context.js';
import { closeConnectionsOnShutdown } from '../shared/http/graceful.js';

export async function buildRedirectApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    forceCloseConnections: 'idle',
    trustProxy: ctx.config.TRUSTED_PROXIES || false,
  });
  closeConnectionsOnShutdown(app);
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/ready', async (_request, reply) => {
    const checks = await checkReadiness(ctx);
    const ready = checks.postgres && checks.redis;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', ...checks });
  });
  app.setNotFoundHandler((_request, reply) => {
    reply.code(404).type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
  });
  return app;
}

const NOT_FOUND_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Link not found</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem"><h1>Link not found</h1><p>This QR code or short link does not lead anywhere.</p></body></html>`;
