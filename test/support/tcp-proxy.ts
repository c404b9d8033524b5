/**
 * A TCP proxy on a free loopback port in front of a real server (Redis, Postgres), to play an
 * outage without touching the server: `cut()` resets every open connection and every new one
 * until `restore()`. Clients see what they see when the server goes away (ECONNRESET), and
 * reconnect by themselves once it is back. `hang()` plays a server that stops answering (SIGSTOP,
 * a network that stops delivering) instead: connections stay open and nothing is forwarded.
 */
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  /** The proxy's port on 127.0.0.1. */
  port: number;
  /** `target` with the proxy's host and port in its place (e.g. a redis:// or postgres:// URL). */
  url(target: string): string;
  /** Resets all connections now and any made until restore(). */
  cut(): void;
  /**
   * Stops forwarding until restore(): open connections and new ones stay open, and what either
   * side sends waits unread, as for a stopped server, then flows on in order.
   */
  hang(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let cut = false;
  let hung = false;
  const forward = ([client, upstream]: [Socket, Socket]) => {
    client.pipe(upstream);
    upstream.pipe(client);
  };
  const hold = ([client, upstream]: [Socket, Socket]) => {
    client.unpipe(upstream);
    upstream.unpipe(client);
    client.pause();
    upstream.pause();
  };
  const server = createServer((client) => {
    if (cut) return client.resetAndDestroy();
    const upstream = createConnection({ host: targetHost, port: targetPort });
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    for (const socket of pair) {
      open.add(socket);
      socket.on('close', () => {
        open.delete(socket);
        pairs.delete(pair);
      });
      // Either side failing ends both; the error itself is the outage being played.
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    if (hung) hold(pair);
    else forward(pair);
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
    hang() {
      if (hung) return;
      hung = true;
      for (const pair of pairs) hold(pair);
    },
    restore() {
      cut = false;
      if (!hung) return;
      hung = false;
      for (const pair of pairs) forward(pair);
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
