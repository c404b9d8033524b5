/**
 * Who scanned, from the request's user agent and client address, for the scan record and for
 * smart-url rules. Runs on the redirect hot path: user agents are parsed once per distinct string
 * (bounded cache), non-public addresses never reach the geo database, and the database is read
 * once per process. The address is only looked up, never kept or returned.
 */
import { loadGeo, type Geo } from './geo.js';
import type { Visitor } from './types.js';
import { createUserAgentParser, type UserAgentFacts } from './user-agent.js';

/** The visitor is frozen and shared by every scan with the same user agent facts and place. */
export type DescribeVisitor = (userAgent: string | undefined, ip: string | undefined, opts?: { head?: boolean }) => Readonly<Visitor>;

/** Distinct user agents whose description is kept (a few MB). */
const USER_AGENT_CACHE_ENTRIES = 10_000;

const NO_GEO: Geo = Object.freeze({ countryCode: null, countryName: null, region: null, city: null });

/**
 * Makes the process's `describeVisitor`; call once at start (it waits for the geo database).
 * A HEAD request (a link preview or a checker), an isbot match or a missing user agent makes
 * `isBot` true: such scans are recorded but never count toward a scan limit.
 */
export async function createVisitorDescriber(): Promise<DescribeVisitor> {
  const geo = await loadGeo();
  const parseUserAgent = createUserAgentParser(USER_AGENT_CACHE_ENTRIES);
  // Visitors are interned: the same user agent facts (one object per cached user agent) and the
  // same place (one object per geo record) give the same frozen Visitor, so a scan allocates
  // nothing here and the recorder can index a batch's visitors by identity instead of by a key
  // string built per scan. Weak maps: an entry goes when its user agent or place leaves its cache.
  const visitors = new WeakMap<UserAgentFacts, WeakMap<Geo, Visitor>>();
  const previews = new WeakMap<UserAgentFacts, UserAgentFacts>();
  return (userAgent, ip, { head = false } = {}) => {
    let agent = parseUserAgent(userAgent);
    if (head && !agent.isBot) {
      let preview = previews.get(agent);
      if (!preview) {
        preview = { ...agent, isBot: true };
        previews.set(agent, preview);
      }
      agent = preview;
    }
    const place = (ip && geo.lookup(ip)) || NO_GEO;
    let byPlace = visitors.get(agent);
    if (!byPlace) {
      byPlace = new WeakMap();
      visitors.set(agent, byPlace);
    }
    let visitor = byPlace.get(place);
    if (!visitor) {
      visitor = Object.freeze({
        browserName: agent.browserName,
        deviceType: agent.deviceType,
        deviceVendor: agent.deviceVendor,
        osName: agent.osName,
        isBot: agent.isBot,
        countryCode: place.countryCode,
        countryName: place.countryName,
        region: place.region,
        city: place.city,
      });
      byPlace.set(place, visitor);
    }
    return visitor;
  };
}
