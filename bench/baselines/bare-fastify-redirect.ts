/**
 * Baseline for the redirect benchmark: a bare Fastify route answering a 302 from an in-memory
 * Map, with nothing recorded. What our scan path costs is measured against this. With
 * BASELINE_METRICS=1 it also keeps the redirect's request metrics (the same per-route latency
 * histogram, sampled on the slug route as the redirect's is, platform/metrics/http.ts): the pair of the two measures what metrics cost per request.
 */
import Fastify from 'fastify';
import { createRoleMetrics } from '#platform/metrics/index.js';
import { registerHttpMetrics } from '#platform/metrics/http.js';
import { ProxyTrust } from '#platform/net/client-identity.js';

const port = Number(process.env.PORT);
const destinations = new Map([[process.env.BASELINE_SLUG!, process.env.BASELINE_URL!]]);
const app = Fastify();
if (process.env.BASELINE_METRICS === '1')
  registerHttpMetrics(app, createRoleMetrics('redirect'), { token: undefined, proxyTrust: new ProxyTrust('') });
app.get('/health', async () => ({ status: 'ok' }));
app.get('/:slug', { config: { sampledLatency: true } }, async (request, reply) => {
  const url = destinations.get((request.params as { slug: string }).slug);
  if (!url) return reply.code(404).send();
  return reply.code(302).header('location', url).send();
});
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port });
