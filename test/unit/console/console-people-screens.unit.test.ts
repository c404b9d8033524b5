/**
 * The people screens' pure parts: what a role may do and the reason in words (access.ts), the
 * audit log in sentences (people/activity.ts), and a session's device from its User-Agent.
 */
import { describe, expect, it } from 'vitest';
import { aKey, aMe } from '../../support/console-me.js';
import type { Me } from '#console/src/api/client.js';
import { assignableRoles, blockedNote, memberBlock, peopleBlock, scopeBlock } from '#console/src/access.js';
import { actionSentence, actorName, dayInstant, namesOf } from '#console/src/people/activity.js';
import type { AuditEvent } from '#console/src/people/calls.js';
import { deviceText } from '#console/src/people/devices.js';

const person = (role: Me['role'], scopes: string[]): Me =>
  aMe({ key: null, user: { id: 'me', email: 'me@example.com', name: 'Me', twoFactor: false }, role, scopes });
const VIEWER = person('viewer', ['links.read', 'folders.read', 'templates.read', 'cafe.read']);

describe('what a role may do, in words', () => {
  it('a viewer is told what the role lacks and whom to ask', () => {
    expect(scopeBlock(VIEWER, 'links.update')).toBe("Viewers can't edit links — ask an admin.");
    expect(scopeBlock(VIEWER, 'links.read')).toBeNull();
    expect(blockedNote(VIEWER, ['links.pause', 'links.delete', 'links.update'])).toBe(
      "Viewers can't pause, archive or edit links — ask an admin.",
    );
    expect(blockedNote(VIEWER, ['links.create', 'folders.create'])).toBe("Viewers can't create links or create folders — ask an admin.");
    expect(blockedNote(person('owner', ['all']), ['links.update'])).toBeNull();
  });

  it('a key keeps its sentence per scope', () => {
    const key = aMe({ key: { ...aKey(['links.read']), id: 'k' }, role: 'owner', scopes: ['links.read'] });
    expect(blockedNote(key, ['links.pause', 'links.delete'])).toBe(
      'This key lacks the links.pause scope. This key lacks the links.delete scope.',
    );
  });

  it('people are changed by admins; an owner only by an owner; nobody changes their own role', () => {
    expect(peopleBlock(person('editor', []))).toBe("Editors can't invite or change members — ask an admin.");
    const admin = person('admin', ['all']);
    expect(peopleBlock(admin)).toBeNull();
    expect(memberBlock(admin, 'owner', false)).toBe('Only an owner changes or removes an owner.');
    expect(memberBlock(admin, 'editor', true)).toContain('Nobody changes their own role');
    expect(memberBlock(admin, 'editor', false)).toBeNull();
    expect(assignableRoles(admin)).toEqual(['admin', 'editor', 'viewer', 'client']);
    expect(assignableRoles(person('owner', ['all']))).toEqual(['owner', 'admin', 'editor', 'viewer', 'client']);
  });
});

const event = (over: Partial<AuditEvent>): AuditEvent => ({
  id: 'e',
  at: '2026-11-29T10:00:00.000Z',
  actor: { userId: 'ana', keyId: null, label: 'ana@example.com' },
  entity: 'link',
  entityId: 'l1',
  action: 'update',
  changes: [],
  ip: null,
  requestId: null,
  ...over,
});

describe('the activity in sentences', () => {
  const people = new Map([
    ['ana', 'Ana'],
    ['rita', 'Rita Sousa'],
  ]);

  it('names a link by the slug an event of it carried, and the fields that changed', () => {
    const events = [
      event({ changes: [{ field: 'data.url', before: 'https://a.example', after: 'https://b.example' }] }),
      event({
        id: 'c',
        action: 'create',
        changes: [
          { field: 'slug', before: null, after: 'menu' },
          { field: 'name', before: null, after: 'Menu' },
        ],
      }),
    ];
    const names = namesOf(events, people);
    expect(`${actorName(events[0]!, people)} ${actionSentence(events[0]!, names)}`).toBe('Ana changed the destination of /menu');
    expect(actionSentence(events[1]!, names)).toBe('created the link /menu');
    // A link no loaded event names is "a link".
    expect(actionSentence(event({ entityId: 'other', action: 'pause' }), names)).toBe('paused a link');
  });

  it('members by their name, invitations by their address; an unknown actor by the label the log kept', () => {
    const names = namesOf([], people);
    const role = event({ entity: 'member', entityId: 'rita', changes: [{ field: 'role', before: 'viewer', after: 'editor' }] });
    expect(actionSentence(role, names)).toBe('changed the role of Rita Sousa from viewer to editor');
    const invite = event({
      entity: 'invitation',
      entityId: 'i',
      action: 'create',
      changes: [
        { field: 'email', before: null, after: 'new@example.com' },
        { field: 'role', before: null, after: 'viewer' },
      ],
    });
    expect(actionSentence(invite, namesOf([invite], people))).toBe('invited new@example.com as viewer');
    expect(actorName(event({ actor: { userId: null, keyId: 'k', label: 'deploy key (qrl_ab12)' } }), people)).toBe('deploy key (qrl_ab12)');
    expect(actionSentence(event({ entity: 'member', entityId: 'gone', action: 'remove' }), names)).toBe(
      'removed a former member from the account',
    );
  });

  it("a day's bounds in the browser's zone; the end day is included", () => {
    expect(Date.parse(dayInstant('2026-11-29', true)!) - Date.parse(dayInstant('2026-11-29', false)!)).toBeGreaterThanOrEqual(
      23 * 3600_000,
    );
    expect(dayInstant('', false)).toBeUndefined();
  });
});

describe("a session's device", () => {
  it('is its browser and system, in words', () => {
    expect(deviceText('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36')).toBe(
      'Chrome on Linux',
    );
    expect(
      deviceText('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1'),
    ).toBe('Safari on iOS');
    expect(deviceText(null)).toBe('Unknown device');
    expect(deviceText('lightmyrequest')).toBe('lightmyrequest');
  });
});
