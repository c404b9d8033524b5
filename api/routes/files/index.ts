import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FileTooLargeError, fileFieldError, storeUpload, UNSUPPORTED_TYPE_MESSAGE } from '#domain/files/files.js';
import multipartPlugin, { MULTIPART_FIELD_LIMITS, multipartError } from '../../plugins/external/multipart.js';

const tags = ['files'];

/** Room in a request for boundaries, part headers and the few small text fields a form may add. */
const FORM_OVERHEAD_BYTES = MULTIPART_FIELD_LIMITS.fields * MULTIPART_FIELD_LIMITS.fieldSize + 64 * 1024;

const uploadBody = z
  .object({
    file: z.string().meta({
      format: 'binary',
      description: 'The file. Its type is read from its content (the part’s Content-Type and file name are ignored).',
    }),
  })
  // A multipart request has no parsed body (null: the handler streams the parts), so this schema
  // documents the form; it never rejects a request.
  .nullish()
  .meta({ description: 'multipart/form-data with exactly one file, in the field `file`' });

const storedFileResponse = z.object({
  fileId: z.uuid(),
  url: z.string().meta({ description: 'Where scanners fetch the file (served by the short-link host)' }),
  contentType: z.enum(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'application/pdf', 'image/svg+xml']),
  size: z.number().int().nonnegative().meta({ description: 'Bytes stored (for an SVG, the sanitized document)' }),
});

const routes: FastifyPluginAsyncZod = async (app) => {
  // This plugin is the only place multipart is accepted, and multipart is all it accepts: a JSON
  // (or any other) body is a 415 from the body parser, before the handler runs.
  app.removeAllContentTypeParsers();
  await app.register(multipartPlugin);

  app.post('', {
    config: { auth: { scope: 'links.create' }, audit: { entity: 'file', action: 'upload', id: 'response' } },
    schema: {
      tags,
      summary: 'Upload a file for use in a link',
      description:
        'Images (PNG, JPEG, WebP, GIF), PDF, and SVG (stored sanitized: no scripts, event handlers, ' +
        'foreignObject or external references). The type is read from the content; anything else → 400 on `file` ' +
        `("${UNSUPPORTED_TYPE_MESSAGE}"). ` +
        'Larger than FILE_SIZE_LIMIT_BYTES (default 25 MB) → 413. No file, an empty file or more than one file → 400 on `file`. ' +
        'New content past the plan’s storage quota → 413 naming the quota and current use (GET /usage); ' +
        'content the account already stores is not stored again and uses no quota. ' +
        'A file no link uses within ORPHAN_FILE_TTL_MS (default 24 h) is deleted.',
      consumes: ['multipart/form-data'],
      body: uploadBody,
      response: { 200: storedFileResponse },
    },
    handler: async (request) => {
      const upload = await readSingleFile(request, app.ctx.config.FILE_SIZE_LIMIT_BYTES);
      return storeUpload(app.ctx, request.principal.accountId, upload);
    },
  });
};

/**
 * Reads the one file of the form into memory (at most FILE_SIZE_LIMIT_BYTES, enforced while
 * reading) and checks there is no other. Other text fields are ignored. Nothing is stored until the
 * whole request has been read and found valid.
 */
async function readSingleFile(request: FastifyRequest, fileSizeLimit: number): Promise<{ buffer: Buffer; originalName: string | null }> {
  if (!request.isMultipart()) throw fileFieldError('A file is required: send multipart/form-data with the field `file`');
  // A body declared larger than the file limit plus the form's own overhead can't hold an
  // acceptable file: refused before reading a byte of it.
  const declared = Number(request.headers['content-length']);
  if (declared > fileSizeLimit + FORM_OVERHEAD_BYTES) throw new FileTooLargeError();
  let upload: { buffer: Buffer; originalName: string | null } | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file') {
        // Drained so parsing goes on; it still counts as the one file allowed.
        for await (const _chunk of part.file);
        continue;
      }
      upload = { buffer: await part.toBuffer(), originalName: part.filename || null };
    }
  } catch (err) {
    throw multipartError(err);
  }
  if (!upload) throw fileFieldError('A file is required in the field `file`');
  return upload;
}

export default routes;
