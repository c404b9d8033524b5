import fp from 'fastify-plugin';
import multipart from '@fastify/multipart';
import { FileTooLargeError, fileFieldError } from '#domain/files/files.js';
import { AppError, ValidationError } from '#domain/errors.js';

/** Per request: one file, a few small text fields. Parts past these are refused, not buffered. */
export const MULTIPART_FIELD_LIMITS = { files: 1, fields: 10, fieldSize: 64 * 1024, parts: 20, headerPairs: 100 };

/**
 * multipart/form-data for the routes that take uploads. It is registered inside those routes' own
 * (encapsulated) plugin rather than app-wide: @fastify/multipart adds a body parser for
 * multipart/form-data, and only upload routes should accept that type; every other route keeps
 * answering 415 to it. The file size limit is FILE_SIZE_LIMIT_BYTES; a file past it is reported by
 * the part's reader (FST_REQ_FILE_TOO_LARGE) rather than silently truncated.
 */
export default fp(
  async (app) => {
    await app.register(multipart, {
      limits: { ...MULTIPART_FIELD_LIMITS, fileSize: app.ctx.config.FILE_SIZE_LIMIT_BYTES },
      throwFileSizeLimit: true,
    });
  },
  { name: 'qrlinks-multipart' },
);

/** What reading a form failed on, as our error answers (413 for a file past the limit, else a 400). */
export function multipartError(err: unknown): Error {
  if (err instanceof AppError) return err;
  switch ((err as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new FileTooLargeError();
    case 'FST_FILES_LIMIT':
      return fileFieldError('Send exactly one file');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new ValidationError([{ path: '(body)', message: 'Too many form fields' }]);
    case 'FST_PROTO_VIOLATION':
      return new ValidationError([{ path: '(body)', message: 'Form field name not allowed' }]);
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new ValidationError([{ path: '(body)', message: 'A form field declared as JSON is not valid JSON' }]);
  }
  // busboy's own errors: no boundary, a truncated or malformed body, a client that went away.
  return new ValidationError([{ path: '(body)', message: 'Malformed multipart body' }]);
}
