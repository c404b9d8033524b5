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

export function notFoundResponder(limit: NotFoundLimit) {
  return (request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply> => {
    const client = limit.clientOf(request.ip);
    const blockedFor = limit.blockedFor(client);
    const acceptLanguage = request.headers['accept-language'];
    if (blockedFor > 0) return sendPage(reply, renderTooManyNotFoundPage(blockedFor, acceptLanguage));
    return limit
      .count(client)
      .then((answer) =>
        sendPage(
          reply,
          answer.allowed ? notFoundPage(acceptLanguage) : renderTooManyNotFoundPage(answer.retryAfterSeconds, acceptLanguage),
        ),
      );
  };
}
