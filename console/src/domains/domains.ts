/**
 * Brand domains as the console shows them: what each state means to the person who owns the
 * name, which domains a link may be put on, and the short URL a slug gets on one. Pure, so the
 * screen, the link editor and the bulk page say the same.
 */
import type { paths } from '../api/schema.js';

export type Domain = paths['/api/v1/domains']['get']['responses'][200]['content']['application/json']['data'][number];
export type DomainRecord = Domain['records'][number];
export type DomainState = Domain['state'];

/** Each state as a badge and a sentence: what it means and what to do. */
export const STATE_TEXT: Readonly<Record<DomainState, { badge: string; tone: string; says: string }>> = {
  pending: {
    badge: 'Waiting for DNS',
    tone: 'pending',
    says: 'Set the records below at your DNS provider. The service checks every minute for the first hour; “Check now” checks at once.',
  },
  verified: { badge: 'Working', tone: 'active', says: 'Proved yours and pointing here: its links answer, with HTTPS.' },
  misconfigured: {
    badge: 'Check DNS',
    tone: 'warning',
    says: 'It no longer points only at this service. Its links still answer where it does; fix the records marked below.',
  },
  disabled: { badge: 'Off', tone: 'off', says: 'Turned off: nothing answers for it and it is not checked. Turn it on to prove it again.' },
};

/** The host of the service's own short URLs (`GET /me`'s shortUrlBase). */
export const defaultHostOf = (shortUrlBase: string): string => new URL(shortUrlBase).hostname;

/** Where the short URLs on `host` start: the service's base for its own host, else `host` under the same scheme. */
export function baseOn(shortUrlBase: string, host: string): string {
  const base = new URL(shortUrlBase);
  return host === base.hostname ? shortUrlBase.replace(/\/+$/, '') : `${base.protocol}//${host}`;
}

/** One choice of the domain picker: a name, and what it says beside it. */
export interface DomainChoice {
  host: string;
  label: string;
}

/**
 * The domains a link may be put on, the service's own first: every domain not turned off, a
 * pending one marked (its links answer once it is verified). `current` (the link's own) is kept
 * even when it is off, so an edit shows where the link is.
 */
export function domainChoices(shortUrlBase: string, domains: readonly Domain[], current: string | null = null): DomainChoice[] {
  const own = defaultHostOf(shortUrlBase);
  const choices: DomainChoice[] = [{ host: own, label: `${own} (the service’s)` }];
  for (const d of domains) {
    if (d.state === 'disabled' && d.hostname !== current) continue;
    const note = d.state === 'verified' ? '' : ` (${STATE_TEXT[d.state].badge.toLowerCase()})`;
    choices.push({ host: d.hostname, label: `${d.hostname}${note}` });
  }
  return choices;
}

/** Where a new link goes when nobody picks: the account's default domain, else the service's. */
export function defaultChoice(shortUrlBase: string, domains: readonly Domain[]): string {
  return domains.find((d) => d.is_default && d.state !== 'disabled')?.hostname ?? defaultHostOf(shortUrlBase);
}

/** A record's check as a word: not checked yet, found as it should be, or not. */
export function recordStatus(record: DomainRecord): 'unchecked' | 'ok' | 'missing' {
  if (record.ok === null) return 'unchecked';
  return record.ok ? 'ok' : 'missing';
}

/**
 * The records a person needs to set: ownership always (until verified), and for routing either the
 * address records or the CNAME, whichever kind they chose; both kinds are listed with "or" between.
 */
export function recordsToShow(domain: Domain): { ownership: DomainRecord[]; addresses: DomainRecord[]; cname: DomainRecord[] } {
  return {
    ownership: domain.records.filter((r) => r.purpose === 'ownership'),
    addresses: domain.records.filter((r) => r.purpose === 'routing' && r.type !== 'CNAME'),
    cname: domain.records.filter((r) => r.type === 'CNAME'),
  };
}

/** How long ago `iso` was, in words a person reads at a glance. */
export function agoText(iso: string | null, now = Date.now()): string {
  if (!iso) return 'not checked yet';
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return 'checked just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `checked ${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `checked ${hours} hour${hours === 1 ? '' : 's'} ago`;
  return `checked on ${new Date(iso).toLocaleDateString()}`;
}
