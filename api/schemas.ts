/**
 * Schemas shared by several routes. A resource's response schemas live beside its routes
 * (api/routes/<area>/schemas.ts); request schemas that are domain rules live in domain/.
 */
import { z } from 'zod';
import { errorCodesOf, fieldErrorListShape, type ErrorCode, type Resource } from '#domain/errors.js';

/**
 * What a route's path parameters name. A params schema registered here makes every path that
 * cannot name such a resource (a failed params check, or text no resource can hold) that
 * resource's 404, e.g. "Link not found", never a 400 or a 500 (api/plugins/app/validation.ts).
 * Tests read it too, to know the 404 each route answers for another account's ids. A registry of
 * our own, not zod's global one, so none of it leaks into the OpenAPI document.
 */
export const pathResources = z.registry<PathResource>();

export interface PathResource {
  notFound: Resource;
  /**
   * `'empty-data'`: an id that is not one of the caller's resources is answered 200 with empty data
   * instead of the 404 (analytics: no scans is not an error). Only text no id can hold (NUL, lone
   * surrogates) is refused, as a 400 naming the parameter.
   */
  unknownId?: 'empty-data';
}

/**
 * A path id longer than this names no resource (ours are UUIDs, and slugs of at most 64
 * characters): the route's 404 without a look-up. The router passes ids of any length up to
 * Node's header limit (api/app.ts), so a long id is answered like any other unknown one.
 */
const PATH_ID_MAX_LENGTH = 200;

/** `{ [param]: string }` naming a `thing` ("Folder", "Link"); see `pathResources`. */
export function resourceParams<const K extends string>(param: K, thing: Resource, description?: string, unknownId?: 'empty-data') {
  // An unknown id of any length is empty data there, found so by the handler's look-up.
  const id = unknownId ? z.string() : z.string().max(PATH_ID_MAX_LENGTH);
  const schema = z.object({ [param]: description ? id.describe(description) : id } as Record<K, typeof id>);
  pathResources.add(schema, unknownId ? { notFound: thing, unknownId } : { notFound: thing });
  return schema;
}

/**
 * A nested path (`/cafes/:id/groups/:groupId`): every parameter a string, and the path as a whole
 * registered as naming `thing`, the outer resource, which is checked first (another account's
 * cafe is "Cafe not found" whatever the inner ids are); the handler answers the inner resource's
 * 404 for an inner id that is not in it, of any length (only the outer id is `thing`'s).
 */
export function nestedResourceParams<const K extends string>(params: readonly [K, ...K[]], thing: Resource) {
  const [outer] = params;
  const schema = z.object(
    Object.fromEntries(params.map((p) => [p, p === outer ? z.string().max(PATH_ID_MAX_LENGTH) : z.string()])) as Record<K, z.ZodString>,
  );
  pathResources.add(schema, { notFound: thing });
  return schema;
}

export const messageResponse = z.object({ message: z.string() });

/** What the OpenAPI document says of every error answer's `code`. */
export const ERROR_CODE_DESCRIPTION = 'Why the request was refused; stable, for clients to match on (the message may change)';

/** The `code` of an error answer of `status`: one of ERROR_CODES (domain/errors.ts), named by reason. */
function errorCodeSchema(status: number) {
  const codes = errorCodesOf(status);
  return z.enum(codes as [ErrorCode, ...ErrorCode[]]).meta({ description: ERROR_CODE_DESCRIPTION });
}

/** An error answer other than a 400: `{code, message}`. */
function errorResponse(status: number) {
  return z.object({ code: errorCodeSchema(status), message: z.string() });
}

/** What every paged list answers beside its `data` (the page parameters are `pageQuery`, below). */
export const pageMeta = z.object({ currentPage: z.number(), totalPages: z.number() });

export const validationErrorResponse = z
  .object({
    code: errorCodeSchema(400),
    message: z.literal('Validation failed'),
    ...fieldErrorListShape,
    errors: fieldErrorListShape.errors.min(1),
  })
  .describe('The request is invalid; each entry names a field');

export const ERROR_DESCRIPTIONS = {
  401: 'No key, an unknown, revoked or expired key (`unauthorized`), or a plan without the feature (`plan_feature_unavailable`)',
  403: 'The key lacks the scope this endpoint needs',
  404: 'The resource is not one of the account’s',
  409: 'The resource is not in a state that allows this',
  413: 'A file larger than FILE_SIZE_LIMIT_BYTES, or new bytes past the plan’s storage quota (for an export: its job files at their quota)',
  415: 'A file that is not an image we accept (PNG, JPEG, WebP, GIF, SVG), or a body of another content type',
  429: 'Past the per-key rate limit, too many failed authentications from this address, or (a route that queues a job) JOB_ACCOUNT_QUEUE of the account’s jobs of its kind waiting already (see Retry-After)',
  503: 'The service could not do this now (see Retry-After)',
} as const;

type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/** The documented error answers of a route: 400 `{code, message, errors}`, every other one `{code, message}`. */
export function errorResponses<const C extends ErrorStatus>(...codes: C[]) {
  const out: Record<number, z.ZodType> = { 400: validationErrorResponse };
  for (const code of codes) out[code] = errorResponse(code).describe(ERROR_DESCRIPTIONS[code]);
  return out as { 400: typeof validationErrorResponse } & Record<C, ReturnType<typeof errorResponse>>;
}

/** The API's page parameters: `page` from 1, `size` from 1 to 1000 (default 20); lists answer `meta: pageMeta`. */
export const pageQuery = {
  page: z.coerce
    .number({ error: 'Must be a whole number >= 1' })
    .int('Must be a whole number >= 1')
    .min(1, 'Must be a whole number >= 1')
    .default(1),
  size: z.coerce
    .number({ error: 'Must be a whole number from 1 to 1000' })
    .int('Must be a whole number from 1 to 1000')
    .min(1, 'Must be a whole number from 1 to 1000')
    .max(1000, 'Must be a whole number from 1 to 1000')
    .default(20),
};
