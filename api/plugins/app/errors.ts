import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionFailure } from '../../../platform/database/pool.js';
import { AppError, validationBody, zodIssuesToFieldErrors } from '../../../domain/errors.js';
import { throttledWarning, type Logger } from '../../../platform/logger.js';
import { answerOnSocket, clientErrorStatus, clientIsGone, type ParserError } from '../../../platform/http/client-errors.js';
import { RequestValidationError } from './validation.js';

/**
 * The one place errors become HTTP answers, in the documented body shapes: 400
 * `{message: "Validation failed", errors: [{path, message}], omittedErrors?}` (at most
 * MAX_LISTED_ERRORS listed, `omittedErrors` counting the rest), every other 4xx `{message}`, 503
 * `{message}` with Retry-After while Postgres cannot be reached. Whatever a route, Fastify or
 * Node's HTTP parser refuses, a client sees one of these or a bare 500; never a stack trace, an
 * internal error code or its own input echoed back.
 */
export default fp(async (app) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      return reply.code(err.statusCode).headers(err.headers).send(err.body);
    }
    if (err instanceof RequestValidationError) {
      // Query and path problems are named as they are sent; body fields by their JSON path.
      return reply.code(400).send(validationBody(zodIssuesToFieldErrors(err.issues)));
    }
    switch (err.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.code(400).send(validationBody([{ path: '(body)', message: 'Body is not valid JSON' }]));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send({ message: `Unsupported Content-Type: ${request.headers['content-type'] ?? 'none'}` });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_REQ_FILE_TOO_LARGE':
        return reply.code(413).send({ message: 'Request body is too large' });
    }
    if (err instanceof SyntaxError) {
      return reply.code(400).send(validationBody([{ path: '(body)', message: 'Body is not valid JSON' }]));
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.code(429).send({ message: err.message || 'Too many requests' });
    // Fastify's other refusals (a Content-Length that does not match the body, …): their message
    // says what was wrong with the request, in our shape.
    if (status === 400) return reply.code(400).send(validationBody([{ path: '(request)', message: err.message || 'Bad request' }]));
    if (status > 400 && status < 500) return reply.code(status).send({ message: err.message || STATUS_CODES[status] });
    if (isConnectionFailure(err)) {
      postgresUnavailable(request.log as Logger, err, { url: request.routeOptions.url });
      return reply
        .code(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
        .send({ message: `The service is temporarily unavailable; retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} s` });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: 'Internal server error' });
  });

});

/** How long a client is told to wait while Postgres cannot be reached (pg gives up connecting after 5 s). */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Every request fails alike during an outage; the connection watch has already said Postgres is gone. */
const postgresUnavailable = throttledWarning('requests answered 503: Postgres unreachable');

/** What a path no route matches gets (app.ts sets it, with the request metrics' timing). */
export function notFoundReply(_request: FastifyRequest, reply: FastifyReply) {
  reply.code(404).send({ message: 'Route not found' });
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route or hook runs. Neither the
 * URL nor the path is echoed back.
 */
export function frameworkErrorReply(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_BAD_URL') {
    return reply.code(400).send(validationBody([{ path: '(url)', message: 'The URL is not validly percent-encoded' }]));
  }
  return reply.code(400).send(validationBody([{ path: '(url)', message: 'The URL cannot be routed' }]));
}

/**
 * Node's `clientError`: a request its HTTP parser refused, answered on the raw socket (there is no
 * request object) in the api's bodies; the status is `clientErrorStatus`'s.
 */
export function clientErrorReply(err: ParserError, socket: Socket, maxHeaderBytes: number) {
  if (clientIsGone(err, socket)) return;
  const status = clientErrorStatus(err, maxHeaderBytes);
  const body =
    status === 408
      ? { message: 'The request was not received in time' }
      : status === 414
        ? { message: `The URL is too long (request line and headers at most ${maxHeaderBytes / 1024} KiB)` }
        : status === 431
          ? { message: `Request headers are too large (at most ${maxHeaderBytes / 1024} KiB)` }
          : validationBody([{ path: '(request)', message: 'Malformed HTTP request' }]);
  answerOnSocket(socket, err, status, { 'Content-Type': 'application/json; charset=utf-8' }, JSON.stringify(body));
}
