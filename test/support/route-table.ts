/**
 * The api's routes as tests see them: the app's own route table (`app.routeTable`, filled by an
 * onRoute hook) joined with the served OpenAPI document, so a route added later is fuzzed and put
 * through the tenancy and scope matrices without being listed anywhere. Also: the documented error
 * shapes, and fast-check arbitraries for valid, boundary and hostile requests.
 */
import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { API_PREFIX } from '#api/prefix.js';
import { pathResources } from '#api/schemas.js';
import type { AuthRequirement } from '#api/types.js';
import type { RouteEntry } from '#platform/http/route-table.js';
import type { z } from 'zod';
import { ERROR_CODES } from '#domain/errors.js';
import { linkBodySchema, patchLinkBodySchema } from '#api/routes/links/schemas.js';

export type JsonSchema = Record<string, unknown>;

export interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; required?: boolean; schema: JsonSchema }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
}

export interface ApiRoute {
  method: string;
  /** Fastify's pattern, e.g. `/api/v1/links/:id/qr`. */
  url: string;
  auth: AuthRequirement | undefined;
  /** Path parameter names in order. */
  params: string[];
  /** The resource its path names ("Link"), from the params schema's `resourceParams` registration. */
  notFound: string | undefined;
  /** `'empty-data'` where an id that is not the caller's answers 200 with empty data (analytics), not the 404. */
  unknownId: 'empty-data' | undefined;
  operation: OpenApiOperation | undefined;
  /** The JSON body's schema, when the route documents one. */
  jsonBody: JsonSchema | undefined;
  multipart: boolean;
  entry: RouteEntry;
}

/** Every route under /api/v1 except the documentation's own, with what tests need to drive it. */
export async function apiRoutes(app: FastifyInstance): Promise<ApiRoute[]> {
  const res = await app.inject({ method: 'GET', url: `${API_PREFIX}/docs/json` });
  if (res.statusCode !== 200) throw new Error(`OpenAPI document: ${res.statusCode}`);
  const doc = res.json<{ paths: Record<string, Record<string, OpenApiOperation>> }>();
  return app.routeTable
    .filter((r) => r.url.startsWith(`${API_PREFIX}/`) && !r.schema?.hide)
    .map((entry) => {
      const openApiPath = entry.url.replace(/:(\w+)/g, '{$1}');
      // HEAD routes are Fastify's copies of GET routes and documented as the GET.
      const operation = doc.paths[openApiPath]?.[entry.method === 'HEAD' ? 'get' : entry.method.toLowerCase()];
      const content = operation?.requestBody?.content ?? {};
      const paramsSchema = entry.schema?.params as z.ZodType | undefined;
      return {
        method: entry.method,
        url: entry.url,
        auth: entry.config.auth,
        params: [...entry.url.matchAll(/:(\w+)/g)].map((m) => m[1]!),
        notFound: paramsSchema ? pathResources.get(paramsSchema)?.notFound : undefined,
        unknownId: paramsSchema ? pathResources.get(paramsSchema)?.unknownId : undefined,
        operation,
        jsonBody: content['application/json']?.schema,
        multipart: 'multipart/form-data' in content,
        entry,
      };
    });
}

/** `/api/v1/links/:id/qr` with `{id: 'abc'}` → `/api/v1/links/abc/qr` (values percent-encoded). */
export function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? 'x'));
}

export const routeName = (r: Pick<ApiRoute, 'method' | 'url'>) => `${r.method} ${r.url}`;

// ---------------------------------------------------------------------------------------------
// The documented answers

const ERROR_STATUSES = new Set([400, 401, 403, 404, 409, 413, 414, 415, 429]);
/** Internal codes, stack frames, our file paths and SQL: none may reach a client in an error. */
const INTERNALS = [
  /\bFST_[A-Z_]+/,
  /\bERR_[A-Z_]+/,
  /\bHPE_[A-Z_]+/,
  /\n\s+at /,
  /\bat [\w$.<>]+ \(/,
  /(?:\/work\/|node_modules|\.ts:\d+|\.js:\d+)/,
  /\b(?:select|insert into|update|delete from)\b[\s\S]*\b(?:from|where|values|set)\b/i,
  /syntax error at or near|violates .* constraint|relation "|invalid byte sequence|unsupported Unicode escape/i,
];

/**
 * What is wrong with an answer, or null: never a 5xx; an error answers in its documented shape
 * (a `code` of ERROR_CODES whose status is the answer's; 400 `{code, message: "Validation failed",
 * errors: [{path, message}]}` with non-empty strings, other 4xx `{code, message}`, 429 with
 * Retry-After) and names no internals. Paths are left out of the internals
 * check: they echo the client's own keys.
 */
export function answerProblem(res: LightMyRequestResponse, method: string): string | null {
  const status = res.statusCode;
  if (status >= 500) return `status ${status}: ${res.body.slice(0, 300)}`;
  if (status < 400) return null;
  if (!ERROR_STATUSES.has(status)) return `undocumented status ${status}: ${res.body.slice(0, 300)}`;
  if (method === 'HEAD') return null;
  if (!/^application\/json/.test(String(res.headers['content-type']))) return `error ${status} is not JSON: ${res.headers['content-type']}`;
  let body: { code?: unknown; message?: unknown; errors?: unknown };
  try {
    body = res.json();
  } catch {
    return `error ${status} body is not JSON: ${res.body.slice(0, 200)}`;
  }
  if (typeof body.code !== 'string' || !Object.hasOwn(ERROR_CODES, body.code))
    return `error ${status} without a known code: ${res.body.slice(0, 200)}`;
  if (ERROR_CODES[body.code as keyof typeof ERROR_CODES] !== status) return `error ${status} with the code of another status: ${body.code}`;
  if (typeof body.message !== 'string' || body.message === '') return `error ${status} without a message: ${res.body.slice(0, 200)}`;
  const messages = [body.message];
  if (status === 400) {
    if (body.message !== 'Validation failed') return `400 message is ${JSON.stringify(body.message)}`;
    const errors = body.errors;
    if (!Array.isArray(errors) || errors.length === 0) return `400 without errors: ${res.body.slice(0, 200)}`;
    for (const e of errors as Array<Record<string, unknown>>) {
      const keys = Object.keys(e).sort().join(',');
      if (keys !== 'message,path' || typeof e.path !== 'string' || e.path === '' || typeof e.message !== 'string' || e.message === '') {
        return `400 error entry not {path, message}: ${JSON.stringify(e).slice(0, 200)}`;
      }
      messages.push(e.message);
    }
  } else {
    const extra = Object.keys(body).filter((k) => k !== 'code' && k !== 'message' && !(status === 409 && k === 'errors'));
    if (extra.length > 0) return `error ${status} has members ${extra.join(', ')}: ${res.body.slice(0, 200)}`;
  }
  if (status === 429 && !res.headers['retry-after']) return '429 without Retry-After';
  const text = messages.join('\n');
  const leak = INTERNALS.find((re) => re.test(text));
  return leak ? `error ${status} names internals (${leak}): ${text.slice(0, 300)}` : null;
}

// ---------------------------------------------------------------------------------------------
// Values

/**
 * Tokens a generated value may carry, replaced in the JSON text after serialising: numbers and
 * keys JSON can carry but JavaScript cannot build (`-0`, `1e400`), and nesting too deep to build.
 */
const RAW_TOKENS: Record<string, string> = {
  '"\u0001neg0\u0001"': '-0',
  '"\u0001huge\u0001"': '1e400',
  '"\u0001tiny\u0001"': '-1e400',
  '"\u0001long-int\u0001"': '123456789012345678901234567890',
  '"\u0001deep-array\u0001"': `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  '"\u0001deep-object\u0001"': `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`,
};
export const rawToken = (name: 'neg0' | 'huge' | 'tiny' | 'long-int' | 'deep-array' | 'deep-object') => `\u0001${name}\u0001`;

/** JSON text of a generated value, with the raw tokens put in. */
export function toJsonText(value: unknown): string {
  let text = JSON.stringify(value) ?? 'null';
  for (const [token, raw] of Object.entries(RAW_TOKENS)) if (text.includes(token)) text = text.split(token).join(raw);
  return text;
}

const MB = 1024 * 1024;

/** A 1 MiB string: past the body limit as JSON, and past any field's length. */
export const megabyteString = 'm'.repeat(MB);

/** Strings that have broken services: NUL, lone surrogates, huge, non-ASCII, injection, number-ish. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udfff',
    '\udc00\ud800',
    '',
    ' ',
    '\t\r\n',
    '日本語',
    '😀',
    '\u202eevil',
    '../../etc/passwd',
    '%00',
    '%ZZ',
    '<script>alert(1)</script>',
    "'; drop table links; --",
    'NaN',
    'Infinity',
    '-0',
    '1e309',
    '-1',
    '9007199254740993',
    '__proto__',
    'constructor',
    'prototype',
    'https://例え.jp/パス?q=ü',
    'https://example.com/😀',
    'javascript:alert(1)',
    'data:text/html,<b>x</b>',
    'true',
    'null',
    '00000000-0000-0000-0000-000000000000',
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: fc.constantFrom('\u0000', '\ud800', 'a', 'é', '😀', '%', '/'), maxLength: 12 }),
  fc.constantFrom(2000, 70_000).map((n) => 'x'.repeat(n)),
);

export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -1, 1, 0.5, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1, 4097, 15),
  fc.constantFrom(rawToken('neg0'), rawToken('huge'), rawToken('tiny'), rawToken('long-int')),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any value in a place that expects something else: wrong types, prototype keys, deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [[[]]], [null], { '': 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(rawToken('deep-array'), rawToken('deep-object')) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      JSON.parse('{"__proto__":{"polluted":true}}'),
      JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
      { prototype: 1, toString: 'x', valueOf: 1, hasOwnProperty: 2 },
    ),
  },
  { weight: 1, arbitrary: fc.integer({ min: 1001, max: 3000 }).map((n) => Array.from({ length: n }, (_, i) => [1, 'a', null][i % 3])) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constant(megabyteString) },
);

/**
 * Values a JSON schema describes (bounded in size), so requests get past the first checks and into
 * the routes' own rules. `nullable`, enums, formats and bounds are followed; patterns are not.
 */
export function fromSchema(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return fc.constantFrom(null, 'x', 1);
  const s = schema;
  const arbs: fc.Arbitrary<unknown>[] = [];
  if (s.nullable) arbs.push(fc.constant(null));
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.oneof(...arbs, fc.constantFrom(...(s.enum as unknown[])));
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(s[key])) return fc.oneof(...arbs, ...(s[key] as JsonSchema[]).map((x) => fromSchema(x, depth + 1)));
  }
  if (Array.isArray(s.allOf)) return fromSchema((s.allOf as JsonSchema[])[0], depth + 1);
  const types = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : [];
  if (types.length === 0) return fc.oneof(...arbs, fc.jsonValue({ maxDepth: 2 }));
  for (const type of types) {
    switch (type) {
      case 'null':
        arbs.push(fc.constant(null));
        break;
      case 'boolean':
        arbs.push(fc.boolean());
        break;
      case 'integer':
        arbs.push(fc.integer({ min: num(s.minimum, -1e6), max: num(s.maximum, 1e6) }));
        break;
      case 'number':
        arbs.push(fc.double({ min: num(s.minimum, -1e6), max: num(s.maximum, 1e6), noNaN: true }));
        break;
      case 'string':
        arbs.push(stringFor(s));
        break;
      case 'array':
        arbs.push(
          fc.array(fromSchema(s.items as JsonSchema, depth + 1), {
            minLength: num(s.minItems, 0),
            maxLength: Math.max(num(s.minItems, 0), Math.min(num(s.maxItems, 3), 3)),
          }),
        );
        break;
      case 'object': {
        const props = (s.properties ?? {}) as Record<string, JsonSchema>;
        const required = (s.required ?? []) as string[];
        const shape = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fromSchema(v, depth + 1)]));
        arbs.push(
          Object.keys(shape).length > 0
            ? fc.record(shape, { requiredKeys: required.filter((k) => k in shape) })
            : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
        );
        break;
      }
    }
  }
  return arbs.length > 0 ? fc.oneof(...arbs) : fc.constant(null);
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

function stringFor(s: JsonSchema): fc.Arbitrary<string> {
  switch (s.format) {
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
    case 'uri':
      return fc.webUrl();
    case 'email':
      return fc.emailAddress();
  }
  const min = num(s.minLength, 0);
  return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(num(s.maxLength, 24), 24)) });
}

/** Every path of leaves and members in a JSON value (arrays by index), root first. */
export function pathsOf(value: unknown): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [[]];
  const walk = (v: unknown, path: Array<string | number>) => {
    if (Array.isArray(v)) v.forEach((x, i) => (out.push([...path, i]), walk(x, [...path, i])));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.push([...path, k]), walk(x, [...path, k]));
  };
  walk(value, []);
  return out;
}

export interface Mutation {
  pick: number;
  action: 'replace' | 'delete' | 'add';
  key: string;
  value: unknown;
}

export const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  pick: fc.nat(),
  action: fc.constantFrom('replace', 'replace', 'delete', 'add'),
  key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'x', 'a\u0000', '\ud800', ''), fc.string({ maxLength: 6 })),
  value: hostileValue,
});

/** Applies mutations to a copy of `seed` (a JSON value). */
export function mutate(seed: unknown, mutations: Mutation[]): unknown {
  // Copies through JSON: generated constants are shared between runs, and an own `__proto__`
  // member survives (JSON.parse makes it an own property).
  const copy = (v: unknown) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
  let root = copy(seed);
  for (const original of mutations) {
    const m = { ...original, value: copy(original.value) };
    const paths = pathsOf(root);
    const path = paths[m.pick % paths.length]!;
    if (path.length === 0) {
      if (m.action === 'replace') root = m.value;
      else if (m.action === 'add' && root && typeof root === 'object' && !Array.isArray(root))
        define(root as Record<string, unknown>, m.key, m.value);
      continue;
    }
    const parent = path.slice(0, -1).reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root) as Record<
      string | number,
      unknown
    >;
    const last = path[path.length - 1]!;
    if (m.action === 'replace') parent[last] = m.value;
    else if (m.action === 'delete') {
      if (Array.isArray(parent)) parent.splice(Number(last), 1);
      else delete parent[last];
    } else {
      const target = parent[last];
      if (target && typeof target === 'object' && !Array.isArray(target)) define(target as Record<string, unknown>, m.key, m.value);
      else parent[last] = { [m.key]: m.value };
    }
  }
  return root;
}

/** An own property even for `__proto__`, as JSON.parse makes it. */
function define(obj: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

// ---------------------------------------------------------------------------------------------
// Real resources of every kind

/** One account's real resources, by the name its 404 uses ("Link", "Folder", …), plus its files. */
export type Resources = Record<string, string[]>;

/**
 * Makes real resources of every kind in `account` through the api (jobs, which no route creates,
 * as the job service writes them): a folder, a template, links of every type with real files, an
 * uploaded image and PDF, a cafe, a brand domain, a spare API key and a job. `spareKeyOnly`: the API key listed is never
 * one a test sends with.
 */
export async function createResources(app: FastifyInstance, account: { accountId: string; key: string }): Promise<Resources> {
  const { call } = await import('./harness.js');
  const { uploadFile, pngBytes, pdfBytes } = await import('./fixtures.js');
  const { exampleData } = await import('./link-examples.js');
  const { LINK_TYPES } = await import('#domain/links/data/index.js');
  const { jobs } = await import('#domain/schema.js');
  const ok = async (res: LightMyRequestResponse, what: string) => {
    if (res.statusCode !== 200) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const images = [
    (await uploadFile(app, account.key, pngBytes(4, 4), 'a.png')).fileId,
    (await uploadFile(app, account.key, pngBytes(3, 3), 'b.png')).fileId,
  ];
  const pdfs = [
    (await uploadFile(app, account.key, pdfBytes('a'), 'a.pdf')).fileId,
    (await uploadFile(app, account.key, pdfBytes('b'), 'b.pdf')).fileId,
  ];
  const folder = await ok(await call(app, account.key, 'POST', `${API_PREFIX}/folders`, { name: 'tenant folder' }), 'folder');
  const template = await ok(
    await call(app, account.key, 'POST', `${API_PREFIX}/templates`, { name: 'tenant template', qrOptions: {} }),
    'template',
  );
  const utmTemplate = await ok(
    await call(app, account.key, 'POST', `${API_PREFIX}/utm-templates`, { name: 'tenant utm', utm: { source: 'print' } }),
    'utm template',
  );
  const links: string[] = [];
  for (const type of LINK_TYPES) {
    // Files belong to one link each, so every file-bearing link gets fresh uploads.
    const files = {
      images: [
        (await uploadFile(app, account.key, pngBytes(2, 2), 'p.png')).fileId,
        (await uploadFile(app, account.key, pngBytes(2, 3), 'q.png')).fileId,
      ],
      pdfs: [
        (await uploadFile(app, account.key, pdfBytes(type), 'p.pdf')).fileId,
        (await uploadFile(app, account.key, pdfBytes(`${type}2`), 'q.pdf')).fileId,
      ],
    };
    const body = { name: `tenant ${type}`, type, data: exampleData(type, files), linkConfigurations: { folder_id: folder.id } };
    links.push((await ok(await call(app, account.key, 'POST', `${API_PREFIX}/links`, body), `link ${type}`)).id);
  }
  const cafe = (await ok(await call(app, account.key, 'POST', `${API_PREFIX}/cafes`, { name: 'tenant cafe' }), 'cafe')).data;
  const spare = await ok(
    await call(app, account.key, 'POST', `${API_PREFIX}/api-keys`, { name: 'spare', scopes: ['links.read'] }),
    'api key',
  );
  const domain = await call(app, account.key, 'POST', `${API_PREFIX}/domains`, { hostname: `tenant-${account.accountId}.example` });
  if (domain.statusCode !== 201) throw new Error(`domain: ${domain.statusCode} ${domain.body}`);
  // A webhook to a loopback port nothing listens on (the test environment allows loopback), and
  // the delivery its test event made.
  const webhook = await call(app, account.key, 'POST', `${API_PREFIX}/webhooks`, {
    url: 'http://127.0.0.1:2/tenant-hook',
    events: ['link.created'],
  });
  if (webhook.statusCode !== 201) throw new Error(`webhook: ${webhook.statusCode} ${webhook.body}`);
  const delivery = await call(app, account.key, 'POST', `${API_PREFIX}/webhooks/${webhook.json().id}/test`);
  if (delivery.statusCode !== 200 && delivery.statusCode !== 202) throw new Error(`delivery: ${delivery.statusCode} ${delivery.body}`);
  const [job] = await app.ctx.db.insert(jobs).values({ id: crypto.randomUUID(), accountId: account.accountId, type: 'export' }).returning();
  return {
    Link: links,
    Folder: [folder.id],
    Template: [template.id],
    'UTM template': [utmTemplate.data.id],
    'API key': [spare.id],
    Job: [job!.id],
    File: [...images, ...pdfs],
    Cafe: [cafe.id],
    Domain: [domain.json().id],
    Webhook: [webhook.json().id],
    Delivery: [delivery.json().data.id],
  };
}

/** Percent-encodes any string, lone surrogates included (as the bytes WTF-8 gives them). */
export function encodeLoose(s: string): string {
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

/**
 * The plainest value a JSON schema accepts, built from its required members only: what a route
 * needs to get past validation when a test is about something else (tenancy). Not a generator.
 */
export function minimalFromSchema(schema: JsonSchema | undefined): unknown {
  if (!schema) return undefined;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(schema[key])) return minimalFromSchema((schema[key] as JsonSchema[])[0]);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(((schema.required ?? []) as string[]).map((k) => [k, minimalFromSchema(props[k])]));
    }
    case 'array':
      return Array.from({ length: num(schema.minItems, 0) }, () => minimalFromSchema(schema.items as JsonSchema));
    case 'string':
      // A text with a format of its own (a currency code) documents an example that passes.
      if (typeof schema.example === 'string') return schema.example;
      if (Array.isArray(schema.examples) && typeof schema.examples[0] === 'string') return schema.examples[0];
      return 'x'.repeat(Math.max(1, num(schema.minLength, 1)));
    case 'integer':
    case 'number':
      return num(schema.minimum, 0);
    case 'boolean':
      return false;
    default:
      return null;
  }
}

/** A body that passes the route's validation, so its answer is about the path, not the body. */
export function validBody(route: ApiRoute): unknown {
  if (route.entry.schema?.body === linkBodySchema) return { name: 'a link', type: 'website', data: { url: 'https://example.com/' } };
  // Every member is optional, but one must be there.
  if (route.entry.schema?.body === patchLinkBodySchema) return { queryPolicy: 'drop' };
  return route.jsonBody ? minimalFromSchema(route.jsonBody) : undefined;
}
