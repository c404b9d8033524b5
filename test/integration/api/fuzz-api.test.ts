/**
 * Property: whatever a client sends to any api route, the answer is never a 5xx, an error is in
 * its documented shape and names no internals, and the process keeps answering. Routes come from
 * the app's own route table and OpenAPI document (test/support/route-table.ts), so a new route is
 * fuzzed the day it is added.
 *
 * Reproducible: FUZZ_SEED (printed on every run) and FUZZ_RUNS. `npm test` runs a bounded slice
 * with a fixed seed; `npm run fuzz` a longer run with a fresh seed, e.g.
 * `FUZZ_RUNS=20000 FUZZ_SEED=42 npm run fuzz`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PREFIX } from '#api/prefix.js';
import { SCOPES } from '#domain/accounts/scopes.js';
import { LINK_TYPES } from '#domain/links/data/index.js';
import { linkBodySchema } from '#api/routes/links/schemas.js';
import { multipart, pdfBytes, pngBytes } from '../../support/fixtures.js';
import { startWorkers, type RunningWorkers } from '#workers/index.js';
import { addKey, call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { exampleData } from '../../support/link-examples.js';
import {
  answerProblem,
  apiRoutes,
  createResources,
  encodeLoose,
  fromSchema,
  hostileString,
  hostileValue,
  megabyteString,
  mutate,
  mutationArb,
  routeName,
  toJsonText,
  type ApiRoute,
  type Mutation,
  type Resources,
} from '../../support/route-table.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

let api: TestApi;
let workers: RunningWorkers;
let me: TestAccount;
let other: TestAccount;
let routes: ApiRoute[];
let mine: Resources;
let theirs: Resources;
let keys: Array<string | null>;

beforeAll(async () => {
  // Exports run on a worker of their own here; a job that somehow stalls costs a request 5 s, not 30.
  api = await startTestApi({ JOB_WAIT_MS: '5000' });
  workers = await startWorkers(api.ctx);
  me = await createTestAccount(api.ctx, { plan: 'pro' });
  other = await createTestAccount(api.ctx, { plan: 'pro' });
  routes = await apiRoutes(api.app);
  mine = await createResources(api.app, me);
  theirs = await createResources(api.app, other);
  const starter = await createTestAccount(api.ctx, { plan: 'starter' });
  keys = [
    me.key,
    ...(await Promise.all(SCOPES.filter((s) => s !== 'all').map(async (s) => (await addKey(api.ctx, me.accountId, [s])).key))),
    starter.key,
    null,
    'key-doesnotexist0000000000000000000',
    'not a key',
  ];
}, 180_000);
afterAll(async () => {
  await workers?.close();
  await api?.close();
});

interface FuzzRequest {
  route: ApiRoute;
  key: string | null;
  path: string;
  query: string;
  payload?: string | Buffer;
  contentType?: string;
}

function describeRequest(r: FuzzRequest): string {
  const body =
    r.payload === undefined
      ? ''
      : ` body(${r.contentType}) ${String(r.payload).slice(0, 160)}${String(r.payload).length > 160 ? `… (${r.payload.length} chars)` : ''}`;
  return `${r.route.method} ${r.path.slice(0, 200)}${r.query.slice(0, 200)} key=${r.key === me.key ? 'all' : r.key ? `${r.key.slice(0, 8)}…` : 'none'}${body}`;
}

function requestArb(): fc.Arbitrary<FuzzRequest> {
  const allIds = [...Object.values(mine).flat(), ...Object.values(theirs).flat()];
  const idValue = fc.constantFrom(...allIds);
  const value = fc.oneof({ weight: 5, arbitrary: hostileValue }, { weight: 1, arbitrary: idValue });
  const mutations: fc.Arbitrary<Mutation[]> = fc.oneof(
    { weight: 2, arbitrary: fc.constant<Mutation[]>([]) },
    {
      weight: 3,
      arbitrary: fc.array(
        mutationArb.chain((m) => value.map((v) => ({ ...m, value: v }))),
        { minLength: 1, maxLength: 3 },
      ),
    },
  );
  return fc.constantFrom(...routes).chain((route) => {
    const pathValue = (name: string) => {
      const resource = route.notFound ?? '';
      const real = [...(mine[resource] ?? []), ...(theirs[resource] ?? [])];
      return fc
        .oneof(
          { weight: 3, arbitrary: real.length ? fc.constantFrom(...real).map(encodeURIComponent) : fc.constant('x') },
          { weight: 2, arbitrary: hostileString.map(encodeLoose) },
          {
            weight: 1,
            arbitrary: fc.constantFrom('%ZZ', '%', '..', '%2F', '%2e%2e', 'a%00b', '%ED%A0%80', 'x'.repeat(101), '%F0%9F%98%80'),
          },
        )
        .map((v) => [name, v] as const);
    };
    const queryParams = (route.operation?.parameters ?? []).filter((p) => p.in === 'query');
    const queryArb = fc
      .tuple(
        fc.tuple(
          ...queryParams.map((p) =>
            fc.option(fc.oneof(fromSchema(p.schema).map(String), hostileString), { nil: undefined }).map((v) => [p.name, v] as const),
          ),
        ),
        fc.option(fc.tuple(fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'size', 'page')), hostileString), {
          nil: undefined,
        }),
      )
      .map(([known, extra]) => {
        const pairs = [...known, ...(extra ? [extra] : [])].filter((p): p is readonly [string, string] => p[1] !== undefined);
        return pairs.length ? `?${pairs.map(([k, v]) => `${encodeLoose(k)}=${encodeLoose(v)}`).join('&')}` : '';
      });
    const body = bodyArb(route, mutations);
    return fc
      .record({
        params: fc.tuple(...route.params.map(pathValue)),
        query: queryArb,
        // Mostly the all-scopes key, so requests get past auth into validation and the handlers.
        key: fc.oneof({ weight: 3, arbitrary: fc.constant(me.key) }, { weight: 1, arbitrary: fc.constantFrom(...keys) }),
        body,
      })
      .map(({ params, query, key, body }) => {
        const values = Object.fromEntries(params);
        const path = route.url.replace(/:(\w+)/g, (_m, name: string) => values[name] ?? 'x');
        return { route, key, path, query, ...body };
      });
  });
}

const OTHER_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/xml',
  'multipart/form-data; boundary=zz',
];

function bodyArb(route: ApiRoute, mutations: fc.Arbitrary<Mutation[]>) {
  type Body = { payload?: string | Buffer; contentType?: string };
  const odd: fc.Arbitrary<Body> = fc.oneof(
    fc.constant({}),
    fc
      .constantFrom('', '{', 'null', '"x"', '[]', '{"a":1}{', '\u0000', megabyteString)
      .map((payload) => ({ payload, contentType: 'application/json' })),
    fc.record({ payload: fc.constantFrom('{}', 'name=x', '<a/>'), contentType: fc.constantFrom(...OTHER_CONTENT_TYPES) }),
  );
  if (route.multipart) {
    const part = fc.record({
      name: fc.oneof(
        fc.constant('file'),
        hostileString.filter((s) => !/["\r\n]/.test(s)),
      ),
      data: fc.oneof(
        fc.constant(pngBytes(2, 2)),
        fc.constant(pdfBytes('x')),
        fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
        fc.constant(Buffer.alloc(0)),
        fc.constant('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'),
      ),
      filename: fc.option(
        hostileString.filter((s) => !/["\r\n]/.test(s)),
        { nil: undefined },
      ),
      contentType: fc.option(fc.constantFrom('image/png', 'text/html', 'application/pdf', '\u0000'), { nil: undefined }),
    });
    return fc.oneof(
      {
        weight: 4,
        arbitrary: fc.array(part, { maxLength: 3 }).map((parts) => {
          const m = multipart(parts);
          return { payload: m.body, contentType: m.contentType };
        }),
      },
      { weight: 1, arbitrary: odd },
    );
  }
  if (!route.jsonBody) return fc.oneof({ weight: 4, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: odd });
  const seeds: fc.Arbitrary<unknown> =
    route.entry.schema?.body === linkBodySchema
      ? fc.constantFrom(...LINK_TYPES).map((type) => ({
          name: `fuzz ${type}`,
          type,
          data: exampleData(type, { images: mine.File!.slice(0, 2), pdfs: mine.File!.slice(2, 4) }),
        }))
      : fromSchema(route.jsonBody);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(seeds, mutations)
        .map(([seed, ms]) => ({ payload: toJsonText(mutate(seed, ms)), contentType: 'application/json' })),
    },
    { weight: 1, arbitrary: odd },
  );
}

async function send(r: FuzzRequest) {
  return api.app.inject({
    method: r.route.method as 'GET',
    url: `${r.path}${r.query}`,
    headers: {
      ...(r.key ? { authorization: `Basic ${r.key}` } : {}),
      ...(r.contentType ? { 'content-type': r.contentType } : {}),
    },
    ...(r.payload !== undefined ? { payload: r.payload } : {}),
  });
}

describe('api fuzz', () => {
  it('every route is fuzzable: an auth requirement, and the OpenAPI operation', () => {
    expect(routes.length).toBeGreaterThan(20);
    for (const r of routes) {
      expect(r.auth, `${routeName(r)} declares config.auth`).toBeDefined();
      expect(r.operation, `${routeName(r)} is in the OpenAPI document`).toBeDefined();
    }
  });

  it(
    `never a 5xx, always the documented error shape (seed ${SEED}, ${RUNS} runs)`,
    async () => {
      console.log(`api fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}`);
      const problems = new Map<string, string>();
      const theirsBefore = await snapshot(other.key);
      await fc.assert(
        fc.asyncProperty(requestArb(), async (r) => {
          const started = Date.now();
          const res = await send(r);
          if (process.env.FUZZ_TRACE) console.log(`${Date.now() - started} ms ${res.statusCode} ${describeRequest(r).slice(0, 200)}`);
          const problem = answerProblem(res, r.route.method);
          if (problem) {
            const kind = `${routeName(r.route)} → ${problem.replace(/:.*$/s, '')}`;
            if (!problems.has(kind)) problems.set(kind, `${describeRequest(r)}\n   → ${problem}`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      expect([...problems.values()], `FUZZ_SEED=${SEED}`).toEqual([]);
      expect((await call(api.app, null, 'GET', '/health')).statusCode).toBe(200);
      // Another account's resources were named in paths and bodies all along: none changed.
      expect(await snapshot(other.key)).toEqual(theirsBefore);
    },
    Math.max(600_000, RUNS * 300),
  );
});

/** What another account can see of its own resources. */
async function snapshot(key: string) {
  const get = async (url: string) => (await call(api.app, key, 'GET', `${API_PREFIX}${url}`)).json();
  const links = (await get('/links?size=1000')).data.map((l: Record<string, unknown>) => [
    l.dynamic_link_id,
    l.name,
    l.paused,
    l.favorite,
    l.folder_id,
    l.meta_data,
  ]);
  const keys = (await get('/api-keys')).data.map((k: Record<string, unknown>) => [k.id, k.name, k.active, k.revoked_at, k.scopes]);
  return { links, folders: (await get('/folders')).data, templates: (await get('/templates')).data, keys };
}
