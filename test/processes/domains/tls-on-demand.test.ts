/**
 * TLS on demand behind a real Caddy (Debian's `caddy`): Caddy asks the redirect's
 * `/internal/tls-ask` before it gets a certificate for a name, from its own internal CA here (no
 * ACME server on this machine). A verified brand domain gets a certificate and its requests reach
 * the redirect over HTTPS; a name nobody added fails the handshake; a domain removed before its
 * first visit never gets one. Domains are proved through a real DNS server on loopback.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTestAccount, startTestApi, type TestAccount, type TestApi } from '../../support/harness.js';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.js';
import { startTestRedirect, type TestRedirect } from '../../support/redirect.js';
import { exited, freePort } from '../../support/processes.js';
import { until } from '../../support/until.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const CADDY = '/usr/bin/caddy';
/** Skipped on a machine without Caddy, never under CI (.ci/run installs it), where its absence fails. */
const runs = existsSync(CADDY) || Boolean(process.env.CI);
const V4 = '203.0.113.10';

describe.skipIf(!runs)('TLS on demand behind Caddy', () => {
  let dns: TestDnsServer;
  let api: TestApi;
  let redirect: TestRedirect;
  let me: TestAccount;
  let caddy: ChildProcess | undefined;
  let dir: string;
  let httpsPort: number;
  let caddyLog = '';

  beforeAll(async () => {
    if (!existsSync(CADDY))
      throw new Error(`Caddy is missing at ${CADDY} (under CI this test fails rather than skips): apt-get install caddy`);
    dns = await startDnsServer();
    api = await startTestApi({ DNS_SERVERS: dns.address, DOMAIN_TARGET_ADDRESSES: V4, SHORT_URL_BASE: 'https://qr.example.net' });
    me = await createTestAccount(api.ctx, { plan: 'enterprise' });
    redirect = await startTestRedirect(api.ctx);
    dir = mkdtempSync(join(tmpdir(), 'qrlinks-caddy-'));
    httpsPort = await freePort();
    const httpPort = await freePort();
    const redirectAddress = redirect.base.replace('http://', '');
    // deploy/Caddyfile's shape, on loopback ports, with Caddy's internal CA for every name.
    writeFileSync(
      join(dir, 'Caddyfile'),
      [
        '{',
        '\tadmin off',
        `\thttp_port ${httpPort}`,
        `\thttps_port ${httpsPort}`,
        `\tstorage file_system {\n\t\troot ${join(dir, 'data')}\n\t}`,
        '\tlocal_certs',
        '\tskip_install_trust',
        `\ton_demand_tls {\n\t\task http://${redirectAddress}/internal/tls-ask\n\t}`,
        '}',
        'https:// {',
        '\ttls internal {\n\t\ton_demand\n\t}',
        `\treverse_proxy ${redirectAddress}`,
        '}',
        '',
      ].join('\n'),
    );
    caddy = spawn(CADDY, ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'xdg'), XDG_CONFIG_HOME: join(dir, 'xdg') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    caddy.stderr!.on('data', (d) => (caddyLog += d));
    await until(() => caddyLog.includes('serving initial configuration') || caddy!.exitCode !== null, 20_000);
    if (caddy.exitCode !== null) throw new Error(`caddy exited: ${caddyLog}`);
  });
  afterAll(async () => {
    if (caddy && caddy.exitCode === null) {
      caddy.kill('SIGTERM');
      await exited(caddy);
    }
    await redirect?.close();
    await api?.close();
    await dns?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A TLS handshake with Caddy for `name`: the certificate it shows, or the error. */
  const handshake = (name: string) =>
    new Promise<{ cert: PeerCertificate } | { error: string }>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port: httpsPort, servername: name, rejectUnauthorized: false }, () => {
        resolve({ cert: socket.getPeerCertificate() });
        socket.end();
      });
      socket.on('error', (err) => resolve({ error: err.message }));
    });

  /** GET over HTTPS through Caddy, trusting only Caddy's own root: status and body. */
  const get = (name: string, path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const ca = readFileSync(join(dir, 'data', 'pki', 'authorities', 'local', 'root.crt'));
      const req = request({ host: '127.0.0.1', port: httpsPort, servername: name, path, headers: { host: name }, ca }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });

  async function verifiedDomain(label: string): Promise<{ id: string; hostname: string }> {
    const hostname = `${label}.brand-${process.pid}.example`;
    const res = await call(api.app, me.key, 'POST', '/api/v1/domains', { hostname });
    expect(res.statusCode, res.body).toBe(201);
    const domain = res.json<{ id: string; token: string }>();
    dns.zone.set(`_qrlinks-challenge.${hostname}`, { TXT: [domain.token] });
    dns.zone.set(hostname, { A: [V4] });
    const checked = await call(api.app, me.key, 'POST', `/api/v1/domains/${domain.id}/verify`);
    expect(checked.json().data.state).toBe('verified');
    return { id: domain.id, hostname };
  }

  it('a verified domain gets a certificate from the ask, and its requests reach the redirect over HTTPS', async () => {
    const { hostname } = await verifiedDomain('menu');
    // The redirect hears of the verification over Redis; Caddy asks at the handshake.
    await expect.poll(async () => (await redirect.get(`/internal/tls-ask?domain=${hostname}`)).status).toBe(200);
    const shown = await handshake(hostname);
    expect(shown, JSON.stringify(shown)).toHaveProperty('cert');
    expect('cert' in shown && shown.cert.subjectaltname).toBe(`DNS:${hostname}`);
    const health = await get(hostname, '/health');
    expect(health.status).toBe(200);
  });

  it('a name nobody added fails the handshake', async () => {
    const shown = await handshake(`unknown-${process.pid}.example`);
    expect(shown).toHaveProperty('error');
    expect('error' in shown && shown.error).toMatch(/alert internal error|handshake|ECONNRESET/);
  });

  it('a domain removed after verification, before any visit, never gets a certificate', async () => {
    const { id, hostname } = await verifiedDomain('gone');
    await expect.poll(async () => (await redirect.get(`/internal/tls-ask?domain=${hostname}`)).status).toBe(200);
    expect((await call(api.app, me.key, 'DELETE', `/api/v1/domains/${id}`)).statusCode).toBe(200);
    await expect.poll(async () => (await redirect.get(`/internal/tls-ask?domain=${hostname}`)).status).toBe(404);
    expect(await handshake(hostname)).toHaveProperty('error');
  });
});
