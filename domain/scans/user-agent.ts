/**
 * What a user agent string says about the scanner: browser, device, OS (ua-parser-js 1.x, MIT)
 * and whether it is a bot (isbot). Parsing costs about 14 µs, and the same few thousand strings
 * arrive over and over, so results are memoized in a bounded cache.
 */
import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';
import { BoundedCache } from '#platform/bounded-cache.js';
import type { Visitor } from './types.js';

export type UserAgentFacts = Pick<Visitor, 'browserName' | 'deviceType' | 'deviceVendor' | 'osName' | 'isBot'>;

/**
 * ua-parser-js reads only the first 500 characters of a user agent, so that prefix is the
 * cache key: a client sending endless distinct long strings cannot make an entry larger.
 */
const UA_MAX_LENGTH = 500;

const NO_USER_AGENT: UserAgentFacts = { browserName: null, deviceType: null, deviceVendor: null, osName: null, isBot: true };

export type ParseUserAgent = (userAgent: string | undefined) => UserAgentFacts;

/** A parser with its own cache of `cacheEntries` results; make one per process. */
export function createUserAgentParser(cacheEntries: number): ParseUserAgent {
  const cache = new BoundedCache<string, UserAgentFacts>(cacheEntries);
  return (userAgent) => {
    // No user agent at all is a script, not a person's browser.
    if (!userAgent) return NO_USER_AGENT;
    const key = userAgent.length > UA_MAX_LENGTH ? userAgent.slice(0, UA_MAX_LENGTH) : userAgent;
    let facts = cache.get(key);
    if (!facts) {
      facts = describeUserAgent(key);
      cache.set(key, facts);
    }
    return facts;
  };
}

function describeUserAgent(userAgent: string): UserAgentFacts {
  const { browser, device, os } = new UAParser(userAgent).getResult();
  const bot = isbot(userAgent);
  const browserName = browser.name ?? null;
  const osName = os.name ?? null;
  // ua-parser-js names a type only for non-desktop devices. A recognised browser or OS with no
  // type is a desktop; a bot, or a string naming neither, is not known to be one.
  const recognised = browserName !== null || osName !== null;
  const deviceType = device.type ?? (recognised && !bot ? 'desktop' : null);
  return { browserName, deviceType, deviceVendor: device.vendor ?? null, osName, isBot: bot };
}
