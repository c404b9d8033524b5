/**
 * A TCP proxy on a free loopback port in front of a real server (Redis, Postgres), to play an
 * outage without touching the server: `cut()` resets every open connection and every new one
 * until `restore()`. Clients see what they see when the server goes away (ECONNRESET), and
 * reconnect by themselves once it is back.
 */
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** `target` with the proxy's host and port in its place (e.g. a redis:// or postgres:// URL). */
  url(target: string): string;
  /** Resets all connections now and any made until restore(). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cut = false;
  const server = createServer((client) => {
    if (cut) return client.resetAndDestroy();
    const upstream = createConnection({ host: targetHost, port: targetPort });
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      // Either side failing ends both; the error itself is the outage being played.
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url(target) {
      const u = new URL(target);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut() {
      cut = true;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    restore() {
      cut = false;
    },
    close() {
      for (const socket of open) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A proxy in front of the server a URL names (redis://, postgres://; `defaultPort` when it names none). */
export function startTcpProxyFor(url: string, defaultPort: number): Promise<TcpProxy> {
  const target = new URL(url);
  return startTcpProxy(target.hostname, Number(target.port || defaultPort));
}
