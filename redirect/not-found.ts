/**
 * How the redirect says "no such link": a 404 page while the client is within its allowance of
 * unknown slugs (`NotFoundLimit`), a 429 page with Retry-After past it. Every 404 of the redirect
 * goes through here (unknown slugs, their downloads and the password form, other unknown paths).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { NotFoundLimit } from '#domain/links/resolve/not-found-limit.js';
import { notFoundPage, renderTooManyNotFoundPage, sendPage } from './pages/index.js';

/** What a slug that leads nowhere resolves to; answered with `notFoundPage` in the visitor's language. */
export const NOT_FOUND_PAGE = notFoundPage(undefined);

/**
 * `elsewhere`: where the request's brand domain sends an unknown slug (its not-found URL), in place
 * of the page; the slug counts towards the client's allowance all the same.
 */
export function notFoundResponder(limit: NotFoundLimit) {
  return (request: FastifyRequest, reply: FastifyReply, elsewhere: string | null = null): FastifyReply | Promise<FastifyReply> => {
    const client = limit.clientOf(request.ip);
    const blockedFor = limit.blockedFor(client);
    const acceptLanguage = request.headers['accept-language'];
    if (blockedFor > 0) return sendPage(reply, renderTooManyNotFoundPage(blockedFor, acceptLanguage));
    return limit.count(client).then((answer) => {
      if (!answer.allowed) return sendPage(reply, renderTooManyNotFoundPage(answer.retryAfterSeconds, acceptLanguage));
      if (elsewhere) return reply.code(302).header('location', elsewhere).header('cache-control', 'no-store').send();
      return sendPage(reply, notFoundPage(acceptLanguage));
    });
  };
}
