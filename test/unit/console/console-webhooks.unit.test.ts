/** The console's webhook helpers: events grouped and as chips, states in words, the form to and from the API's body. */
import { describe, expect, it } from 'vitest';
import {
  agoText,
  bodyOf,
  EMPTY_FORM,
  endpointState,
  EVENT_GROUPS,
  eventChips,
  eventLabel,
  formOf,
  formPath,
  linkIdsOf,
  outcomeText,
  scopeText,
  shortUrl,
  type DeliveryDetail,
  type Webhook,
} from '#console/src/webhooks/webhooks.js';
import { WEBHOOK_EVENTS } from '#domain/webhooks/events.js';

const webhook = (extra: Partial<Webhook> = {}): Webhook => ({
  id: 'wh_1',
  url: 'https://hooks.example.com/qrlinks',
  description: 'CRM',
  events: ['link.created'],
  link_ids: null,
  folder_ids: null,
  enabled: true,
  disabled_at: null,
  disabled_reason: null,
  consecutive_failures: 0,
  failing_since: null,
  last_success_at: null,
  previous_secret_expires_at: null,
  created_at: '2026-11-30T00:00:00.000Z',
  updated_at: '2026-11-30T00:00:00.000Z',
  ...extra,
});

const detail = (attempts: DeliveryDetail['attempt_log']): DeliveryDetail => ({
  id: 'msg_1',
  endpoint_id: 'wh_1',
  event_type: 'webhook.test',
  state: 'delivered',
  attempts: attempts.length,
  last_status: attempts.at(-1)?.status ?? null,
  last_error: null,
  next_attempt_at: null,
  delivered_at: null,
  created_at: '2026-11-30T00:00:00.000Z',
  payload: {},
  attempt_log: attempts,
});

describe('events', () => {
  it('groups every event the API knows, each once', () => {
    const listed = EVENT_GROUPS.flatMap((g) => g.events.map((e) => e.type));
    expect([...listed].sort()).toEqual([...WEBHOOK_EVENTS].sort());
    expect(EVENT_GROUPS.map((g) => g.name)).toEqual(['Links', 'Jobs', 'Domains']);
  });

  it('shows a whole group as one chip, else each event; unknown types as they are', () => {
    expect(eventChips(['link.created', 'domain.verified'])).toEqual(['link.created', 'domain.verified']);
    const links = EVENT_GROUPS[0]!.events.map((e) => e.type);
    expect(eventChips([...links, 'bulk.completed', 'future.thing'])).toEqual(['All link events', 'bulk.completed', 'future.thing']);
    expect(eventLabel('webhook.test')).toBe('Test event');
    expect(eventLabel('link.scanned')).toBe('Link scanned');
  });
});

describe('states', () => {
  it('says why an endpoint is turned off, in words', () => {
    expect(endpointState(webhook())).toMatchObject({ badge: 'Active', tone: 'active' });
    expect(endpointState(webhook({ enabled: false, disabled_reason: 'manual' }))).toMatchObject({
      tone: 'off',
      reason: 'Turned off by you',
    });
    expect(endpointState(webhook({ enabled: false, disabled_reason: 'gone' }))).toMatchObject({
      tone: 'failed',
      reason: 'Turned off: the receiver answered 410 Gone',
      says: expect.stringContaining('asks for no more events'),
    });
    expect(endpointState(webhook({ enabled: false, disabled_reason: 'failing' }))).toMatchObject({
      badge: 'Turned off',
      tone: 'failed',
      reason: 'Turned off: it kept failing',
    });
    expect(endpointState(webhook({ consecutive_failures: 3 }))).toMatchObject({
      badge: 'Failing',
      says: expect.stringContaining('last 3'),
    });
  });

  it('tells a test event’s outcome: delivered with status and time, failed with why', () => {
    const attempt = { attempted_at: '', response: '', trigger: 'test' as const };
    expect(outcomeText(detail([{ ...attempt, status: 204, duration_ms: 12, error: null, succeeded: true }]), 'Test event')).toEqual({
      message: 'Test event delivered: HTTP 204 in 12 ms.',
      ok: true,
    });
    expect(outcomeText(detail([{ ...attempt, status: 401, duration_ms: 5, error: null, succeeded: false }]), 'Replay').message).toBe(
      'Replay failed: HTTP 401 in 5 ms.',
    );
    expect(
      outcomeText(detail([{ ...attempt, status: null, duration_ms: 2000, error: 'timeout', succeeded: false }]), 'Replay').message,
    ).toBe('Replay failed: no answer: timeout.');
    expect(outcomeText(detail([]), 'Test event')).toEqual({
      message: 'Test event sent; no answer yet. The delivery log shows how it ends.',
      ok: true,
    });
  });

  it('shortens a URL to its host and path, and times to a few words', () => {
    expect(shortUrl('https://hooks.example.com/qrlinks?token=abc')).toBe('hooks.example.com/qrlinks?…');
    expect(shortUrl(`https://a.example/${'x'.repeat(80)}`, 20)).toHaveLength(20);
    const now = Date.parse('2026-11-30T12:00:00Z');
    expect(agoText(null, 'never', now)).toBe('never');
    expect(agoText('2026-11-30T11:59:30Z', 'never', now)).toBe('just now');
    expect(agoText('2026-11-30T11:55:00Z', 'never', now)).toBe('5 min ago');
    expect(agoText('2026-11-30T09:00:00Z', 'never', now)).toBe('3 h ago');
  });
});

describe('the form', () => {
  it('makes the body: trimmed, events in the listed order, no limit as null', () => {
    expect(bodyOf({ ...EMPTY_FORM, url: ' https://h.example/x ', events: ['domain.verified', 'link.created', 'link.created'] })).toEqual({
      url: 'https://h.example/x',
      description: '',
      events: ['link.created', 'domain.verified'],
      link_ids: null,
      folder_ids: null,
    });
  });

  it('limits to links typed with commas or spaces and to folders chosen', () => {
    expect(linkIdsOf('menu, lisboa\nporto,, menu')).toEqual(['menu', 'lisboa', 'porto']);
    expect(bodyOf({ ...EMPTY_FORM, links: 'menu', folders: [] })).toMatchObject({ link_ids: ['menu'], folder_ids: [] });
    expect(bodyOf({ ...EMPTY_FORM, folders: ['f1'] })).toMatchObject({ link_ids: [], folder_ids: ['f1'] });
  });

  it('reads an endpoint back into the form, and places a 400’s paths at its fields', () => {
    const form = formOf(webhook({ link_ids: ['menu', 'porto'], folder_ids: ['f1'] }));
    expect(form).toEqual({
      url: 'https://hooks.example.com/qrlinks',
      description: 'CRM',
      events: ['link.created'],
      links: 'menu, porto',
      folders: ['f1'],
    });
    expect(bodyOf(form)).toMatchObject({ link_ids: ['menu', 'porto'], folder_ids: ['f1'] });
    expect(['url', 'events.2', 'link_ids.0', 'folder_ids', 'description'].map(formPath)).toEqual([
      'url',
      'events',
      'links',
      'folders',
      'description',
    ]);
  });

  it('says what an endpoint is limited to', () => {
    expect(scopeText(webhook())).toBeNull();
    expect(scopeText(webhook({ link_ids: ['a'], folder_ids: ['f', 'g'] }))).toBe('Link events only for 1 link and 2 folders');
  });
});
