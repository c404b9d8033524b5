/**
 * A rolling restart behind a balancer drops nothing: haproxy (Debian's) in front of two api and two
 * redirect processes, checking each on /ready, a steady load of keep-alive requests through it,
 * and each process stopped (SIGTERM) and started again in turn. On SIGTERM a process first fails
 * /ready while it still answers (SHUTDOWN_READY_DRAIN_MS), so haproxy moves its requests to the
 * other process before this one stops listening or closes a keep-alive socket.
 *
 * haproxy runs with its defaults for retries (connection failures only, same server, no
 * redispatch): the balancer hides nothing the processes do wrong.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLinkVia, createTestAccount, startTestApi, type TestApi } from '../../support/harness.js';
import { exited, freePort, startEntry, stopProcess } from '../../support/processes.js';
import { until } from '../../support/until.js';

// Eight process starts that compile TypeScript as they start; the limits bound a hang, they time nothing.
vi.setConfig({ testTimeout: 600_000, hookTimeout: 240_000 });

const HAPROXY = '/usr/sbin/haproxy';
/** haproxy checks every CHECK_MS and takes a server out after CHECK_FALL failed checks. */
const CHECK_MS = 500;
const CHECK_FALL = 2;
/** A check answered this late still counts: on a loaded machine /ready can take a while, and a slow answer is not a failure. */
const CHECK_TIMEOUT_MS = 5000;
/** The drain covers the checks haproxy needs to see /ready fail, and one interval more. */
const DRAIN_MS = CHECK_MS * (CHECK_FALL + 1) + 1000;

interface Role {
  name: string;
  entry: string;
  portVariable: 'PORT' | 'REDIRECT_PORT';
  port: number;
  child?: ChildProcess;
}

describe.skipIf(!existsSync(HAPROXY))('a rolling restart behind haproxy', () => {
  let api: TestApi;
  let key: string;
  let slug: string;
  let haproxy: ChildProcess | undefined;
  let dir: string;
  const roles: Role[] = [];
  let apiFront: number;
  let redirectFront: number;
  let statsPort: number;

  beforeAll(async () => {
    api = await startTestApi();
    key = (await createTestAccount(api.ctx)).key;
    slug = (await createLinkVia(api.app, key)).slug;
    for (const [name, entry, portVariable] of [
      ['api1', 'api/server.ts', 'PORT'],
      ['api2', 'api/server.ts', 'PORT'],
      ['redirect1', 'redirect/server.ts', 'REDIRECT_PORT'],
      ['redirect2', 'redirect/server.ts', 'REDIRECT_PORT'],
    ] as const) {
      roles.push({ name, entry, portVariable, port: await freePort() });
    }
    [apiFront, redirectFront, statsPort] = [await freePort(), await freePort(), await freePort()];
    dir = mkdtempSync(join(tmpdir(), 'qrlinks-haproxy-'));
    const server = (role: Role) => `  server ${role.name} 127.0.0.1:${role.port} check inter ${CHECK_MS} fall ${CHECK_FALL} rise 2\n`;
    const backend = (name: string, prefix: string) =>
      `backend ${name}\n  option httpchk GET /ready\n  http-check expect status 200\n` +
      roles
        .filter((r) => r.name.startsWith(prefix))
        .map(server)
        .join('');
    writeFileSync(
      join(dir, 'haproxy.cfg'),
      `global\n  log stderr format raw local0 err\n` +
        `defaults\n  mode http\n  log global\n  timeout check ${CHECK_TIMEOUT_MS}\n  timeout connect 2s\n  timeout client 30s\n  timeout server 30s\n  timeout http-keep-alive 30s\n` +
        `frontend stats\n  bind 127.0.0.1:${statsPort}\n  stats enable\n  stats uri /stats\n` +
        `frontend api\n  bind 127.0.0.1:${apiFront}\n  default_backend apis\n` +
        `frontend redirect\n  bind 127.0.0.1:${redirectFront}\n  default_backend redirects\n` +
        backend('apis', 'api') +
        backend('redirects', 'redirect'),
    );
    await Promise.all(roles.map(start));
    haproxy = spawn(HAPROXY, ['-f', join(dir, 'haproxy.cfg'), '-db'], { stdio: ['ignore', 'inherit', 'inherit'] });
    await until(async () => (await serversUp()).size === roles.length, 120_000);
  });

  afterAll(async () => {
    await Promise.all(roles.flatMap((role) => (role.child ? [stopProcess(role.child, 'SIGKILL')] : [])));
    if (haproxy) await stopProcess(haproxy, 'SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
    await api?.close();
  });

  async function start(role: Role): Promise<void> {
    role.child = startEntry(role.entry, [], {
      [role.portVariable]: String(role.port),
      SHUTDOWN_READY_DRAIN_MS: String(DRAIN_MS),
      // A spool folder each: two redirects starting at once both recovered the same write-ahead
      // file of a stopped one, and the second crashed on its disappearance (reported, not this test's subject).
      SCAN_SPOOL_DIR: join(dir, `spool-${role.name}`),
    });
    role.child.stderr!.pipe(process.stderr);
    role.child.stdout!.pipe(process.stdout);
    // Started again on the same port: up once the process itself answers /ready.
    await until(async () => (await fetch(`http://127.0.0.1:${role.port}/ready`).catch(() => null))?.status === 200, 120_000);
  }

  /** The servers haproxy routes to now, from its stats CSV (pxname,svname,…,status at column 17). */
  async function serversUp(): Promise<Set<string>> {
    const res = await fetch(`http://127.0.0.1:${statsPort}/stats;csv`).catch(() => null); // not listening yet
    const csv = res ? await res.text() : '';
    const up = new Set<string>();
    for (const line of csv.split('\n')) {
      const cells = line.split(',');
      if (cells[17] === 'UP' && roles.some((r) => r.name === cells[1])) up.add(cells[1]!);
    }
    return up;
  }

  it('drops no request while each api and redirect is stopped and started in turn', async () => {
    const failures: string[] = [];
    const counts = { api: 0, redirect: 0 };
    let running = true;
    // Node's fetch keeps its connections to haproxy alive; haproxy keeps its own to the servers.
    const loop = async (kind: 'api' | 'redirect') => {
      while (running) {
        const url = kind === 'api' ? `http://127.0.0.1:${apiFront}/api/v1/me` : `http://127.0.0.1:${redirectFront}/${slug}`;
        try {
          const res = await fetch(url, { headers: kind === 'api' ? { authorization: `Basic ${key}` } : {}, redirect: 'manual' });
          const body = await res.text();
          if (res.status !== (kind === 'api' ? 200 : 302)) failures.push(`${kind} ${res.status} ${body.slice(0, 80)}`);
          else counts[kind]++;
        } catch (err) {
          failures.push(`${kind} ${(err as Error).message} ${String((err as { cause?: unknown }).cause)}`);
        }
      }
    };
    const loops = [...Array.from({ length: 3 }, () => loop('api')), ...Array.from({ length: 3 }, () => loop('redirect'))];
    try {
      for (const role of roles) {
        const before = { ...counts };
        const gone = exited(role.child!);
        role.child!.kill('SIGTERM');
        await gone;
        expect(role.child!.exitCode).toBe(0);
        await start(role);
        await until(async () => (await serversUp()).has(role.name), 60_000);
        // The load went on through the restart, not just around it.
        expect(counts.api).toBeGreaterThan(before.api);
        expect(counts.redirect).toBeGreaterThan(before.redirect);
      }
    } finally {
      running = false;
      await Promise.all(loops);
    }
    const tally: Record<string, number> = {};
    for (const f of failures) tally[f] = (tally[f] ?? 0) + 1;
    expect(tally).toEqual({});
  });
});
