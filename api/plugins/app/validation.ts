import fp from 'fastify-plugin';
import type { FastifyRequest, FastifySchema, FastifySchemaCompiler } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { formatPath, NotFoundError, ValidationError, type FieldError } from '#domain/errors.js';
import { pathResources } from '../../schemas.js';

/** Carries zod's own issues (with their real paths) to the error handler. */
export class RequestValidationError extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super('Validation failed');
  }
}

export const UNSTORABLE_TEXT_MESSAGE = 'Must not contain NUL characters (\\u0000) or unpaired UTF-16 surrogates';

/** A member's place in a JSON value: linked to its parent, so walking costs no path copies. */
interface Step {
  parent: Step | null;
  key: string | number;
}

function pathOf(step: Step | null): Array<string | number> {
  const path: Array<string | number> = [];
  for (let s = step; s; s = s.parent) path.push(s.key);
  return path.reverse();
}

/**
 * Visits every member of a parsed JSON value (array items and object members, keys included)
 * depth-first and in order, iteratively (a 1 MiB body may nest hundreds of thousands deep) and in
 * time linear in its size. `visit` answers 'skip' to leave a member's inside unvisited, 'stop' to
 * end the walk.
 */
function walkMembers(value: unknown, visit: (member: unknown, parent: Step | null, key: string | number) => 'skip' | 'stop' | void): void {
  const stack: Array<[unknown, Step | null]> = [[value, null]];
  while (stack.length > 0) {
    const [v, step] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const first = stack.length;
    const isArray = Array.isArray(v);
    const keys = isArray ? null : Object.keys(v);
    const count = isArray ? v.length : keys!.length;
    for (let i = 0; i < count; i++) {
      const key = isArray ? i : keys![i]!;
      const member = (v as Record<string | number, unknown>)[key];
      const answer = visit(member, step, key);
      if (answer === 'stop') return;
      if (answer !== 'skip' && member !== null && typeof member === 'object') stack.push([member, { parent: step, key }]);
    }
    // Pushed in order; reversed so they are popped, and visited inside, in order too.
    for (let i = first, j = stack.length - 1; i < j; i++, j--) [stack[i], stack[j]] = [stack[j]!, stack[i]!];
  }
}

/**
 * Where in `value` there is text no Postgres text or jsonb column can hold: a NUL (`\u0000`) or
 * a lone UTF-16 surrogate (`"\ud800"` in JSON), in a string or in an object's key. At most `limit`
 * finds.
 */
export function findUnstorableText(value: unknown, limit = 10): Array<ReadonlyArray<string | number>> {
  if (typeof value === 'string') return isStorableText(value) ? [] : [[]];
  const found: Array<ReadonlyArray<string | number>> = [];
  walkMembers(value, (member, parent, key) => {
    const bad = (typeof key === 'string' && !isStorableText(key)) || (typeof member === 'string' && !isStorableText(member));
    if (!bad) return;
    found.push(pathOf({ parent, key }));
    return found.length >= limit ? 'stop' : 'skip';
  });
  return found;
}

/** In unicode mode a well-formed surrogate pair is one code point, so `\p{Cs}` only meets lone halves. */
const UNSTORABLE = /[\u0000\p{Cs}]/u;

function isStorableText(s: string): boolean {
  return !UNSTORABLE.test(s);
}

/**
 * Before any route's own validation: text Postgres cannot store is refused here, once for every
 * route (and every route added later, with or without schemas), instead of failing the SQL with a
 * 500. Body fields and query parameters are a 400 naming the field; a path parameter names no
 * resource, so it is the resource's 404.
 */
function refuseUnstorableText(request: FastifyRequest): void {
  const inParams = findUnstorableText(request.params, 1);
  if (inParams.length > 0)
    throw paramsError(
      request.routeOptions.schema,
      inParams.map((p) => ({ path: formatPath(p), message: UNSTORABLE_TEXT_MESSAGE })),
    );
  // A body left as bytes (a route that parses its big body in a thread) is checked there.
  const body = Buffer.isBuffer(request.body) ? undefined : request.body;
  const errors = [...findUnstorableText(request.query), ...findUnstorableText(body)].map((path) => ({
    path: formatPath(path) || '(body)',
    message: UNSTORABLE_TEXT_MESSAGE,
  }));
  if (errors.length > 0) throw new ValidationError(errors);
}

/** More members than any object of a request has (a record has a few dozen at most). */
export const MAX_OBJECT_MEMBERS = 1000;
/**
 * Deeper than any body of the API nests (a multi-links logo, the deepest free-form member, is at
 * most 32 levels inside `data`).
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** What an open array counts on the members stack: arrays' commas are not members. */
const IN_ARRAY = -1;

/**
 * A JSON text that nests deeper than MAX_JSON_DEPTH, or has an object of more than
 * MAX_OBJECT_MEMBERS members, is refused before it is parsed. One object of 800,000 members costs
 * seconds to parse, walk and validate (the engine turns it into a dictionary), where the same bytes
 * as small objects cost a tenth of that; a megabyte of `[` is half a million levels for every
 * walker after the parser. One pass over the text, keeping a count of colons for each open object.
 */
export function jsonShapeError(text: string): ValidationError | null {
  if (text.length <= MAX_JSON_DEPTH * 2) return null;
  const open: number[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (open.push(c === OPEN_BRACE ? 0 : IN_ARRAY) > MAX_JSON_DEPTH)
        return new ValidationError([{ path: '(body)', message: `Nested more than ${MAX_JSON_DEPTH} levels deep` }]);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) open.pop();
    else if (c === COLON && open.length > 0 && open[open.length - 1]! !== IN_ARRAY && ++open[open.length - 1]! > MAX_OBJECT_MEMBERS) {
      return new ValidationError([{ path: '(body)', message: `An object has more than ${MAX_OBJECT_MEMBERS} members` }]);
    }
  }
  return null;
}

/**
 * Fastify's JSON parser refuses a `__proto__` key, or a `constructor` key holding a `prototype`
 * (prototype poisoning), and says only that the body is invalid. When the text is valid JSON, this
 * names the key instead, so the client learns the real cause. Runs on that failure path only.
 */
export function prototypeKeyError(text: string): ValidationError | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return prototypeKeyIn(value);
}

/** The first `__proto__` key, or `constructor` key holding a `prototype`, in a parsed JSON value, named. */
export function prototypeKeyIn(value: unknown): ValidationError | null {
  let poisoned: Step | null = null;
  walkMembers(value, (member, parent, key) => {
    const isPoison =
      key === '__proto__' || (key === 'constructor' && member !== null && typeof member === 'object' && Object.hasOwn(member, 'prototype'));
    if (!isPoison) return;
    poisoned = { parent, key };
    return 'stop';
  });
  return poisoned ? new ValidationError([{ path: formatPath(pathOf(poisoned)), message: 'Field name not allowed' }]) : null;
}

/** A path parameter that cannot name anything: the route's resource 404, or a 400 naming it. */
function paramsError(schema: FastifySchema | undefined, errors: FieldError[]): Error {
  const resource = schema?.params ? pathResources.get(schema.params as z.ZodType) : undefined;
  return resource && !resource.unknownId ? new NotFoundError(resource.notFound) : new ValidationError(errors);
}

const validatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const found = httpPart === 'params' ? pathResources.get(schema) : undefined;
  const resource = found?.unknownId ? undefined : found;
  return (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: resource ? new NotFoundError(resource.notFound) : new RequestValidationError(result.error.issues) };
  };
};

/**
 * For a route whose handler checks its own body (one that also takes a multipart form, or answers
 * a validation report instead of a 400): its body schema documents the JSON form and is not applied
 * here; params, query and headers are validated as everywhere.
 */
// `any`: a route-level compiler is typed by the route's whole schema object, not by one part's schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const bodyCheckedByHandler: FastifySchemaCompiler<any> = (route) =>
  route.httpPart === 'body' ? (data) => ({ value: data }) : validatorCompiler(route);

/** Zod schemas validate requests and describe responses; one schema serves both and the OpenAPI document. */
export default fp(async (app) => {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('preValidation', async (request) => refuseUnstorableText(request));
});
