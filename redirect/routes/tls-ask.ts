/**
 * `GET /internal/tls-ask?domain=<host>`: the question an on-demand TLS proxy (Caddy's
 * `on_demand_tls { ask … }`) asks before it gets a certificate for a name. 200 for the service's
 * own hosts and every brand domain that serves links (verified or misconfigured), 404 for any
 * other name, from the in-process set of domain/domains/served-hosts.ts: a flood of random names
 * costs a set lookup each. Asked from loopback or a private network (the proxy beside the
 * redirect), or with TLS_ASK_TOKEN; anyone else gets a 403, since the answer says which names
 * this service serves.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { hostOfHeader } from '#domain/domains/hostname.js';
import type { ServedHosts } from '#domain/domains/served-hosts.js';
import { isPublicAddress } from '#platform/net/ip-ranges.js';

export interface TlsAskOptions {
  served: ServedHosts;
  token: string | undefined;
}

const tlsAskRoutes: FastifyPluginAsync<TlsAskOptions> = async (app, { served, token }) => {
  const tokenBytes = token === undefined ? null : Buffer.from(token);
  const mayAsk = (ip: string, given: unknown) => {
    if (!isPublicAddress(ip)) return true;
    if (tokenBytes === null || typeof given !== 'string') return false;
    const bytes = Buffer.from(given);
    return bytes.length === tokenBytes.length && timingSafeEqual(bytes, tokenBytes);
  };

  app.get('/internal/tls-ask', (request, reply) => {
    const query = request.query as Record<string, unknown>;
    reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
    if (!mayAsk(request.ip, query.token)) return reply.code(403).send('forbidden\n');
    const host = typeof query.domain === 'string' ? hostOfHeader(query.domain) : null;
    if (host !== null && served.has(host)) return reply.code(200).send('ok\n');
    return reply.code(404).send('not served here\n');
  });
};

export default tlsAskRoutes;
