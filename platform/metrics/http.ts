/**
 * Request metrics for a Fastify app (api and redirect), and its `GET /metrics`. Latency is a
 * histogram per route pattern (`/:slug`, `/api/v1/links/:id`: never the raw URL, so the series stay
 * few), method and status code; `qrlinks_http_requests_total` counts every request per route
 * pattern and method.
 *
 * A route that declares `config: { sampledLatency: true }` (the scan route, the one path where a
 * microsecond is a share of the answer) is timed one request in LATENCY_SAMPLE_EVERY and counted
 * by a plain number: an `onResponse` hook on it made Fastify track the end of every response and
 * cost about a sixth of a scan's time (docs/benchmarks.md). Its histogram series are therefore a
 * sample (their `_count` is about 1/LATENCY_SAMPLE_EVERY of its requests); its request count is whole.
 * Every other route is timed on each request by a route-level `onResponse` hook.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onResponseHookHandler,
  preHandlerHookHandler,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import { Counter, Histogram } from 'prom-client';
import { SCRAPE_REFUSALS, scrapeVerdict, type RoleMetrics, type ScrapeAccess } from './index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Time one request in LATENCY_SAMPLE_EVERY on this route instead of each one (platform/metrics/http.ts). */
    sampledLatency?: boolean;
  }
}

/** Seconds; the redirect answers in a millisecond or two, the api's heavy requests take seconds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Thousands of scans a second still give hundreds of observations a second: enough for any quantile. */
export const LATENCY_SAMPLE_EVERY = 16;

/** What an app wires in beside its routes: the hook that times its not-found answers, which no route owns. */
export interface HttpMetrics {
  /** A `preHandler` for `setNotFoundHandler({ preHandler }, …)`: times each not-found answer under the route `unmatched`. */
  timeNotFound: preHandlerHookHandler;
}

/**
 * Adds `GET /metrics` and times every route added after this call (an `onRoute` hook: call it before
 * the routes are registered).
 */
export function registerHttpMetrics(app: FastifyInstance, metrics: RoleMetrics, access: ScrapeAccess): HttpMetrics {
  const histogram = new Histogram({
    name: 'qrlinks_http_request_duration_seconds',
    help: `Time from a request reaching the server to its answer being sent, per route pattern, method and status (on the scan route, one request in ${LATENCY_SAMPLE_EVERY})`,
    labelNames: ['route', 'method', 'status_code'],
    buckets: LATENCY_BUCKETS,
    registers: [metrics.registry],
  });
  /** The sampled routes' request counts, one per route pattern and method, added to the counter when it is scraped. */
  const sampledRequests: SampledCount[] = [];
  const requests = new Counter({
    name: 'qrlinks_http_requests_total',
    help: 'Requests answered, per route pattern and method',
    labelNames: ['route', 'method'],
    registers: [metrics.registry],
    collect() {
      for (const count of sampledRequests) {
        if (count.total > count.reported) this.inc({ route: count.route, method: count.method }, count.total - count.reported);
        count.reported = count.total;
      }
    },
  });
  const histograms = new Map<string, Histogram.Internal<'route' | 'method' | 'status_code'>>();
  const counters = new Map<string, Counter.Internal>();

  function routeOf(request: FastifyRequest): string {
    // Requests no route matched (404s of every shape) share one series.
    return request.routeOptions.url ?? 'unmatched';
  }

  function observe(request: FastifyRequest, reply: FastifyReply): void {
    const route = routeOf(request);
    const key = `${request.method} ${reply.statusCode} ${route}`;
    let child = histograms.get(key);
    if (!child) {
      child = histogram.labels({ route, method: request.method, status_code: String(reply.statusCode) });
      histograms.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
  }

  function count(request: FastifyRequest): void {
    const route = routeOf(request);
    const key = `${request.method} ${route}`;
    let child = counters.get(key);
    if (!child) {
      child = requests.labels({ route, method: request.method });
      counters.set(key, child);
    }
    child.inc();
  }

  const observeEach: onResponseHookHandler = (request, reply, done) => {
    observe(request, reply);
    count(request);
    done();
  };

  function sampled(handler: RouteHandlerMethod, route: string): RouteHandlerMethod {
    let unsampled = 0;
    const byMethod: Record<string, SampledCount> = Object.create(null);
    return function sampledRoute(this: FastifyInstance, request, reply) {
      let requestCount = byMethod[request.method];
      if (!requestCount) {
        requestCount = byMethod[request.method] = { route, method: request.method, total: 0, reported: 0 };
        sampledRequests.push(requestCount);
      }
      requestCount.total++;
      if (++unsampled === LATENCY_SAMPLE_EVERY) {
        unsampled = 0;
        reply.raw.once('finish', () => observe(request, reply));
      }
      return handler.call(this, request, reply);
    };
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.config?.sampledLatency) route.handler = sampled(route.handler, route.url);
    else route.onResponse = [...asArray(route.onResponse), observeEach];
  });

  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const verdict = scrapeVerdict(access, request.raw, request.ip);
    if (verdict !== 'allowed') return reply.code(SCRAPE_REFUSALS[verdict].status).type('text/plain').send(SCRAPE_REFUSALS[verdict].text);
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  return {
    timeNotFound(request, reply, done) {
      reply.raw.once('finish', () => {
        observe(request, reply);
        count(request);
      });
      done();
    },
  };
}

interface SampledCount {
  route: string;
  method: string;
  total: number;
  reported: number;
}

function asArray<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
