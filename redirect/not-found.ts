/**
 * How the redirect says "no such link": a 404 page while the client is within its allowance of
 * unknown slugs (`NotFoundLimit`), a 429 page with Retry-After past it. Every 404 of the redirect
 * goes through here (unknown slugs, their downloads and the password form, other unknown paths).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NotFoundLimit } from '../shared/links/resolve/not-found-limit.js';
import { renderTooManyNotFoundPage, renderUnavailablePage, sendPage } from './pages/index.js';

/** The 404 page, rendered once: it is the same for every unknown slug. */
export const NOT_FOUND_PAGE = renderUnavailablePage('not_found');

export function notFoundResponder(limit: NotFoundLimit) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> => {
    const client = limit.clientOf(request.ip);
    const blockedFor = limit.blockedFor(client);
    if (blockedFor > 0) return sendPage(reply, renderTooManyNotFoundPage(blockedFor));
    return limit
      .count(client)
      .then((answer) => sendPage(reply, answer.allowed ? NOT_FOUND_PAGE : renderTooManyNotFoundPage(answer.retryAfterSeconds)));
  };
}
