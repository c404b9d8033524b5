/**
 * Prometheus metrics (prom-client), one registry per process, every series labelled with the
 * process's role. Each role serves them at `/metrics` (api and redirect on their own port, the
 * worker on a small listener of its own: WORKER_METRICS_PORT). What a role knows anyway (its pool,
 * its scan recorder, its queues) is read when Prometheus scrapes, not counted on the hot path.
 * docs/decisions/0008-metrics.md lists the series.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type pg from 'pg';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { isPrivateNetworkAddress, type ProxyTrust } from '../net/client-identity.js';

export type Role = 'api' | 'redirect' | 'worker';

export interface RoleMetrics {
  registry: Registry;
  role: Role;
}

export function createRoleMetrics(role: Role): RoleMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ role });
  // Process CPU, memory, event-loop lag, GC: what tells a slow process from a slow dependency.
  collectDefaultMetrics({ register: registry, prefix: 'qrlinks_' });
  return { registry, role };
}

/** The process's Postgres pool: connections open, idle, and requests waiting for one. */
export function observePostgresPool(metrics: RoleMetrics, pool: pg.Pool): void {
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      collect() {
        this.set(read());
      },
    });
  gauge('qrlinks_pg_pool_connections', 'Postgres connections this process holds open', () => pool.totalCount);
  gauge('qrlinks_pg_pool_idle_connections', 'Of them, idle', () => pool.idleCount);
  gauge('qrlinks_pg_pool_waiting_requests', 'Queries waiting for a free connection', () => pool.waitingCount);
}

/** The process's QR render threads: renders running and waiting, and renders done with their time. */
/** What the render threads report of themselves: renders running and waiting now, and done so far. */
interface RenderActivitySource {
  activity(): { running: number; waiting: number; rendered: number; renderSeconds: number };
}

export function observeQrRenderer(metrics: RoleMetrics, qr: RenderActivitySource): void {
  const registers = [metrics.registry];
  new Gauge({
    name: 'qrlinks_qr_renders_running',
    help: 'QR renders running on worker threads now',
    registers,
    collect() {
      this.set(qr.activity().running);
    },
  });
  new Gauge({
    name: 'qrlinks_qr_renders_waiting',
    help: 'QR renders waiting for a thread now',
    registers,
    collect() {
      this.set(qr.activity().waiting);
    },
  });
  counterFrom(metrics, 'qrlinks_qr_renders_total', 'QR renders finished on worker threads', () => qr.activity().rendered);
  counterFrom(
    metrics,
    'qrlinks_qr_render_seconds_total',
    'Thread time of those renders, in seconds (÷ renders_total = mean render time)',
    () => qr.activity().renderSeconds,
  );
}

/**
 * A counter whose value a component already keeps as a running total (or one total per value of
 * `label`): each scrape adds what it grew by since the last one, so Prometheus sees an ordinary
 * counter and the component pays nothing per event.
 */
export function counterFrom(
  metrics: RoleMetrics,
  name: string,
  help: string,
  read: () => number | Record<string, number>,
  label?: string,
): void {
  const last = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames: label ? [label] : [],
    registers: [metrics.registry],
    collect() {
      const now = read();
      for (const [value, total] of Object.entries(typeof now === 'number' ? { '': now } : now)) {
        const grew = total - (last.get(value) ?? 0);
        if (grew > 0) label ? this.inc({ [label]: value }, grew) : this.inc(grew);
        last.set(value, total);
      }
    },
  });
}

/** Who may read a process's metrics: METRICS_TOKEN, and the peers whose X-Forwarded-For is believed. */
export interface ScrapeAccess {
  token: string | undefined;
  proxyTrust: ProxyTrust;
}

/**
 * Whether a scrape may read the metrics. With METRICS_TOKEN: `Authorization: Bearer <token>`, from
 * anywhere. Without it: a client on loopback or a private network only (`client`: the peer, or the
 * address a trusted proxy forwarded for), and never a request forwarded by a peer not in
 * TRUSTED_PROXIES (in any forwarding header: X-Forwarded-For, Forwarded, X-Real-IP, …), whose
 * client could be anyone. The redirect's port is public, and its metrics
 * tell platform-wide scan totals, routes, restarts and the Node version.
 */
export function scrapeVerdict(
  access: ScrapeAccess,
  request: Pick<IncomingMessage, 'headers' | 'socket'>,
  client: string,
): 'allowed' | 'unauthorized' | 'forbidden' {
  if (access.token) {
    const given = Buffer.from(request.headers.authorization ?? '');
    const wanted = Buffer.from(`Bearer ${access.token}`);
    return given.length === wanted.length && timingSafeEqual(given, wanted) ? 'allowed' : 'unauthorized';
  }
  return isPrivateNetworkAddress(client) && !access.proxyTrust.isUntrustedRelay(request) ? 'allowed' : 'forbidden';
}

/** What a refused scrape is told. */
export const SCRAPE_REFUSALS = {
  unauthorized: { status: 401, text: 'unauthorized\n' },
  forbidden: {
    status: 403,
    text: 'metrics are served to loopback and private networks only; set METRICS_TOKEN to scrape from elsewhere\n',
  },
} as const;

/**
 * The worker's listener: GET /metrics, and GET /health for its container's healthcheck (200 while
 * `healthy()` holds, else 503; open to any client, as the api's and the redirect's are).
 */
export function serveMetrics(
  metrics: RoleMetrics,
  opts: { host: string; port: number; access: ScrapeAccess; healthy: () => boolean },
): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url?.split('?')[0];
    if (req.method === 'GET' && path === '/health') {
      const ok = opts.healthy();
      res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify({ status: ok ? 'ok' : 'stopped' }));
      return;
    }
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const verdict = scrapeVerdict(opts.access, req, req.socket.remoteAddress ?? '');
    if (verdict !== 'allowed') {
      res.writeHead(SCRAPE_REFUSALS[verdict].status, { 'content-type': 'text/plain' }).end(SCRAPE_REFUSALS[verdict].text);
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(503, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => resolve(server));
  });
}
