/**
 * What the request metrics add to a scan, measured without the noise of a load test: the scan
 * route's handler is called in a tight loop as registered (wrapped by registerHttpMetrics: a count
 * on every request, a `finish` listener and a latency observation on one in LATENCY_SAMPLE_EVERY),
 * interleaved with the same handler unwrapped (the baseline, in the same run). The handler itself
 * does nothing, so the difference is the metrics' own work per request, to set against the
 * redirect's time per scan (`npm run bench -- redirect`: 1 / (a)'s req/s).
 */
import { EventEmitter } from 'node:events';
import Fastify, { type FastifyReply, type FastifyRequest, type RouteHandlerMethod } from 'fastify';
import { createRoleMetrics } from '#platform/metrics/index.js';
import { LATENCY_SAMPLE_EVERY, registerHttpMetrics } from '#platform/metrics/http.js';
import { ProxyTrust } from '#platform/net/client-identity.js';
import { median, printTable } from './support.js';

const CALLS = Number(process.env.BENCH_METRICS_CALLS ?? 2_000_000);
const ROUNDS = Number(process.env.BENCH_RUNS ?? 11);

export async function benchMetrics(): Promise<string> {
  let answered = 0;
  const handler: RouteHandlerMethod = function scan() {
    answered++;
    return undefined;
  };
  const app = Fastify();
  registerHttpMetrics(app, createRoleMetrics('redirect'), { token: undefined, proxyTrust: new ProxyTrust('') });
  let registered: RouteHandlerMethod | undefined;
  app.addHook('onRoute', (route) => {
    if (route.method === 'GET') registered = route.handler;
  });
  app.get('/:slug', { config: { sampledLatency: true } }, handler);
  await app.ready();
  if (!registered || registered === handler) throw new Error('the scan route was not wrapped by the request metrics');

  /** Nanoseconds a call, each call followed by its response's `finish` (what Node emits when the answer is sent). */
  const nsPerCall = (route: RouteHandlerMethod): number => {
    const raw = new EventEmitter();
    const request = { method: 'GET', routeOptions: { url: '/:slug' } };
    const reply = { raw, statusCode: 302, elapsedTime: 0.05 };
    if (!readsAsRequest(request) || !readsAsReply(reply)) throw new Error('the stand-ins lack a field the metrics read');
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) {
      route.call(app, request, reply);
      raw.emit('finish');
    }
    return Number(process.hrtime.bigint() - started) / CALLS;
  };
  nsPerCall(handler); // warm-up of both
  nsPerCall(registered);
  const plain: number[] = [];
  const metered: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first, so a drift of the machine's speed falls on both.
    if (round % 2) {
      plain.push(nsPerCall(handler));
      metered.push(nsPerCall(registered));
    } else {
      metered.push(nsPerCall(registered));
      plain.push(nsPerCall(handler));
    }
  }
  await app.close();
  if (answered === 0) throw new Error('the handler never ran');
  const added = median(metered.map((m, i) => m - plain[i]!));
  const table = printTable(
    `metrics: the scan route's handler called ${CALLS.toLocaleString('en')} times a round, ${ROUNDS} rounds, interleaved; medians`,
    ['handler', 'ns a request', 'added by the metrics'],
    [
      ['scan route handler alone (baseline)', median(plain).toFixed(1), ''],
      [
        `as registered: counted every request, timed 1 in ${LATENCY_SAMPLE_EVERY}`,
        median(metered).toFixed(1),
        `${added.toFixed(1)} ns (rounds: ${metered.map((m, i) => (m - plain[i]!).toFixed(0)).join(', ')})`,
      ],
    ],
  );
  return table;
}

/**
 * Stand-ins for Fastify's request and reply in a tight loop: the fields the metrics wrapper reads
 * (platform/metrics/http.ts), checked present; it touches nothing else of them.
 */
function readsAsRequest(value: object): value is FastifyRequest {
  return 'method' in value && 'routeOptions' in value;
}

function readsAsReply(value: object): value is FastifyReply {
  return 'raw' in value && 'statusCode' in value && 'elapsedTime' in value;
}
