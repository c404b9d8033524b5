/**
 * Errors answered before a request reaches a route, in the redirect's own HTML pages rather than
 * Fastify's or Node's JSON: a path the router cannot decode or that is longer than it takes
 * (`frameworkErrors`), and requests Node's HTTP parser refuses (`clientError`: headers too large,
 * a malformed request line or header, a request that took too long).
 */
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { answerOnSocket, clientErrorStatus, clientIsGone, type ParserError } from '#platform/http/client-errors.js';
import type { Logger } from '#platform/logger.js';
import { renderClientErrorPage, renderServiceUnavailablePage, sendPage } from './pages/index.js';

/** Fastify's `frameworkErrors`: FST_ERR_BAD_URL (a malformed percent-encoding) and FST_ERR_MAX_PARAM_LENGTH. */
export function answerFrameworkError(logger: Logger) {
  // Returns nothing: Fastify expects nothing back, and a reply is a thenable it would not await.
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const language = request.headers['accept-language'];
    if (err.code === 'FST_ERR_BAD_URL') return void sendPage(reply, renderClientErrorPage(400, undefined, language));
    if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') return void sendPage(reply, renderClientErrorPage(414, undefined, language));
    logger.error({ err, url: request.url }, 'redirect request failed before routing');
    void sendPage(reply, renderServiceUnavailablePage());
  };
}

/**
 * The server's `clientError` listener: there is no request or reply, so the page is written to the
 * socket by hand; the status is `clientErrorStatus`'s.
 */
export function answerClientError(err: ParserError, socket: Socket): void {
  if (clientIsGone(err, socket)) return;
  const page = renderClientErrorPage(clientErrorStatus(err));
  answerOnSocket(socket, err, page.status, page.headers ?? {}, page.body);
}
