/**
 * Property: whatever reaches the redirect (scan) process — hostile paths, methods, bodies on
 * /<slug>, /<slug>/contact.vcf, /<slug>/event.ics and /files/:id — it never answers a 5xx other
 * than its documented 503 page, and every error answer is an HTML page with the Content Security
 * Policy. Real sockets (fetch), so Node's HTTP parser is in the path. Seeded like the api fuzz:
 * FUZZ_SEED, FUZZ_RUNS (see test/integration/api/fuzz-api.test.ts).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '#redirect/pages/index.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';
import { createResources, encodeLoose, hostileString, megabyteString, type Resources } from '../../support/route-table.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Math.ceil(Number(process.env.FUZZ_RUNS ?? 300) / 2);

let api: TestApi;
let redirect: TestRedirect;
let me: TestAccount;
let mine: Resources;
let protectedSlug: string;

beforeAll(async () => {
  api = await startTestApi();
  redirect = await startTestRedirect(api.ctx);
  me = await createTestAccount(api.ctx);
  mine = await createResources(api.app, me);
  const res = await call(api.app, me.key, 'POST', '/api/v1/links', {
    name: 'locked',
    type: 'website',
    data: { url: 'https://example.com/' },
    linkConfigurations: { passwordProtectedActive: true, password: 'open sesame' },
  });
  protectedSlug = res.json().id;
}, 180_000);
afterAll(async () => {
  await redirect.close();
  await api.close();
});

interface ScanRequest {
  method: 'GET' | 'HEAD' | 'POST';
  path: string;
  body?: string;
  contentType?: string;
  cookie?: string;
}

function requestArb(): fc.Arbitrary<ScanRequest> {
  const slug = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...mine.Link!, protectedSlug) },
    { weight: 2, arbitrary: hostileString.map(encodeLoose) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '%ZZ',
        '%',
        'a%00b',
        '%ED%A0%80',
        '..',
        '%2e%2e%2f',
        'x'.repeat(101),
        'x'.repeat(5000),
        'files',
        'health',
        '',
      ),
    },
  );
  const path = fc.oneof(
    { weight: 4, arbitrary: slug.map((s) => `/${s}`) },
    { weight: 1, arbitrary: slug.map((s) => `/${s}/contact.vcf`) },
    { weight: 1, arbitrary: slug.map((s) => `/${s}/event.ics`) },
    {
      weight: 2,
      arbitrary: fc.oneof(fc.constantFrom(...mine.File!), hostileString.map(encodeLoose), fc.uuid()).map((id) => `/files/${id}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('/', '//', '/a/b/c', '/files', '/files/', '/%2F%2F', '/?x=%ZZ') },
  );
  const body = fc.oneof(
    fc.constant({}),
    fc.record({
      body: fc.oneof(
        hostileString.map((p) => `password=${encodeLoose(p)}`),
        fc.constantFrom('password=open%20sesame', 'password=', '%ZZ=1', 'a=1&a=2', '{"password":"x"}', megabyteString),
      ),
      contentType: fc.constantFrom(
        'application/x-www-form-urlencoded',
        'application/json',
        'text/plain',
        'multipart/form-data; boundary=x',
      ),
    }),
  );
  return fc
    .record({
      method: fc.constantFrom('GET', 'HEAD', 'POST'),
      path,
      body,
      cookie: fc.option(
        hostileString.filter((c) => /^[\x20-\x7e]*$/.test(c)),
        { nil: undefined },
      ),
    })
    .map(({ method, path, body, cookie }) => ({
      method,
      path,
      ...(method === 'POST' ? body : {}),
      ...(cookie !== undefined ? { cookie: `qrl_pw=${cookie}` } : {}),
    }));
}

function send(r: ScanRequest): Promise<Response> {
  return redirect.get(r.path, {
    method: r.method,
    headers: { ...(r.contentType ? { 'content-type': r.contentType } : {}), ...(r.cookie ? { cookie: r.cookie } : {}) },
    ...(r.body !== undefined ? { body: r.body } : {}),
  });
}

/** What is wrong with a redirect answer, or null. */
async function answerProblem(r: ScanRequest, res: Response): Promise<string | null> {
  const body = r.method === 'HEAD' ? '' : await res.text();
  const type = res.headers.get('content-type') ?? '';
  if (res.status >= 500 && res.status !== 503) return `status ${res.status}: ${body.slice(0, 200)}`;
  if (res.status >= 300 && res.status < 400) return res.headers.get('location') ? null : `${res.status} without Location`;
  const isError = res.status >= 400;
  const isPage = type.startsWith('text/html');
  if (isError && !isPage) return `error ${res.status} is ${type || 'no type'}, not an HTML page: ${body.slice(0, 200)}`;
  // Pages differ only in form-action (the password page posts to itself).
  const csp = res.headers.get('content-security-policy') ?? '';
  if ((isError || isPage) && !csp.startsWith(CONTENT_SECURITY_POLICY.split(';')[0]!)) return `${res.status} page without the CSP (${csp})`;
  if (/FST_|ERR_[A-Z]|\n\s+at |node_modules|\/work\//.test(body)) return `${res.status} names internals: ${body.slice(0, 200)}`;
  return null;
}

describe('redirect fuzz', () => {
  it(
    `never a 5xx but the 503 page; errors are HTML pages with the CSP (seed ${SEED}, ${RUNS} runs)`,
    async () => {
      console.log(`redirect fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS * 2}`);
      const problems = new Map<string, string>();
      const unavailable: string[] = [];
      await fc.assert(
        fc.asyncProperty(requestArb(), async (r) => {
          const res = await send(r);
          const problem = await answerProblem(r, res);
          const request = `${r.method} ${r.path.slice(0, 120)}${r.body ? ` body(${r.contentType}) ${r.body.slice(0, 80)}` : ''}`;
          if (res.status === 503 && unavailable.length < 20) unavailable.push(request);
          if (problem) {
            const kind = `${r.method} ${problem.replace(/:.*$/s, '')}`;
            if (!problems.has(kind)) problems.set(kind, `${request}\n   → ${problem}`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      // The documented 503 page is allowed, but bad input should not be what causes it.
      if (unavailable.length) console.warn(`redirect fuzz: 503 pages for\n${unavailable.join('\n')}`);
      expect((await redirect.get('/health')).status).toBe(200);
      const found = [...problems.values()];
      expect(found, `FUZZ_SEED=${SEED}`).toEqual([]);
    },
    Math.max(600_000, RUNS * 300),
  );
});
