/**
 * The two Node-internals workarounds run only on the Node major they were measured on; elsewhere
 * the plain way runs. Both paths are exercised here, whatever Node runs the tests.
 */
import { request } from 'node:http';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { gracefulHttp } from '#platform/http/graceful.js';
import { nodeInternalsVerified, VERIFIED_NODE_MAJORS } from '#platform/http/node-internals.js';
import { keepTickObjectShape } from '#platform/http/tick-object-shape.js';

const verified = `${VERIFIED_NODE_MAJORS[0]}.11.0`;
// A major between the verified ones, never measured.
const other = '22.1.0';

describe('Node-internals workarounds behind a version check', () => {
  it('knows the version they were measured on', () => {
    expect(nodeInternalsVerified(verified)).toBe(true);
    expect(nodeInternalsVerified('20.20.2')).toBe(true);
    expect(nodeInternalsVerified('24.11.1')).toBe(true);
    expect(nodeInternalsVerified(other)).toBe(false);
    expect(nodeInternalsVerified('18.19.0')).toBe(false);
  });

  it('keepTickObjectShape keeps a tick object only on the verified major', () => {
    expect(keepTickObjectShape(other)).toBe(false);
    expect(keepTickObjectShape(verified)).toBe(true);
  });

  for (const [name, version] of [
    ['the constructor-function response (verified major)', verified],
    ['the plain derived-class response (any other major)', other],
  ] as const) {
    it(`${name}: keep-alive while serving, Connection: close for a request in flight at shutdown`, async () => {
      const graceful = gracefulHttp(version);
      const app = Fastify({ http: graceful.serverOptions, forceCloseConnections: 'idle' });
      graceful.register(app);
      app.get('/fast', async () => 'ok');
      app.get('/slow', async () => {
        await new Promise((r) => setTimeout(r, 300));
        return 'slow';
      });
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = app.server.address() as { port: number };
      const get = (path: string) =>
        new Promise<{ connection: string | undefined; body: string }>((resolve, reject) => {
          const req = request({ host: '127.0.0.1', port, path, headers: { connection: 'keep-alive' } }, (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ connection: res.headers.connection, body }));
          });
          req.on('error', reject);
          req.end();
        });
      expect(await get('/fast')).toEqual({ connection: 'keep-alive', body: 'ok' });
      const inFlight = get('/slow');
      await new Promise((r) => setTimeout(r, 100));
      const closed = app.close();
      expect(await inFlight).toEqual({ connection: 'close', body: 'slow' });
      await closed;
    });
  }
});
