/**
 * DNS questions asked of the servers the operator names (DNS_SERVERS; else the machine's own),
 * each bounded in time: a server that never answers costs a check at most `timeoutMs` per
 * question, never a hung request. "No such name" and "no such record" are empty answers, not
 * errors; a timeout or a refusal is an error the caller reports as what it saw.
 */
import { Resolver } from 'node:dns/promises';
import { within } from '../with-timeout.js';

export interface DnsResolverOptions {
  /** `ip` or `ip:port` each; empty: the machine's resolvers. */
  servers: readonly string[];
  timeoutMs: number;
}

/** The answer to one question: the records, or why there is no answer. */
export type DnsAnswer<T> = { records: T } | { error: string };

/** Error codes that mean "nothing of that kind at that name": an empty answer. */
const EMPTY = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

export class DnsResolver {
  private readonly resolver: Resolver;

  constructor(private readonly options: DnsResolverOptions) {
    // c-ares retries each server itself; one try each, and the whole question bounded below.
    this.resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
    if (options.servers.length > 0) this.resolver.setServers([...options.servers]);
  }

  /** TXT strings at `name`, each record's chunks joined as RFC 7208 says. */
  txt(name: string): Promise<DnsAnswer<string[]>> {
    return this.ask(() => this.resolver.resolveTxt(name).then((rows) => rows.map((chunks) => chunks.join(''))), []);
  }

  /** The addresses `name` resolves to, A then AAAA, through any CNAME chain. */
  async addresses(name: string): Promise<DnsAnswer<string[]>> {
    const [v4, v6] = await Promise.all([
      this.ask(() => this.resolver.resolve4(name), []),
      this.ask(() => this.resolver.resolve6(name), []),
    ]);
    if ('error' in v4 && 'error' in v6) return v4;
    return { records: [...('records' in v4 ? v4.records : []), ...('records' in v6 ? v6.records : [])] };
  }

  /** The name `name` is an alias of (its CNAME), or null. */
  cname(name: string): Promise<DnsAnswer<string | null>> {
    return this.ask(() => this.resolver.resolveCname(name).then((targets) => targets[0] ?? null), null);
  }

  /** `question`'s answer; `none` when the name or the record does not exist. */
  private async ask<T>(question: () => Promise<T>, none: T): Promise<DnsAnswer<T>> {
    try {
      const answer = await within(question(), this.options.timeoutMs + 250, TIMED_OUT);
      if (answer === TIMED_OUT) return { error: 'no answer in time' };
      return { records: answer };
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (EMPTY.has(code)) return { records: none };
      return {
        error: code === 'ETIMEOUT' ? 'no answer in time' : code === 'ECONNREFUSED' ? 'the DNS server refused' : code || 'lookup failed',
      };
    }
  }
}

const TIMED_OUT = Symbol('timed out');
