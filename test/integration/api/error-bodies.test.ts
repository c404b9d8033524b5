import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#domain/errors.js';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { sendPastTheAnswer } from '../../support/early-answer.js';

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
    expect(res.json()).toEqual({
      code: 'validation_failed',
      message: 'Validation failed',
      errors: [{ path: '(url)', message: 'The URL is not validly percent-encoded' }],
    });
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
      expect(res.json()).toEqual({
        code: 'validation_failed',
        message: 'Validation failed',
        errors: [{ path, message: 'Field name not allowed' }],
      });
    }
  });
});

describe('field paths', () => {
  it('an empty member name is written "" (a path is never empty)', async () => {
    const body = await call(api.app, me.key, 'POST', '/api/v1/folders', '{"name":"x","":1}', { 'content-type': 'application/json' });
    expect(body.json()).toEqual({
      code: 'validation_failed',
      message: 'Validation failed',
      errors: [{ path: '""', message: 'Unknown field' }],
    });
    const query = await call(api.app, me.key, 'GET', '/api/v1/links?=1');
    expect(query.json()).toEqual({
      code: 'validation_failed',
      message: 'Validation failed',
      errors: [{ path: '""', message: 'Unknown field' }],
    });
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
    expect(JSON.parse(res.body)).toEqual({
      code: 'uri_too_long',
      message: 'The URL is too long (request line and headers at most 16 KiB)',
    });
  });

  it('a malformed request: 400 in our shape', async () => {
    for (const request of [
      'FOO /api/v1/folders HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api/v1/folders HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    ]) {
      const res = await raw(request);
      expect(res.status, request).toBe(400);
      expect(JSON.parse(res.body)).toEqual({
        code: 'validation_failed',
        message: 'Validation failed',
        errors: [{ path: '(request)', message: 'Malformed HTTP request' }],
      });
      expectNoInternals(res.body);
    }
  });

  it('the server still answers afterwards', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(200);
  });
});

describe('every error answer carries a code naming its reason', () => {
  /** The body has the code, the status is the one ERROR_CODES gives it, and the rest is as before. */
  function expectCode(res: { statusCode: number; json: () => Record<string, unknown> }, code: keyof typeof ERROR_CODES) {
    expect(res.json().code, JSON.stringify(res.json())).toBe(code);
    expect(res.statusCode).toBe(ERROR_CODES[code]);
  }

  it('an unknown link is link_not_found, an unknown route not_found (whatever the method)', async () => {
    const link = await call(api.app, me.key, 'GET', '/api/v1/links/no-such-link');
    expect(link.json()).toEqual({ code: 'link_not_found', message: 'Link not found' });
    expectCode(link, 'link_not_found');
    for (const method of ['GET', 'PROPFIND', 'DELETE'] as const) {
      const route = await call(api.app, me.key, method, '/api/v1/nothing-here');
      expect(route.json(), method).toEqual({ code: 'not_found', message: 'Route not found' });
      expectCode(route, 'not_found');
    }
  });

  it('an invalid body, query or JSON text is validation_failed, its field errors as before', async () => {
    const body = await call(api.app, me.key, 'POST', '/api/v1/folders', { name: 'x', extra: 1 });
    expect(body.json()).toEqual({
      code: 'validation_failed',
      message: 'Validation failed',
      errors: [{ path: 'extra', message: 'Unknown field' }],
    });
    expectCode(body, 'validation_failed');
    expectCode(await call(api.app, me.key, 'GET', '/api/v1/links?size=nope'), 'validation_failed');
    expectCode(
      await call(api.app, me.key, 'POST', '/api/v1/folders', '{"name":', { 'content-type': 'application/json' }),
      'validation_failed',
    );
  });

  it('no key or an unknown key is unauthorized, a missing scope forbidden', async () => {
    const none = await call(api.app, null, 'GET', '/api/v1/folders');
    expect(none.json()).toEqual({ code: 'unauthorized', message: 'Unauthorized' });
    expectCode(none, 'unauthorized');
    expectCode(await call(api.app, 'qrl_not-a-real-key', 'GET', '/api/v1/folders'), 'unauthorized');
    const reader = await createTestAccount(api.ctx, { scopes: ['folders.read'] });
    const denied = await call(api.app, reader.key, 'POST', '/api/v1/folders', { name: 'x' });
    expect(denied.json()).toEqual({ code: 'forbidden', message: 'You do not have permission to perform this action.' });
    expectCode(denied, 'forbidden');
  });

  it('a body past the limit is payload_too_large, another content type unsupported_media_type', async () => {
    const big = await call(api.app, me.key, 'POST', '/api/v1/folders', JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }), {
      'content-type': 'application/json',
    });
    expect(big.json()).toEqual({ code: 'payload_too_large', message: 'Request body is too large' });
    expectCode(big, 'payload_too_large');
    const text = await call(api.app, me.key, 'POST', '/api/v1/folders', 'name=x', { 'content-type': 'text/plain' });
    expect(text.json()).toEqual({ code: 'unsupported_media_type', message: 'Unsupported Content-Type: text/plain' });
    expectCode(text, 'unsupported_media_type');
  });

  it("Node's fetch sending a body far past the limit reads the 413 and its body, not a broken pipe", async () => {
    // 24 MiB in 64 KiB chunks, as a client streaming an upload sends it: the api answers after the
    // first MiB, while most of the body is still on its way.
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 24 * 1024 * 1024) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/folders`, {
        method: 'POST',
        headers: { authorization: `Basic ${me.key}`, 'content-type': 'application/json' },
        body: attempt === 0 ? body : new Uint8Array(24 * 1024 * 1024).fill(0x20),
        duplex: 'half',
      } as RequestInit);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ code: 'payload_too_large', message: 'Request body is too large' });
    }
  });

  it('after the 413 the api reads on a few MB of what the client is still sending, then closes: no reset mid-upload', async () => {
    const head =
      `POST /api/v1/folders HTTP/1.1\r\nHost: x\r\nAuthorization: Basic ${me.key}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`;
    // Another 2 MiB after the answer, as a client that has not read it yet sends: all taken in.
    const sent = await sendPastTheAnswer(port, head, { answeredWhen: /payload_too_large/, afterBytes: 2 * 1024 * 1024 });
    expect(sent.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent.answer).toMatch(/connection: close/i);
    expect(sent.failure).toBeNull();
    expect(sent.closedEarly).toBe(false);
  });

  it('a custom URL taken is slug_taken, its field error kept', async () => {
    const slug = `taken-${Date.now()}`;
    const link = (customUrl: string) => ({
      name: 'x',
      type: 'website',
      data: { url: 'https://example.com' },
      linkConfigurations: { urlActive: true, customUrl },
    });
    expect((await call(api.app, me.key, 'POST', '/api/v1/links', link(slug))).statusCode).toBe(200);
    const again = await call(api.app, me.key, 'POST', '/api/v1/links', link(slug));
    expect(again.json()).toEqual({
      code: 'slug_taken',
      message: 'Custom URL is already in use',
      errors: [{ path: 'linkConfigurations.customUrl', message: 'Custom URL is already in use' }],
    });
    expectCode(again, 'slug_taken');
  });

  it('past the per-key rate limit is rate_limited', async () => {
    const limited = await startTestApi({
      RATE_LIMIT_MAX: '1',
      RATE_LIMIT_WINDOW_MS: '60000',
      REDIS_NAMESPACE: `qrlinks-test-codes-${Date.now()}`,
    });
    try {
      const a = await createTestAccount(limited.ctx);
      expect((await call(limited.app, a.key, 'GET', '/api/v1/folders')).statusCode).toBe(200);
      const res = await call(limited.app, a.key, 'GET', '/api/v1/folders');
      expect(res.json()).toEqual({ code: 'rate_limited', message: expect.stringMatching(/^Too many requests; retry in \d+ s$/) });
      expectCode(res, 'rate_limited');
    } finally {
      await limited.close();
    }
  });

  it("Node's parser refusals carry codes too (real sockets)", async () => {
    expect(JSON.parse((await raw(`GET /api/v1/folders HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)).body).code).toBe(
      'headers_too_large',
    );
    expect(JSON.parse((await raw(`GET /api/v1/links?search=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`)).body).code).toBe(
      'uri_too_long',
    );
    expect(JSON.parse((await raw('FOO /api/v1/folders HTTP/1.1\r\nHost: x\r\n\r\n')).body).code).toBe('validation_failed');
  });
});
