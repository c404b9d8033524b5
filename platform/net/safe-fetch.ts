/**
 * A GET for URLs that users hand us (SSRF-safe): it only ever connects to public addresses.
 *
 * - Schemes: http: and https: only; no credentials in the URL.
 * - Ports: any, except the Fetch standard's "bad ports" (the list browsers refuse: SMTP, SSH, IRC,
 *   LDAP...). Reaching a public host on an odd port is nothing a browser showing the same URL in an
 *   <img> would not do, and the address rule below is what keeps us out of private networks.
 * - Addresses: the name is resolved here (dns.lookup, all addresses), and the request fails if ANY
 *   answer is not public (ip-ranges.ts), unless it is inside `allowCidrs`. A literal IP is judged
 *   the same way; odd spellings (2130706433, 0177.0.0.1, 0x7f.1, ::ffff:127.0.0.1) are normalised
 *   by the WHATWG URL parser first, so they are judged as the address they really are.
 * - Pinning: the socket connects to the very address that was checked (a custom `lookup` hands it
 *   to the http client), so a DNS answer that changes between check and connect (rebinding) cannot
 *   redirect us. The Host header and TLS SNI/certificate check still use the URL's name.
 * - Redirects (301, 302, 303, 307, 308) are followed by hand, at most `maxRedirects` (default 3),
 *   and every hop is checked again from scratch: scheme, credentials, port, DNS, addresses.
 * - Limits: a Content-Length over `maxBytes` is refused before the body is read, and the body is
 *   counted while it streams (the request is destroyed past the cap). One deadline (`timeoutMs`)
 *   covers everything: DNS, connects, redirects and the whole body.
 * - No cookies, no proxy, no keep-alive (agent: false), `Accept-Encoding: identity` (no
 *   decompression, so the byte cap is the memory cap).
 *
 * Failures are SafeFetchErrors whose `code` says what went wrong; their messages are safe to show
 * (no addresses we resolved, no system error text).
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { inRanges, isPublicAddress, parseCidrList } from './ip-ranges.js';

export type SafeFetchErrorCode =
  | 'invalid_url'
  | 'scheme'
  | 'credentials'
  | 'port'
  | 'non_public_address'
  | 'dns'
  | 'timeout'
  | 'too_many_redirects'
  | 'bad_redirect'
  | 'http_status'
  | 'too_large'
  | 'network';

const MESSAGES: Record<SafeFetchErrorCode, string> = {
  invalid_url: 'URL is not valid',
  scheme: 'URL must be http or https',
  credentials: 'URL must not contain a user name or password',
  port: 'URL port is not allowed',
  non_public_address: 'URL must resolve to a public address',
  dns: 'URL host could not be resolved',
  timeout: 'timeout',
  too_many_redirects: 'URL redirects too many times',
  bad_redirect: 'URL redirects to an invalid location',
  http_status: 'unexpected HTTP status',
  too_large: 'response is too large',
  network: 'connection failed',
};

export class SafeFetchError extends Error {
  override name = 'SafeFetchError';
  constructor(
    readonly code: SafeFetchErrorCode,
    /** The HTTP status for `http_status`. */
    readonly status?: number,
  ) {
    super(code === 'http_status' && status ? `unexpected HTTP status ${status}` : MESSAGES[code]);
  }
}

/** The Fetch standard's bad ports (https://fetch.spec.whatwg.org/#bad-port), which browsers never connect to. */
export const BAD_PORTS: ReadonlySet<number> = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
  119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
  989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
export const DEFAULT_MAX_REDIRECTS = 3;

export interface SafeFetchOptions {
  /** The most body bytes accepted. */
  maxBytes: number;
  /** One deadline for the whole fetch: DNS, connects, every redirect and the body. */
  timeoutMs: number;
  maxRedirects?: number;
  /** Comma-separated CIDRs (or parsed ones) whose addresses are allowed although not public. */
  allowCidrs?: string | ReturnType<typeof parseCidrList>;
  /** Extra request headers (Accept, User-Agent...). Host is always the URL's. */
  headers?: Record<string, string>;
  /** How names are resolved (default: dns.lookup with all addresses); tests replace it. */
  resolve?: Resolver;
}

/** Every address a name has, as dns.lookup(name, { all: true }) answers. */
export type Resolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true });

export interface SafeFetchResponse {
  /** The URL finally answered (after redirects). */
  url: string;
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Checks what can be checked without the network; throws a SafeFetchError. */
export function checkFetchUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    throw new SafeFetchError('invalid_url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SafeFetchError('scheme');
  if (url.username !== '' || url.password !== '') throw new SafeFetchError('credentials');
  if (url.port !== '' && BAD_PORTS.has(Number(url.port))) throw new SafeFetchError('port');
  if (url.hostname === '') throw new SafeFetchError('invalid_url');
  return url;
}

/** The URL's host as a socket wants it: IPv6 literals without brackets. */
function bareHost(url: URL): string {
  const h = url.hostname;
  return h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h;
}

/**
 * The address to connect to for the URL's host, after checking every address the name has.
 * Throws `non_public_address` when any of them is neither public nor allowed.
 */
export async function resolveAllowed(
  url: URL,
  allow: ReturnType<typeof parseCidrList> = [],
  resolve: Resolver = systemResolver,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = bareHost(url);
  const allowed = (ip: string) => isPublicAddress(ip) || inRanges(ip, allow);
  const literal = isIP(host);
  if (literal !== 0) {
    if (!allowed(host)) throw new SafeFetchError('non_public_address');
    return { address: host, family: literal as 4 | 6 };
  }
  let answers: Array<{ address: string; family: number }>;
  try {
    answers = await resolve(host);
  } catch {
    throw new SafeFetchError('dns');
  }
  if (answers.length === 0) throw new SafeFetchError('dns');
  if (!answers.every((a) => allowed(a.address))) throw new SafeFetchError('non_public_address');
  const first = answers[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A lookup that answers every question with the one address we validated. */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}

export async function safeFetch(input: string | URL, opts: SafeFetchOptions): Promise<SafeFetchResponse> {
  const allow = typeof opts.allowCidrs === 'string' ? parseCidrList(opts.allowCidrs) : (opts.allowCidrs ?? []);
  const maxRedirects = opts.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const { signal, race, end } = deadline(opts.timeoutMs);
  try {
    let url = checkFetchUrl(input);
    for (let redirects = 0; ; redirects++) {
      const target = await race(resolveAllowed(url, allow, opts.resolve));
      const res = await race(send(url, target, { method: 'GET', headers: opts.headers ?? {} }, signal));
      const status = res.statusCode ?? 0;
      if (REDIRECT_STATUSES.has(status)) {
        res.destroy();
        if (redirects >= maxRedirects) throw new SafeFetchError('too_many_redirects');
        const location = res.headers.location;
        if (!location) throw new SafeFetchError('bad_redirect');
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw new SafeFetchError('bad_redirect');
        }
        url = checkFetchUrl(next);
        continue;
      }
      if (status < 200 || status > 299) {
        res.destroy();
        throw new SafeFetchError('http_status', status);
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.destroy();
        throw new SafeFetchError('too_large');
      }
      const body = await race(readBody(res, opts.maxBytes));
      return { url: url.href, status, headers: res.headers, body };
    }
  } catch (err) {
    throw failureOf(err, signal);
  } finally {
    end();
  }
}

/**
 * One deadline over a whole request: `race` makes any step fail with `timeout` once it passes,
 * `end` stops the clock and destroys whatever is still in flight (a body we stopped reading).
 */
function deadline(timeoutMs: number) {
  const controller = new AbortController();
  const { signal } = controller;
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  // Whatever fails once the deadline has passed failed because of it.
  const timedOut = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(new SafeFetchError('timeout')), { once: true });
  });
  timedOut.catch(() => undefined); // raced, never awaited alone: a rejection nobody raced against is not an error
  return {
    signal,
    race: <T>(p: Promise<T>) => Promise.race([p, timedOut]),
    end: () => {
      clearTimeout(timer);
      controller.abort();
    },
  };
}

/** What a failed request throws: a timeout once the deadline passed, our own errors as they are, anything else `network`. */
function failureOf(err: unknown, signal: AbortSignal): SafeFetchError {
  if (signal.aborted) return new SafeFetchError('timeout');
  if (err instanceof SafeFetchError) return err;
  return new SafeFetchError('network');
}

interface SentRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Buffer;
}

function send(url: URL, target: { address: string; family: 4 | 6 }, request: SentRequest, signal: AbortSignal): Promise<IncomingMessage> {
  const { method, headers, body } = request;
  return new Promise((resolve, reject) => {
    const options: https.RequestOptions = {
      protocol: url.protocol,
      hostname: bareHost(url),
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method,
      headers: {
        'accept-encoding': 'identity',
        ...headers,
        ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        host: url.host,
      },
      agent: false,
      lookup: pinnedLookup(target.address, target.family),
      family: target.family,
      signal,
    };
    const req = (url.protocol === 'https:' ? https : http).request(options, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

export interface SafePostOptions {
  body: string;
  headers: Record<string, string>;
  /** One deadline for the whole request: DNS, connect, sending and the answer. */
  timeoutMs: number;
  /** The answer's first bytes kept; the rest is not read. */
  keepBytes: number;
  allowCidrs?: string | ReturnType<typeof parseCidrList>;
  resolve?: Resolver;
}

export interface SafePostResponse {
  status: number;
  /** The answer's first `keepBytes` bytes. */
  head: Buffer;
}

/**
 * A POST to a URL a user gave (a webhook's), under the same address rules as `safeFetch`. Any
 * status is an answer (the caller decides what it means), and a redirect is not followed: a
 * receiver that moved says so with its status. Only the answer's first `keepBytes` are read.
 */
export async function safePost(input: string | URL, opts: SafePostOptions): Promise<SafePostResponse> {
  const allow = typeof opts.allowCidrs === 'string' ? parseCidrList(opts.allowCidrs) : (opts.allowCidrs ?? []);
  const { signal, race, end } = deadline(opts.timeoutMs);
  try {
    const url = checkFetchUrl(input);
    const target = await race(resolveAllowed(url, allow, opts.resolve));
    const res = await race(send(url, target, { method: 'POST', headers: opts.headers, body: opts.body }, signal));
    const head = await race(readHead(res, opts.keepBytes));
    return { status: res.statusCode ?? 0, head };
  } catch (err) {
    throw failureOf(err, signal);
  } finally {
    end();
  }
}

/** The body's first `keep` bytes; the connection is dropped once they are in. */
async function readHead(res: IncomingMessage, keep: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    const buf = chunk as Buffer;
    chunks.push(buf);
    size += buf.length;
    if (size >= keep) {
      res.destroy();
      break;
    }
  }
  return Buffer.concat(chunks, size).subarray(0, keep);
}

async function readBody(res: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > maxBytes) {
      res.destroy();
      throw new SafeFetchError('too_large');
    }
    chunks.push(buf);
  }
  if (!res.complete) throw new SafeFetchError('network');
  return Buffer.concat(chunks, size);
}
