import { validate } from '@readme/openapi-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeErrorCodes } from '#api/error-responses.js';
import { MENU_THEME_KEYS } from '#domain/cafes/themes.js';
import { ERROR_CODES, errorCodesOf, MAX_LISTED_ERRORS } from '#domain/errors.js';
import { startTestApi, type TestApi } from '../../support/harness.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(() => api.close());

describe('OpenAPI document at /api/v1/docs', () => {
  it('serves the UI and the JSON document without a key', async () => {
    const ui = await api.app.inject({ method: 'GET', url: '/api/v1/docs' });
    expect([200, 302]).toContain(ui.statusCode);
    const doc = await api.app.inject({ method: 'GET', url: '/api/v1/docs/json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toMatch(/^3\./);
  });

  it("the UI page and its scripts carry a strict CSP: only this origin and the page's own inline code by hash", async () => {
    for (const url of ['/api/v1/docs/', '/api/v1/docs/static/swagger-initializer.js']) {
      const res = await api.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("default-src 'self'");
      expect(csp, url).toContain("object-src 'none'");
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toMatch(/script-src 'self'( 'sha256-[^']+')* ?;/);
      expect(csp, url).not.toMatch(/unsafe-inline|unsafe-eval|https:|upgrade-insecure-requests|\*/);
    }
  });

  it('validates as OpenAPI and generates a typed client (openapi-typescript) without errors', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/api/v1/docs/json' })).json();
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify(result.valid ? [] : result.errors, null, 1).slice(0, 2000)).toBe(true);
    const client = astToString(await openapiTS(structuredClone(doc)));
    expect(client).toContain('"/api/v1/links/{id}": {');
    expect(client).toMatch(/429: \{/);
  });

  it('every operation declares the error answers it can give, in the documented shapes', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/api/v1/docs/json' })).json();
    const seen = new Set<string>();
    for (const route of api.app.routeTable) {
      if (!route.url.startsWith('/api/v1/') || route.url.startsWith('/api/v1/docs') || route.method === 'HEAD') continue;
      const path = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
      const op = doc.paths[path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${path}`).toBeDefined();
      seen.add(`${route.method} ${path}`);
      const codes = Object.keys(op.responses);
      for (const code of routeErrorCodes(route.schema, route.config.auth)) expect(codes, `${route.method} ${path}`).toContain(String(code));
      expect(codes, `${route.method} ${path}`).toContain('429');
      if (route.config.auth) expect(codes, `${route.method} ${path}`).toContain('401');
      if (route.config.auth && route.config.auth.scope !== 'any') expect(codes, `${route.method} ${path}`).toContain('403');
      for (const code of codes.filter((c) => c >= '400')) {
        const body = op.responses[code].content?.['application/json']?.schema;
        expect(body?.required, `${route.method} ${path} ${code}`).toEqual(expect.arrayContaining(['code', 'message']));
        // The code is one of the status's codes in the one list (ERROR_CODES), all of them listed.
        expect(body.properties.code.enum, `${route.method} ${path} ${code}`).toEqual(errorCodesOf(Number(code)));
        expect(body.properties.code.enum.length, `${route.method} ${path} ${code}`).toBeGreaterThan(0);
      }
      // A 400 lists at most MAX_LISTED_ERRORS errors and says how many more there are.
      const invalid = op.responses['400']?.content?.['application/json']?.schema;
      if (invalid) {
        expect(invalid.properties.errors.maxItems, `${route.method} ${path}`).toBe(MAX_LISTED_ERRORS);
        expect(invalid.properties.omittedErrors, `${route.method} ${path}`).toMatchObject({ type: 'integer', minimum: 1 });
      }
    }
    expect(seen.size).toBeGreaterThan(60);
  });

  it('describes every /api/v1 endpoint the api serves, with its body and security', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/api/v1/docs/json' })).json();
    // Every route that requires a key is an API endpoint and must be in the document.
    const expected = [
      ['get', '/api/v1/folders'],
      ['post', '/api/v1/folders'],
      ['get', '/api/v1/folders/{id}'],
      ['put', '/api/v1/folders/{id}'],
      ['delete', '/api/v1/folders/{id}'],
      ['get', '/api/v1/templates'],
      ['post', '/api/v1/templates'],
      ['get', '/api/v1/templates/{id}'],
      ['put', '/api/v1/templates/{id}'],
      ['delete', '/api/v1/templates/{id}'],
      ['get', '/api/v1/api-keys'],
      ['post', '/api/v1/api-keys'],
      ['delete', '/api/v1/api-keys/{id}'],
      ['get', '/api/v1/jobs'],
      ['get', '/api/v1/jobs/{jobId}'],
    ];
    for (const [method, path] of expected) {
      expect(doc.paths[path!]?.[method!], `${method} ${path}`).toBeDefined();
    }
    const qr = doc.paths['/api/v1/templates'].post.requestBody.content['application/json'].schema;
    expect(JSON.stringify(qr)).toContain('classy-rounded');
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
  });

  it('documents the cafe endpoints: forms as multipart with their files, the theme keys, the bare-array item reorder', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/api/v1/docs/json' })).json();
    const body = (path: string, method: string) => doc.paths[path][method].requestBody.content;
    for (const [path, method, file] of [
      ['/api/v1/cafes/{id}/profile', 'put', 'logo'],
      ['/api/v1/cafes/{id}/groups', 'post', 'image'],
      ['/api/v1/cafes/{id}/groups/{groupId}', 'put', 'image'],
      ['/api/v1/cafes/{id}/categories/{categoryId}/image', 'put', 'image'],
      ['/api/v1/cafes/{id}/items', 'post', 'image'],
      ['/api/v1/cafes/{id}/items/{itemId}', 'put', 'image'],
    ] as const) {
      const content = body(path, method);
      expect(Object.keys(content), `${method} ${path}`).toEqual(['multipart/form-data']);
      expect(JSON.stringify(content['multipart/form-data'].schema), `${method} ${path}`).toContain(`"${file}"`);
      expect(doc.paths[path][method].responses['415'], `${method} ${path}`).toBeDefined();
    }
    expect(JSON.stringify(body('/api/v1/cafes/{id}/profile', 'put'))).toContain('delete_cafe-cover');
    const theme = body('/api/v1/cafes/{id}/theme', 'put')['application/json'].schema;
    for (const key of MENU_THEME_KEYS) expect(JSON.stringify(theme)).toContain(`"${key}"`);
    // The cafe record answers the theme under the names the theme request takes.
    const cafe = doc.paths['/api/v1/cafes/{id}'].get.responses['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(cafe.properties)).toEqual(expect.arrayContaining(Object.keys(theme.properties)));
    expect(cafe.required).toEqual(expect.arrayContaining(Object.keys(theme.properties)));
    expect(body('/api/v1/cafes/{id}/items/reorder', 'patch')['application/json'].schema.type).toBe('array');
    expect(body('/api/v1/cafes/{id}/groups/reorder', 'patch')['application/json'].schema.properties.orders.type).toBe('array');
    expect(body('/api/v1/cafes/{id}/categories', 'post')['application/json'].schema.required).toEqual(['name']);
    // Bulk insert: JSON with an example, the job's answers (200 result, 202 accepted) and its errors.
    const bulk = doc.paths['/api/v1/cafes/{id}/items/bulk-insert'].post;
    const bulkBody = bulk.requestBody.content['application/json'];
    expect(bulkBody.schema.properties.items.maxItems).toBe(5000);
    expect(bulkBody.schema.properties.items.items.required).toEqual(['name', 'price', 'currency', 'category']);
    expect(JSON.stringify(bulkBody)).toContain('Pastel de nata');
    expect(Object.keys(bulk.responses).sort()).toEqual(['200', '202', '400', '401', '403', '404', '409', '413', '415', '429', '503']);
    expect(JSON.stringify(bulk.responses['202'])).toContain('statusUrl');
    expect(bulk.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['prefer', 'idempotency-key']));
  });

  it('lists the error codes of every status an operation documents, by reason', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/api/v1/docs/json' })).json();
    const codeEnum = (path: string, method: string, status: number) =>
      doc.paths[path][method].responses[String(status)].content['application/json'].schema.properties.code.enum;
    expect(codeEnum('/api/v1/links/{id}', 'get', 404)).toEqual(expect.arrayContaining(['link_not_found', 'folder_not_found', 'not_found']));
    expect(codeEnum('/api/v1/links/{id}', 'get', 400)).toEqual(['validation_failed', 'password_too_weak']);
    expect(codeEnum('/api/v1/links/{id}', 'get', 401)).toEqual(expect.arrayContaining(['unauthorized', 'plan_feature_unavailable']));
    expect(codeEnum('/api/v1/links/{id}', 'get', 429)).toEqual(
      expect.arrayContaining(['rate_limited', 'auth_attempts_exceeded', 'job_queue_full']),
    );
    expect(codeEnum('/api/v1/cafes/{id}/items/bulk-insert', 'post', 409)).toEqual(
      expect.arrayContaining(['conflict', 'slug_taken', 'menu_full']),
    );
    expect(codeEnum('/api/v1/cafes/{id}/items/bulk-insert', 'post', 413)).toEqual(
      expect.arrayContaining(['payload_too_large', 'storage_quota_exceeded']),
    );
    // Every code of a status some operation answers appears in the document.
    const documented = new Set<string>();
    for (const ops of Object.values<
      Record<
        string,
        { responses: Record<string, { content?: Record<string, { schema?: { properties?: { code?: { enum?: string[] } } } }> }> }
      >
    >(doc.paths)) {
      for (const op of Object.values(ops)) {
        for (const response of Object.values(op.responses ?? {})) {
          for (const code of response.content?.['application/json']?.schema?.properties?.code?.enum ?? []) documented.add(code);
        }
      }
    }
    const answeredStatuses = [400, 401, 403, 404, 409, 413, 415, 429, 503];
    const expected = Object.entries(ERROR_CODES)
      .filter(([, status]) => answeredStatuses.includes(status))
      .map(([code]) => code);
    expect([...documented].sort()).toEqual(expected.sort());
  });

  it('leaves out no /api/v1 route the server actually serves', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/api/v1/docs/json' })).json();
    const served = servedRoutes(api.app.printRoutes({ commonPrefix: false })).filter(
      ([, path]) => path.startsWith('/api/v1/') && !path.startsWith('/api/v1/docs'),
    );
    expect(served.length).toBeGreaterThanOrEqual(14);
    for (const [method, path] of served) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
  });
});

/** Reads fastify's route tree ("├── /api/v1/folders (GET, POST)" with children indented by 4) into [method, path] pairs. */
function servedRoutes(tree: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2]!;
    stack[depth] = path;
    for (const method of (m[3] ?? '').split(', ').filter((x) => x && x !== 'HEAD')) {
      out.push([method.toLowerCase(), path.replace(/:(\w+)/g, '{$1}')]);
    }
  }
  return out;
}
