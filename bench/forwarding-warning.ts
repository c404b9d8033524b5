/**
 * What the untrusted-proxy warning (warnOfUntrustedForwarding, platform/net/client-identity.ts)
 * adds to every request while it listens: a second listener on the server's `request` event, which
 * reads X-Forwarded-For and, when the header is there, the peer's memoized trust. Measured without
 * the noise of a load test: the server's `request` event emitted in a tight loop with and without
 * the warning's listener (the baseline, in the same run, interleaved), for a request without the
 * header (no balancer) and one forwarded by a trusted balancer. Neither logs, so the warning's
 * listener stays attached; the difference is its work per request, to set against the redirect's
 * time per scan (`npm run bench -- redirect`: 1 / (a)'s req/s).
 */
import { createServer, type IncomingMessage } from 'node:http';
import { pino } from 'pino';
import { ProxyTrust, warnOfUntrustedForwarding } from '#platform/net/client-identity.js';
import { median, printTable } from './support.js';

const CALLS = Number(process.env.BENCH_FORWARDING_CALLS ?? 2_000_000);
const ROUNDS = Number(process.env.BENCH_RUNS ?? 11);

export async function benchForwardingWarning(): Promise<string> {
  const requests: Array<[string, IncomingMessage]> = [
    ['no X-Forwarded-For (no balancer)', asRequest({ headers: {}, socket: { remoteAddress: '203.0.113.7' } })],
    [
      'X-Forwarded-For from a trusted balancer',
      asRequest({ headers: { 'x-forwarded-for': '203.0.113.7' }, socket: { remoteAddress: '10.0.0.2' } }),
    ],
  ];
  let handled = 0;
  /** A server whose only other listener stands for Fastify's handler. */
  const serverWith = (warning: boolean) => {
    const server = createServer();
    server.on('request', () => handled++);
    if (warning) warnOfUntrustedForwarding(server, new ProxyTrust('10.0.0.0/24'), pino({ level: 'silent' }));
    return server;
  };
  const plainServer = serverWith(false);
  const warnedServer = serverWith(true);
  const nsPerRequest = (server: ReturnType<typeof createServer>, request: IncomingMessage): number => {
    const started = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) server.emit('request', request, null);
    return Number(process.hrtime.bigint() - started) / CALLS;
  };
  const rows: string[][] = [];
  for (const [shape, request] of requests) {
    nsPerRequest(plainServer, request); // warm-up of both
    nsPerRequest(warnedServer, request);
    const plain: number[] = [];
    const warned: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating which goes first, so a drift of the machine's speed falls on both.
      if (round % 2) {
        plain.push(nsPerRequest(plainServer, request));
        warned.push(nsPerRequest(warnedServer, request));
      } else {
        warned.push(nsPerRequest(warnedServer, request));
        plain.push(nsPerRequest(plainServer, request));
      }
    }
    const added = warned.map((w, i) => w - plain[i]!);
    rows.push([
      shape,
      median(plain).toFixed(1),
      median(warned).toFixed(1),
      `${median(added).toFixed(1)} ns (rounds: ${added.map((a) => a.toFixed(0)).join(', ')})`,
    ]);
  }
  if (handled === 0) throw new Error('the request listener never ran');
  return printTable(
    `forwarding-warning: the server's request event emitted ${CALLS.toLocaleString('en')} times a round, ${ROUNDS} rounds, interleaved; medians`,
    ['request', 'ns without the warning (baseline)', 'ns with it', 'added by the warning'],
    rows,
  );
}

/** A stand-in request: the headers and the peer address, all the check reads (platform/net/client-identity.ts), checked present. */
function asRequest(value: { headers: object; socket: { remoteAddress: string } }): IncomingMessage {
  if (!readsAsRequest(value)) throw new Error('the stand-in lacks a field the check reads');
  return value;
}

function readsAsRequest(value: object): value is IncomingMessage {
  return 'headers' in value && 'socket' in value;
}
