import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { AppError, zodIssuesToFieldErrors, type FieldError } from '../../../shared/http/errors.js';
import { RequestValidationError } from './validation.js';

/**
 * The one place errors become HTTP answers, in the body shapes of DESIGN.md item 7. Whatever a
 * route throws, a client sees a clear 4xx or a bare 500; never a stack trace.
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
    if (status >= 400 && status < 500) return reply.code(status).send({ message: err.message });
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: 'Internal server error' });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ message: 'Route not found' });
  });
});

function validationBody(errors: FieldError[]) {
  return { message: 'Validation failed', errors };
}
