/**
 * `GET /.well-known/qrlinks-challenge/<token>`: a brand domain's HTTP challenge (decision 0425).
 * Answered with the token, as plain text, when the request's Host is a domain (not disabled)
 * whose token it is; a 404 otherwise. From memory (domain/domains/served-hosts.ts), like the TLS
 * ask: a flood of guesses costs a map lookup each and says nothing of other domains.
 */
import type { FastifyPluginAsync } from 'fastify';
import { hostOfHeader } from '#domain/domains/hostname.js';
import type { ServedHosts } from '#domain/domains/served-hosts.js';

const domainChallengeRoutes: FastifyPluginAsync<{ served: ServedHosts }> = async (app, { served }) => {
  app.get('/.well-known/qrlinks-challenge/:token', (request, reply) => {
    const { token } = request.params as { token: string };
    const host = hostOfHeader(request.headers.host);
    reply.header('cache-control', 'no-store').type('text/plain; charset=utf-8');
    if (host !== null && served.answersChallenge(host, token)) return reply.code(200).send(token);
    return reply.code(404).send('not found\n');
  });
};

export default domainChallengeRoutes;
