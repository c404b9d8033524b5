/**
 * The error answers every /api/v1 operation can give, added to its OpenAPI entry from what the
 * route is: any route can be rate limited (429) or meet Postgres unreachable (503); one with a key requirement answers 401, and 403
 * when it needs a particular scope; one with inputs answers 400; one with path ids 404; one with a
 * body 413 (past the body or file limit) and 415 (another content type). A route's own
 * `errorResponses(...)` (409, 503, a more precise description) wins. Documentation only: the
 * bodies themselves come from the error handler (api/plugins/app/errors.ts), in these shapes:
 * `{code, message, ...}`, `code` one of the status's ERROR_CODES (domain/errors.ts).
 */
import type { FastifySchema, RouteOptions } from 'fastify';
import { errorCodesOf, MAX_LISTED_ERRORS } from '#domain/errors.js';
import { ERROR_CODE_DESCRIPTION, ERROR_DESCRIPTIONS } from './schemas.js';
import { API_PREFIX } from './prefix.js';
import type { AuthRequirement } from './types.js';

type JsonSchema = Record<string, unknown>;

const messageBody = (status: number, description: string): JsonSchema => ({
  description,
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          code: { type: 'string', enum: errorCodesOf(status), description: ERROR_CODE_DESCRIPTION },
          message: { type: 'string' },
        },
        required: ['code', 'message'],
        additionalProperties: false,
      },
    },
  },
});

const validationBody: JsonSchema = {
  description: 'The request is invalid; each entry names a field',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        properties: {
          code: { type: 'string', enum: errorCodesOf(400), description: ERROR_CODE_DESCRIPTION },
          message: { type: 'string', enum: ['Validation failed'] },
          errors: {
            type: 'array',
            minItems: 1,
            maxItems: MAX_LISTED_ERRORS,
            description: `Each entry names a field; at most ${MAX_LISTED_ERRORS}, in the order found`,
            items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } }, required: ['path', 'message'] },
          },
          omittedErrors: {
            type: 'integer',
            minimum: 1,
            description: `Present when there are more than ${MAX_LISTED_ERRORS} errors: how many are not listed`,
          },
        },
        required: ['code', 'message', 'errors'],
      },
    },
  },
};

/** The error status codes a route documents, from its schema and its key requirement. */
export function routeErrorCodes(schema: FastifySchema | undefined, auth: AuthRequirement | undefined): number[] {
  const codes = new Set<number>([429, 503]);
  if (schema?.params || schema?.querystring || schema?.body || (schema as { consumes?: unknown } | undefined)?.consumes) codes.add(400);
  // A public route too: signing in is refused with a 401, another site's attempt with a 403.
  if (auth) codes.add(401);
  if (auth && (auth.scope !== 'any' || auth.role)) codes.add(403);
  if (schema?.params) codes.add(404);
  if (schema?.body || (schema as { consumes?: unknown } | undefined)?.consumes) {
    codes.add(413);
    codes.add(415);
  }
  return [...codes].sort();
}

interface TransformInput {
  url: string;
  schema: FastifySchema;
  route?: RouteOptions;
}

export function withErrorResponses<T extends { schema: unknown; url: string }>(input: TransformInput, out: T): T {
  const schema = out.schema as FastifySchema & { hide?: boolean; response?: Record<string, unknown> };
  if (!input.url.startsWith(API_PREFIX) || schema.hide) return out;
  const auth = input.route?.config?.auth;
  const response: Record<string, unknown> = {};
  for (const code of routeErrorCodes(input.schema, auth)) {
    response[code] = code === 400 ? validationBody : messageBody(code, ERROR_DESCRIPTIONS[code as keyof typeof ERROR_DESCRIPTIONS]);
  }
  return { ...out, schema: { ...schema, response: { ...response, ...schema.response } } };
}
