/**
 * Errors the framework or Node's HTTP parser answer on the redirect (a malformed path, a slug past
 * the router's length, headers too large, an unknown method, a body of the wrong type or size):
 * each is an HTML page with the redirect's CSP and headers, a status naming the cause, and never
 * the raw path echoed back. Raw sockets where fetch cannot send the request.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRedirectApp } from '#redirect/app.js';
import { CONTENT_SECURITY_POLICY } from '#redirect/pages/index.js';
import { startTestApi, type TestApi } from '../../support/harness.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';

let api: TestApi;
let redirect: TestRedirect;

beforeAll(async () => {
  api = await startTestApi();
  redirect = await startTestRedirect(api.ctx);
});
afterAll(async () => {
  await redirect?.close();
  await api?.close();
});

/** The answer to raw request bytes: status line, headers (lower-case names) and body. */
async function rawRequest(bytes: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { port } = new URL(redirect.base);
  const socket = connect(Number(port), '127.0.0.1');
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', (err) => (chunks.length ? resolve() : reject(err)));
    socket.on('close', () => resolve());
  });
  const text = Buffer.concat(chunks).toString('utf8');
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head!.split('\r\n');
  const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: rest.join('\r\n\r\n') };
}

function expectErrorPage(
  res: { status: number; headers: Record<string, string> | Headers; body: string },
  status: number,
  message: RegExp,
) {
  const header = (name: string) => (res.headers instanceof Headers ? res.headers.get(name) : res.headers[name]);
  expect(res.status).toBe(status);
  expect(header('content-type')).toBe('text/html; charset=utf-8');
  expect(header('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  expect(header('x-content-type-options')).toBe('nosniff');
  expect(header('referrer-policy')).toBe('no-referrer');
  expect(header('cache-control')).toBe('no-store');
  expect(res.body).toMatch(/^<!doctype html>/i);
  expect(res.body).toMatch(message);
  expect(res.body).not.toMatch(/FST_|"statusCode"|"error"/);
}

const fetchPage = async (path: string, init?: RequestInit) => {
  const res = await redirect.get(path, init);
  return { status: res.status, headers: res.headers, body: await res.text() };
};

describe('a reply that cannot be sent', () => {
  it('a header Node refuses does not leak Fastify JSON: the 503 page, without that header', async () => {
    const app = await buildRedirectApp(api.ctx);
    app.get('/test/unsendable', (_request, reply) => reply.code(302).header('location', 'https://example.com/日本').send());
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = app.server.address();
      const res = await fetch(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/test/unsendable`, {
        redirect: 'manual',
      });
      expectErrorPage({ status: res.status, headers: res.headers, body: await res.text() }, 503, /try again/i);
      expect(res.headers.get('location')).toBeNull();
    } finally {
      await app.close();
    }
  });
});

describe('framework errors on the redirect are HTML pages naming the cause', () => {
  it('a malformed percent-encoding (GET /%ZZ…): 400, the path not echoed', async () => {
    const res = await fetchPage('/%ZZ%3Cscript%3Ealert(1)%3C/script%3E');
    expectErrorPage(res, 400, /address is not valid/i);
    expect(res.body).not.toMatch(/<script|%ZZ/);
  });

  it('a slug longer than the router takes: 414', async () => {
    const res = await fetchPage(`/${'a'.repeat(150)}<b>`);
    expectErrorPage(res, 414, /too long/i);
    expect(res.body).not.toContain('aaaaaaaaaa');
  });

  it('a URL too long for the HTTP parser: 414, not "headers too large"', async () => {
    const res = await fetchPage(`/${'x'.repeat(20_000)}`);
    expectErrorPage(res, 414, /address is too long/i);
  });

  it('headers too large for the HTTP parser: 431', async () => {
    const res = await rawRequest(`GET /abc HTTP/1.1\r\nHost: x\r\nCookie: ${'c'.repeat(20_000)}\r\n\r\n`);
    expectErrorPage(res, 431, /headers|cookies/i);
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.body));
  });

  it('a request the parser cannot read (an invalid method token, a bad header): 400', async () => {
    expectErrorPage(await rawRequest('GE<T /abc HTTP/1.1\r\nHost: x\r\n\r\n'), 400, /could not be read/i);
    expectErrorPage(await rawRequest('GET /abc HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n'), 400, /could not be read/i);
  });

  it('a method the redirect does not answer (DELETE, PUT, OPTIONS, PROPFIND): 405 with Allow', async () => {
    for (const method of ['DELETE', 'PUT', 'OPTIONS', 'PATCH']) {
      const res = await fetchPage('/some-slug', { method });
      expectErrorPage(res, 405, /cannot be opened this way/i);
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
    }
    const files = await fetchPage('/files/1d6e1f2a-3b4c-4d5e-8f90-a1b2c3d4e5f6', { method: 'DELETE' });
    expectErrorPage(files, 405, /cannot be opened this way/i);
    expect(files.headers.get('allow')).toBe('GET, HEAD');
    const raw = await rawRequest('PROPFIND /some-slug HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expectErrorPage(raw, 405, /cannot be opened this way/i);
  });

  it('POST /<slug> with a body that is not a form: 415; malformed or too large: 400 / 413', async () => {
    const json = await fetchPage('/some-slug', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"password":"x"}',
    });
    expectErrorPage(json, 415, /form/i);
    const text = await fetchPage('/some-slug', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'password=x' });
    expectErrorPage(text, 415, /form/i);
    const none = await rawRequest(
      'POST /some-slug HTTP/1.1\r\nHost: x\r\nContent-Type: application/xml\r\nContent-Length: 3\r\nConnection: close\r\n\r\n<a>',
    );
    expectErrorPage(none, 415, /form/i);
    const big = await fetchPage('/some-slug', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `password=${'x'.repeat(10_000)}`,
    });
    expectErrorPage(big, 413, /too large/i);
    expect(big.headers.get('retry-after')).toBeNull();
  });
});
