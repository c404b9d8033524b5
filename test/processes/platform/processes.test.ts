import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collect, freePort, runEntry, startEntry, waitForHttp } from '../../support/processes.js';

// Every test here starts processes that compile TypeScript as they start; on a busy machine that
// alone can take a minute. The limits bound a hang; they do not time anything.
vi.setConfig({ testTimeout: 240_000, hookTimeout: 240_000 });

describe('npm start (main.ts): api, redirect and worker as separate processes', () => {
  it('serves health, readiness, the API and the docs, and stops cleanly on SIGTERM', async () => {
    const [port, redirectPort] = [await freePort(), await freePort()];
    const env = { PORT: String(port), REDIRECT_PORT: String(redirectPort), SHORT_URL_BASE: `http://127.0.0.1:${redirectPort}` };
    const main = startEntry('main.ts', [], env);
    const exited = collect(main, 200_000);
    try {
      expect((await waitForHttp(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      expect((await waitForHttp(`http://127.0.0.1:${redirectPort}/health`)).status).toBe(200);
      for (const base of [`http://127.0.0.1:${port}`, `http://127.0.0.1:${redirectPort}`]) {
        const ready = await fetch(`${base}/ready`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toEqual({ status: 'ready', postgres: true, redis: true });
      }
      // The README's path: an account and a key from the CLI, then a folder over HTTP.
      const account = JSON.parse((await runEntry('cli/index.ts', ['account', 'create', '--name', 'readme', '--plan', 'pro'])).stdout);
      const { key } = JSON.parse((await runEntry('cli/index.ts', ['key', 'create', '--account', account.id, '--scopes', 'all'])).stdout);
      const folder = await fetch(`http://127.0.0.1:${port}/api/v1/folders`, {
        method: 'POST',
        headers: { authorization: `Basic ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Table cards' }),
      });
      expect(folder.status).toBe(200);
      expect((await folder.json()).name).toBe('Table cards');
      expect(folder.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const docs = await fetch(`http://127.0.0.1:${port}/api/v1/docs`);
      expect(docs.status).toBe(200);
      // npm start built the browser console; the api serves it at / with its CSP.
      const consolePage = await fetch(`http://127.0.0.1:${port}/`);
      expect(consolePage.status).toBe(200);
      expect(consolePage.headers.get('content-security-policy')).toContain("script-src 'self'");
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(await consolePage.text())?.[1];
      expect((await fetch(`http://127.0.0.1:${port}${script}`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${redirectPort}/abc1234`)).status).toBe(404);
    } finally {
      main.kill('SIGTERM');
    }
    const { code, stdout } = await exited;
    expect(code).toBe(0);
    expect(stdout).toContain('qrlinks running');
  });
});

describe('graceful shutdown', () => {
  let port: number;
  let key: string;
  beforeAll(async () => {
    port = await freePort();
    const account = JSON.parse((await runEntry('cli/index.ts', ['account', 'create', '--name', 'drain', '--plan', 'pro'])).stdout);
    key = JSON.parse((await runEntry('cli/index.ts', ['key', 'create', '--account', account.id, '--scopes', 'all'])).stdout).key;
  });
  afterAll(() => undefined);

  it('SIGTERM on the api lets a request in flight finish, then exits 0', async () => {
    const api = startEntry('api/server.ts', [], { PORT: String(port) });
    const exited = collect(api);
    await waitForHttp(`http://127.0.0.1:${port}/health`);

    const body = JSON.stringify({ name: 'sent slowly' });
    const response = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/v1/folders',
          headers: { authorization: `Basic ${key}`, 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body: text }));
        },
      );
      req.on('error', reject);
      // Half the body now, SIGTERM, then the rest: the request is mid-flight when shutdown starts.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        api.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 300);
    });
    const res = await response;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).name).toBe('sent slowly');
    // The keep-alive socket ends with the answer instead of holding shutdown open.
    expect(res.connection).toBe('close');
    expect((await exited).code).toBe(0);
  });

  it('the worker answers its healthcheck, and SIGTERM stops it with exit 0', async () => {
    const metricsPort = await freePort();
    const worker = startEntry('workers/server.ts', [], { LOG_LEVEL: 'info', WORKER_METRICS_PORT: String(metricsPort) });
    const exited = collect(worker);
    let log = '';
    worker.stdout!.on('data', (d) => (log += d));
    try {
      const end = Date.now() + 120_000;
      while (!log.includes('worker started') && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
      expect(log).toContain('worker started');
      // docker-compose.yml's healthcheck of the worker.
      const health = await fetch(`http://127.0.0.1:${metricsPort}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      if (process.platform === 'linux') {
        // Every thread yields to request handling: nice is per thread on Linux, and V8's own
        // threads start before any of our code (render threads go further, to 19).
        const nices = readdirSync(`/proc/${worker.pid}/task`).map((tid) => {
          const stat = readFileSync(`/proc/${worker.pid}/task/${tid}/stat`, 'utf8');
          return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
        });
        expect(nices.length).toBeGreaterThan(1);
        expect(nices.filter((nice) => nice < 10)).toEqual([]);
      }
    } finally {
      worker.kill('SIGTERM');
    }
    expect((await exited).code).toBe(0);
  });
});
