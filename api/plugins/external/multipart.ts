import fp from 'fastify-plugin';
import multipart from '@fastify/multipart';

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
