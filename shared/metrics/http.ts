/**
 * Request metrics for a Fastify app (api and redirect), and its `GET /metrics`. Latency is a
 * histogram per route pattern (`/:slug`, `/api/v1/links/:id`: never the raw URL, so the series stay
 * few), method and status code. The label set of each request is looked up in a small map of
 * child histograms, so the scan path pays for one map lookup and one observation.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Histogram } from 'prom-client';
import { mayScrape, type RoleMetrics } from './index.js';

/** Seconds; the redirect answers in a millisecond or two, the api's heavy requests take seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function registerHttpMetrics(app: FastifyInstance, metrics: RoleMetrics, token: string | undefined): void {
  const histogram = new Histogram({
    name: 'qrlinks_http_request_duration_seconds',
    help: 'Time from a request reaching the server to its answer being sent, per route pattern, method and status',
    labelNames: ['route', 'method', 'status_code'],
    buckets: LATENCY_BUCKETS,
    registers: [metrics.registry],
  });
  const children = new Map<string, Histogram.Internal<'route' | 'method' | 'status_code'>>();
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    // Requests no route matched (404s of every shape) share one series.
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = children.get(key);
    if (!child) {
      child = histogram.labels({ route, method: request.method, status_code: String(reply.statusCode) });
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayScrape(token, request.headers.authorization)) return reply.code(401).type('text/plain').send('unauthorized\n');
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
