import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionFailure } from '#platform/database/pool.js';
import { AppError, GENERIC_ERROR_CODES, validationBody, zodIssuesToFieldErrors, type ErrorBody, type ErrorCode } from '#domain/errors.js';
import { throttledWarning, type Logger } from '#platform/logger.js';
import { answerOnSocket, clientErrorStatus, clientIsGone, type ParserError } from '#platform/http/client-errors.js';
import { lingerBeforeClose } from '#platform/http/lingering-close.js';
import { RequestValidationError } from './validation.js';

/**
 * The one place errors become HTTP answers, in the documented body shapes: 400
 * `{code: "validation_failed", message: "Validation failed", errors: [{path, message}], omittedErrors?}`
 * (at most MAX_LISTED_ERRORS listed, `omittedErrors` counting the rest), every other 4xx
 * `{code, message}`, 503 `{code, message}` with Retry-After while Postgres cannot be reached or
 * does not answer within its limits (decision 0380).
 * `code` is one of ERROR_CODES (domain/errors.ts). Whatever a route, Fastify or Node's HTTP parser
 * refuses, a client sees one of these or a bare 500 `{code: "internal_error", message}`; never a
 * stack trace, an internal error code (FST_…, HPE_…) or its own input echoed back.
 */
export default fp(async (app) => {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    // Refused before its body was all read (past a limit, a type we do not take): the client may
    // still be sending it, and must get this answer rather than a reset.
    if (lingerBeforeClose(request.raw).mustClose) reply.header('connection', 'close');
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
        return reply
          .code(415)
          .send(errorBody('unsupported_media_type', `Unsupported Content-Type: ${request.headers['content-type'] ?? 'none'}`));
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
      case 'FST_REQ_FILE_TOO_LARGE':
        return reply.code(413).send(errorBody('payload_too_large', 'Request body is too large'));
    }
    if (err instanceof SyntaxError) {
      return reply.code(400).send(validationBody([{ path: '(body)', message: 'Body is not valid JSON' }]));
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.code(429).send(errorBody('rate_limited', err.message || 'Too many requests'));
    // Fastify's other refusals (a Content-Length that does not match the body, …): their message
    // says what was wrong with the request, in our shape.
    if (status === 400) return reply.code(400).send(validationBody([{ path: '(request)', message: err.message || 'Bad request' }]));
    const generic = GENERIC_ERROR_CODES[status];
    // A 4xx of a status none of ours has (no plugin we use throws one) is logged and answered as
    // the 500 below: it needs a code of its own in ERROR_CODES.
    if (status > 400 && status < 500 && generic) return reply.code(status).send(errorBody(generic, err.message || STATUS_CODES[status]!));
    if (isConnectionFailure(err)) {
      postgresUnavailable(request.log as Logger, err, { url: request.routeOptions.url });
      return reply
        .code(503)
        .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
        .send(errorBody('service_unavailable', `The service is temporarily unavailable; retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} s`));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send(errorBody('internal_error', 'Internal server error'));
  });
});

/** An answer's body when all it says is its code and a message. */
export function errorBody(code: ErrorCode, message: string): ErrorBody {
  return { code, message };
}

/** How long a client is told to wait while Postgres cannot be reached or does not answer (decisions 0039, 0380). */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Every request fails alike during an outage; the connection watch has already said Postgres is gone. */
const postgresUnavailable = throttledWarning('requests answered 503: Postgres unreachable');

/** What a path no route matches gets (app.ts sets it, with the request metrics' timing). */
export function notFoundReply(_request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return reply.code(404).send(errorBody('not_found', 'Route not found'));
}

/**
 * Fastify's `frameworkErrors`: what its router refuses before any route or hook runs. Neither the
 * URL nor the path is echoed back.
 */
export function frameworkErrorReply(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const message = err.code === 'FST_ERR_BAD_URL' ? 'The URL is not validly percent-encoded' : 'The URL cannot be routed';
  // Not returned: Fastify expects nothing back, and a reply is a thenable it would not await.
  void reply.code(400).send(validationBody([{ path: '(url)', message }]));
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
      ? errorBody('request_timeout', 'The request was not received in time')
      : status === 414
        ? errorBody('uri_too_long', `The URL is too long (request line and headers at most ${maxHeaderBytes / 1024} KiB)`)
        : status === 431
          ? errorBody('headers_too_large', `Request headers are too large (at most ${maxHeaderBytes / 1024} KiB)`)
          : validationBody([{ path: '(request)', message: 'Malformed HTTP request' }]);
  answerOnSocket(socket, err, status, { 'Content-Type': 'application/json; charset=utf-8' }, JSON.stringify(body));
}
