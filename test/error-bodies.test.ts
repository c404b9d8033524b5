import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from './support/harness.js';

/**
 * What Fastify's router and Node's HTTP parser refuse is answered in the api's own error bodies:
 * 400 {code: "validation_failed", message: "Validation failed", errors: [{path, message}]}, other
 * 4xx {code, message}. No internal code (FST_…, HPE_…) and no echo of the request.
 */
let api: TestApi;
let me: TestAccount;
let port: number;

beforeAll(async () => {
  api = await startTestApi();
  me = await createTestAccount(api.ctx);
  await api.app.listen({ port: 0, host: '127.0.0.1' });
  port = (api.app.server.address() as AddressInfo).port;
});
afterAll(() => api.close());

/** Sends raw bytes and reads the whole answer (the server closes the connection after it). */
function raw(request: string): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]), headers: head ?? '', body: rest.join('\r\n\r\n') });
    });
  });
}

function expectNoInternals(body: string) {
  expect(body).not.toMatch(/FST_|HPE_|ERR_|statusCode|"error"/);
}

describe('router refusals', () => {
  it('a path that is not validly percent-encoded is a 400 in our shape, without echoing it', async () => {
    const res = await call(api.app, me.key, 'GET', '/api/v1/links/%ZZ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ code: 'validation_failed', message: 'Validation failed', errors: [{ path: '(url)', message: 'The URL is not validly percent-encoded' }] });
    expectNoInternals(res.body);
  });

  it("a path id of 5,000 characters is that resource's 404 {message}, like any unknown id", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/links/${'a'.repeat(5000)}`, { headers: { authorization: `Basic ${me.key}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 'link_not_found', message: 'Link not found' });
  });

  it('an unsupported method is the unknown-route 404', async () => {
    for (const method of ['PROPFIND', 'PATCH', 'OPTIONS'] as const) {
      const res = await call(api.app, me.key, method, '/api/v1/folders');
      expect(res.statusCode, method).toBe(404);
      expect(res.json()).toEqual({ code: 'not_found', message: 'Route not found' });
    }
  });

  it('a prototype key is named as the cause, not "not valid JSON"', async () => {
    for (const [text, path] of [
      ['{"name":"x","__proto__":{"admin":true}}', '__proto__'],
      ['{"name":"x","type":"website","data":{"url":"https://e.com/","constructor":{"prototype":{}}}}', 'data.constructor'],
    ]) {
      const res = await call(api.app, me.key, 'POST', '/api/v1/links', text, { 'content-type': 'application/json' });
      expect(res.statusCode, text).toBe(400);
      expect(res.json()).toEqual({ code: 'validation_failed', message: 'Validation failed', errors: [{ path, message: 'Field name not allowed' }] });
    }
  });
});

describe('field paths', () => {
  it('an empty member name is written "" (a path is never empty)', async () => {
    const body = await call(api.app, me.key, 'POST', '/api/v1/folders', '{"name":"x","":1}', { 'content-type': 'application/json' });
    expect(body.json()).toEqual({ code: 'validation_failed', message: 'Validation failed', errors: [{ path: '""', message: 'Unknown field' }] });
    const query = await call(api.app, me.key, 'GET', '/api/v1/links?=1');
    expect(query.json()).toEqual({ code: 'validation_failed', message: 'Validation failed', errors: [{ path: '""', message: 'Unknown field' }] });
  });
});

describe("Node's HTTP parser refusals (real sockets)", () => {
  it('headers past the limit: 431 {message}', async () => {
    const res = await raw(`GET /api/v1/folders HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toEqual({ code: 'headers_too_large', message: 'Request headers are too large (at most 16 KiB)' });
  });

  it('a URL past the limit: 414 {message}', async () => {
    const res = await raw(`GET /api/v1/links?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(res.status).toBe(414);
    expect(JSON.parse(res.body)).toEqual({ code: 'uri_too_long', message: 'The URL is too long (request line and headers at most 16 KiB)' });
  });

  it('a malformed request: 400 in our shape', async () => {
    for (const request of ['FOO /api/v1/folders HTTP/1.1\r\nHost: x\r\n\r\n', 'GET /api/v1/folders HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n']) {
      const res = await raw(request);
      expect(res.status, request).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ code: 'validation_failed', message: 'Validation failed', errors: [{ path: '(request)', message: 'Malformed HTTP request' }] });
      expectNoInternals(res.body);
    }
  });

  it('the server still answers afterwards', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(200);
  });
});
