/**
 * The multipart forms of the cafe endpoints (profile, groups, category images, items): text fields
 * become an object for the route's zod schema, image files are read into memory (at most
 * FILE_SIZE_LIMIT_BYTES each, enforced while reading: 413 past it) and stored only once the whole
 * form has been read and found valid.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { FileTooLargeError } from '#domain/files/files.js';
import { formatPath, ValidationError, zodIssuesToFieldErrors, type FieldError } from '#domain/errors.js';
import { storeMenuImage, type ImageUpload } from '#domain/cafes/images.js';
import { FORM_LIST_FIELDS, IMAGE_FILE_FIELDS } from './schemas.js';
import multipartPlugin, { MULTIPART_FIELD_LIMITS, multipartError } from '../../plugins/external/multipart.js';
import { findUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '../../plugins/app/validation.js';

/** Text fields and list entries a form may carry (an item with 50 ingredients, 50 tags, 50 allergens). */
const FORM_LIMITS = { fields: 200, parts: 210, fieldSize: MULTIPART_FIELD_LIMITS.fieldSize };
/** Room in a request for boundaries, part headers and the text fields. */
const FORM_OVERHEAD_BYTES = 1024 * 1024;

/**
 * Registers form routes in a context of their own that accepts multipart/form-data and nothing
 * else (JSON there is a 415), leaving the JSON routes beside them as they are.
 */
export async function formRoutes(app: FastifyInstance, routes: FastifyPluginAsyncZod): Promise<void> {
  await app.register(async (form) => {
    form.removeAllContentTypeParsers();
    await form.register(multipartPlugin);
    await form.register(routes);
  });
}

export interface MenuForm<T> {
  fields: T;
  files: Map<string, ImageUpload>;
}

/**
 * Reads and checks a form: unknown fields, a text field sent twice (list fields may repeat, or
 * hold one JSON array), text too long to be a value, NUL characters, each a 400 naming the field;
 * then the fields through `schema`. Not multipart (no body): an empty form. A file part sent with
 * no name and no bytes (a browser's empty file input) is no file.
 */
export async function readMenuForm<S extends z.ZodType>(
  request: FastifyRequest,
  schema: S,
  fileFields: readonly string[],
): Promise<MenuForm<z.output<S>>> {
  const raw: Record<string, string | string[]> = {};
  const files = new Map<string, ImageUpload>();
  const errors: FieldError[] = [];
  if (request.isMultipart()) {
    const limit = request.server.ctx.config.FILE_SIZE_LIMIT_BYTES;
    const declared = Number(request.headers['content-length']);
    if (declared > fileFields.length * limit + FORM_OVERHEAD_BYTES) throw new FileTooLargeError();
    try {
      // At most one file per file field: a request holds no more than its form can use in memory.
      for await (const part of request.parts({ limits: { ...FORM_LIMITS, files: fileFields.length, fileSize: limit } })) {
        const name = part.fieldname;
        // The name as error paths write it (an empty one is `""`).
        const path = formatPath([name]);
        if (part.type === 'file') {
          if (!fileFields.includes(name) || files.has(name)) {
            errors.push({ path, message: fileFields.includes(name) ? 'Send one file in this field' : 'Unknown field' });
            // Drained, not kept: parsing goes on so every bad field is named.
            for await (const _chunk of part.file);
            continue;
          }
          const buffer = await part.toBuffer();
          if (buffer.length > 0 || part.filename) files.set(name, { buffer, originalName: part.filename || null });
          continue;
        }
        if (findUnstorableText(name).length > 0) {
          errors.push({ path: '(body)', message: `A field name: ${UNSTORABLE_TEXT_MESSAGE}` });
          continue;
        }
        const value = part.value;
        if (part.valueTruncated) errors.push({ path, message: `Must be at most ${FORM_LIMITS.fieldSize} bytes` });
        else if (typeof value === 'string' && findUnstorableText(value).length > 0) errors.push({ path, message: UNSTORABLE_TEXT_MESSAGE });
        else if (FORM_LIST_FIELDS.has(name)) addListValue(raw, name, path, value, errors);
        else if (typeof value !== 'string') errors.push({ path, message: 'Must be text' });
        else if (Object.hasOwn(raw, name)) errors.push({ path, message: 'Send this field once' });
        else raw[name] = value;
      }
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_FILES_LIMIT') throw new ValidationError([{ path: '(body)', message: 'Too many files' }]);
      throw multipartError(err);
    }
  }
  if (errors.length > 0) throw new ValidationError(errors);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ValidationError(zodIssuesToFieldErrors(parsed.error.issues));
  return { fields: parsed.data, files };
}

/** A list field: each occurrence one entry, or one occurrence holding a JSON array (text or application/json). */
function addListValue(raw: Record<string, string | string[]>, name: string, path: string, value: unknown, errors: FieldError[]) {
  let entries: unknown[] = [value];
  if (typeof value === 'string' && value.trimStart().startsWith('[')) {
    try {
      entries = JSON.parse(value) as unknown[];
    } catch {
      errors.push({ path, message: 'Must be a JSON array of strings, or one field per entry' });
      return;
    }
  } else if (Array.isArray(value)) entries = value;
  if (!Array.isArray(entries) || entries.some((e) => typeof e !== 'string' || findUnstorableText(e).length > 0)) {
    errors.push({ path, message: 'Must be a list of strings' });
    return;
  }
  const list = (raw[name] ??= []) as string[];
  list.push(...(entries as string[]));
}

/**
 * A form whose one file is `image` (groups, items, a category's image): read and checked, then the
 * image (if sent) stored. Returns the fields and the stored image's file id, or null.
 */
export async function readImageForm<S extends z.ZodType>(
  request: FastifyRequest,
  schema: S,
): Promise<{ fields: z.output<S>; image: string | null }> {
  const { fields, files } = await readMenuForm(request, schema, IMAGE_FILE_FIELDS);
  return { fields, image: await storeFormImage(request, files, 'image') };
}

/** Stores the form's image in `field` (if sent) and returns its file id, or null. */
export async function storeFormImage(request: FastifyRequest, files: Map<string, ImageUpload>, field: string): Promise<string | null> {
  const upload = files.get(field);
  if (!upload) return null;
  return storeMenuImage(request.server.ctx, request.principal.accountId, field, upload);
}
