/**
 * A real DNS server on loopback (dns2, UDP) answering from a zone the test edits as it goes, so
 * brand domains are checked through the same resolver code as in production, never a mock of
 * the lookup. Names are lower case without a trailing dot. An A or AAAA question about a name
 * with a CNAME is answered as a recursive server would: the CNAME, then the target's records.
 * `silence(name)` makes the server never answer questions about a name (a timeout).
 */
import dns2 from 'dns2';

const { Packet } = dns2;

export interface ZoneEntry {
  A?: string[];
  AAAA?: string[];
  TXT?: string[];
  CNAME?: string;
}

export interface TestDnsServer {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  address: string;
  zone: Map<string, ZoneEntry>;
  silence(name: string): void;
  /** Questions asked so far, as `TYPE name`. */
  asked: string[];
  close(): Promise<void>;
}

/** "No such name" (RFC 1035); dns2's types leave Packet.RCODE out. */
const NXDOMAIN = 3;

/**
 * A record as dns2 encodes it: plain fields, which its message encoder writes through
 * Packet.Resource.encode. Its types also want a record's own toBuffer, which that path never calls.
 */
const record = (fields: Omit<dns2.Packet.Resource, 'toBuffer'>): dns2.Packet.Resource => ({
  ...fields,
  toBuffer: () => {
    throw new Error('dns2 encodes answers with Packet.Resource.encode');
  },
});

const TYPE_NAMES: Record<number, string> = {
  [Packet.TYPE.A]: 'A',
  [Packet.TYPE.AAAA]: 'AAAA',
  [Packet.TYPE.TXT]: 'TXT',
  [Packet.TYPE.CNAME]: 'CNAME',
};

export async function startDnsServer(): Promise<TestDnsServer> {
  const zone = new Map<string, ZoneEntry>();
  const silenced = new Set<string>();
  const asked: string[] = [];
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (!question) return void send(response);
      const name = question.name.toLowerCase().replace(/\.$/, '');
      const type = TYPE_NAMES[question.type] ?? String(question.type);
      asked.push(`${type} ${name}`);
      if (silenced.has(name)) return;
      const entry = zone.get(name);
      if (!entry) {
        response.header.rcode = NXDOMAIN;
        return void send(response);
      }
      const answer = (owner: string, e: ZoneEntry) => {
        const base = { name: owner, class: Packet.CLASS.IN, ttl: 60 };
        if (type === 'TXT') for (const data of e.TXT ?? []) response.answers.push(record({ ...base, type: Packet.TYPE.TXT, data }));
        if (type === 'A') for (const address of e.A ?? []) response.answers.push(record({ ...base, type: Packet.TYPE.A, address }));
        if (type === 'AAAA')
          for (const address of e.AAAA ?? []) response.answers.push(record({ ...base, type: Packet.TYPE.AAAA, address }));
      };
      if (entry.CNAME && type !== 'TXT') {
        response.answers.push(record({ name, class: Packet.CLASS.IN, ttl: 60, type: Packet.TYPE.CNAME, domain: entry.CNAME }));
        const target = zone.get(entry.CNAME);
        if (target && type !== 'CNAME') answer(entry.CNAME, target);
      } else {
        answer(name, entry);
      }
      void send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
  return {
    address: `127.0.0.1:${addresses.udp!.port}`,
    zone,
    silence: (name) => silenced.add(name),
    asked,
    close: () => server.close(),
  };
}
