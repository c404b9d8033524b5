/**
 * Webhooks as the console shows them: the events grouped as a person thinks of them, each with
 * a line on when it is sent; an endpoint's state in words (and why it was turned off); a
 * delivery's state and outcome; and the add/edit form to and from the API's body. Pure, so the
 * screen and its unit test say the same.
 */
import type { paths } from '../api/schema.js';

export type Webhook = paths['/api/v1/webhooks']['get']['responses'][200]['content']['application/json']['data'][number];
export type CreateBody = paths['/api/v1/webhooks']['post']['requestBody']['content']['application/json'];
export type UpdateBody = NonNullable<paths['/api/v1/webhooks/{id}']['patch']['requestBody']>['content']['application/json'];
export type EventType = CreateBody['events'][number];
export type DeliveryPage = paths['/api/v1/webhooks/{id}/deliveries']['get']['responses'][200]['content']['application/json'];
export type Delivery = DeliveryPage['data'][number];
export type DeliveryState = Delivery['state'];
export type DeliveryDetail =
  paths['/api/v1/webhooks/deliveries/{deliveryId}']['get']['responses'][200]['content']['application/json']['data'];
export type Attempt = DeliveryDetail['attempt_log'][number];

interface EventChoice {
  type: EventType;
  label: string;
  says: string;
}

/** Every event an endpoint can ask for, in groups, each with a line on when it is sent. */
export const EVENT_GROUPS: ReadonlyArray<{ name: string; events: readonly EventChoice[] }> = [
  {
    name: 'Links',
    events: [
      {
        type: 'link.created',
        label: 'Link created',
        says: 'A link is made in the console or over the API (a bulk batch sends “Batch finished” instead).',
      },
      { type: 'link.updated', label: 'Link changed', says: 'A link’s destination, settings, style or folder changes, or it is paused.' },
      { type: 'link.deleted', label: 'Link archived', says: 'A link is archived: its short URL stops answering.' },
      { type: 'link.scanned', label: 'Link scanned', says: 'Someone opens a link or scans its code (sent in small batches).' },
      { type: 'link.scan_limit_reached', label: 'Scan limit reached', says: 'A link with a scan limit has just used its last scan.' },
    ],
  },
  {
    name: 'Jobs',
    events: [
      { type: 'bulk.completed', label: 'Batch finished', says: 'A bulk batch of links and QR codes is ready to download.' },
      { type: 'export.completed', label: 'Export finished', says: 'An analytics export is ready to download.' },
      { type: 'cafe.menu_imported', label: 'Menu imported', says: 'A cafe’s menu was imported from a file.' },
    ],
  },
  {
    name: 'Domains',
    events: [
      { type: 'domain.verified', label: 'Domain working', says: 'A brand domain is proved yours and points here.' },
      { type: 'domain.misconfigured', label: 'Domain needs DNS', says: 'A brand domain no longer points only at this service.' },
    ],
  },
];

const EVENT_LABELS: ReadonlyMap<string, string> = new Map(EVENT_GROUPS.flatMap((g) => g.events.map((e) => [e.type, e.label])));

/** An event type in words ("Link created"); the test event and any type the console does not know by its own name. */
export const eventLabel = (type: string): string => (type === 'webhook.test' ? 'Test event' : (EVENT_LABELS.get(type) ?? type));

/** The events an endpoint gets, as short chips: each of them, or one per whole group it has ("All link events"). */
export function eventChips(events: readonly string[]): string[] {
  const chosen = new Set(events);
  const chips: string[] = [];
  for (const group of EVENT_GROUPS) {
    const mine = group.events.filter((e) => chosen.has(e.type));
    if (mine.length > 1 && mine.length === group.events.length) chips.push(`All ${group.name.toLowerCase().replace(/s$/, '')} events`);
    else chips.push(...mine.map((e) => e.type));
  }
  // Types this console does not list (a newer server's): shown as they are.
  const known = new Set<string>(EVENT_GROUPS.flatMap((g) => g.events.map((e) => e.type)));
  return [...chips, ...events.filter((e) => !known.has(e))];
}

export type Tone = 'active' | 'warning' | 'failed' | 'off' | 'pending';

/**
 * An endpoint's state: a badge, why in a few words when it is off (for its row), and a sentence
 * on what that means (for its page).
 */
export function endpointState(webhook: Webhook): { badge: string; tone: Tone; reason: string | null; says: string } {
  if (!webhook.enabled) {
    const reason =
      webhook.disabled_reason === 'gone'
        ? 'Turned off: the receiver answered 410 Gone'
        : webhook.disabled_reason === 'failing'
          ? 'Turned off: it kept failing'
          : 'Turned off by you';
    const why =
      webhook.disabled_reason === 'gone'
        ? 'Turned off because the receiver answered 410 Gone, which asks for no more events.'
        : webhook.disabled_reason === 'failing'
          ? 'Turned off because it kept failing for too long.'
          : 'Turned off by you.';
    return {
      badge: 'Turned off',
      tone: webhook.disabled_reason === 'gone' || webhook.disabled_reason === 'failing' ? 'failed' : 'off',
      reason,
      says: `${why} No events are sent to it; turn it on to start again (a test event is still sent).`,
    };
  }
  if (webhook.consecutive_failures > 0) {
    const n = webhook.consecutive_failures;
    return {
      badge: 'Failing',
      tone: 'warning',
      reason: null,
      says: `The last ${n === 1 ? 'delivery' : `${n} deliveries`} failed; each is tried again for a while, then it is turned off.`,
    };
  }
  return { badge: 'Active', tone: 'active', reason: null, says: 'Events are sent to it as they happen.' };
}

/** A delivery's state as a coloured word. */
export const DELIVERY_STATE_TEXT: Readonly<Record<DeliveryState, { word: string; tone: Tone }>> = {
  pending: { word: 'Retrying', tone: 'pending' },
  delivered: { word: 'Delivered', tone: 'active' },
  failed: { word: 'Failed', tone: 'failed' },
  cancelled: { word: 'Cancelled', tone: 'off' },
};

/** The states the delivery log filters by, in the order the filter lists them. */
export const DELIVERY_FILTERS: ReadonlyArray<{ value: DeliveryState | ''; label: string }> = [
  { value: '', label: 'Every state' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'failed', label: 'Failed' },
  { value: 'pending', label: 'Retrying' },
  { value: 'cancelled', label: 'Cancelled' },
];

/** What one attempt got: the status and how long it took, or why no answer came. */
export function attemptText(attempt: Pick<Attempt, 'status' | 'duration_ms' | 'error'>): string {
  const answer = attempt.status === null ? 'no answer' : `HTTP ${attempt.status}`;
  return attempt.error ? `${answer}: ${attempt.error}` : `${answer} in ${attempt.duration_ms} ms`;
}

/** A test event's or a replay's outcome, for its toast. */
export function outcomeText(detail: DeliveryDetail, what: string): { message: string; ok: boolean } {
  const last = detail.attempt_log.at(-1);
  if (!last) return { message: `${what} sent; no answer yet. The delivery log shows how it ends.`, ok: true };
  if (last.succeeded) return { message: `${what} delivered: ${attemptText(last)}.`, ok: true };
  return { message: `${what} failed: ${attemptText(last)}.`, ok: false };
}

/** A URL short enough for a row: the host and the start of the path, the query left out. */
export function shortUrl(url: string, max = 48): string {
  let text: string;
  try {
    const u = new URL(url);
    text = `${u.host}${u.pathname === '/' ? '' : u.pathname}${u.search ? '?…' : ''}`;
  } catch {
    text = url;
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** How long ago `iso` was, in a few words ("3 min ago"); `never` when it was not. */
export function agoText(iso: string | null, never: string, now = Date.now()): string {
  if (!iso) return never;
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return new Date(iso).toLocaleDateString();
}

/** The add/edit form's values: text as typed, events and folders as chosen. */
export interface WebhookForm {
  url: string;
  description: string;
  events: string[];
  /** Link ids, separated by commas, spaces or new lines. */
  links: string;
  folders: string[];
}

export const EMPTY_FORM: WebhookForm = { url: '', description: '', events: [], links: '', folders: [] };

/** An endpoint's values, to edit them. */
export function formOf(webhook: Webhook): WebhookForm {
  return {
    url: webhook.url,
    description: webhook.description,
    events: [...webhook.events],
    links: (webhook.link_ids ?? []).join(', '),
    folders: [...(webhook.folder_ids ?? [])],
  };
}

/** The link ids typed, each once, in the order typed. */
export function linkIdsOf(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).filter(Boolean))];
}

/**
 * The body that creates the endpoint, or changes it: events in the order the console lists them;
 * no links and no folders is every link (null, so an edit clears a limit).
 */
export function bodyOf(form: WebhookForm): CreateBody & { link_ids: string[] | null; folder_ids: string[] | null } {
  const order = EVENT_GROUPS.flatMap((g) => g.events.map((e) => e.type as string));
  const events = [...new Set(form.events)].sort((a, b) => order.indexOf(a) - order.indexOf(b)) as EventType[];
  const links = linkIdsOf(form.links);
  const limited = links.length > 0 || form.folders.length > 0;
  return {
    url: form.url.trim(),
    description: form.description.trim(),
    events,
    link_ids: limited ? links : null,
    folder_ids: limited ? [...form.folders] : null,
  };
}

/**
 * A 400's field paths in the form's terms: `events.3` is the events list, `link_ids.0` the links
 * box, `folder_ids.*` the folder picker.
 */
export function formPath(path: string): string {
  const head = path.split('.')[0]!;
  if (head === 'link_ids') return 'links';
  if (head === 'folder_ids') return 'folders';
  if (head === 'events') return 'events';
  return path;
}

/** What a person limits an endpoint to, in words, for its row. */
export function scopeText(webhook: Pick<Webhook, 'link_ids' | 'folder_ids'>): string | null {
  const links = webhook.link_ids?.length ?? 0;
  const folders = webhook.folder_ids?.length ?? 0;
  if (links === 0 && folders === 0) return null;
  const parts = [links > 0 && `${links} link${links === 1 ? '' : 's'}`, folders > 0 && `${folders} folder${folders === 1 ? '' : 's'}`];
  return `Link events only for ${parts.filter(Boolean).join(' and ')}`;
}
