/** A link's history in words (console/src/links/history.ts). */
import { describe, expect, it } from 'vitest';
import { actionText, changeLines, fieldLabel, shownChanges, valueText, type HistoryEvent } from '#console/src/links/history.js';

const event = (action: string, changes: HistoryEvent['changes']): HistoryEvent => ({
  id: 'e1',
  at: '2026-11-29T10:00:00.000Z',
  actor: { userId: null, keyId: 'k1', label: 'Console (key-abc123…)' },
  entity: 'link',
  entityId: 'l1',
  action,
  changes,
  ip: '203.0.113.0',
  requestId: 'r1',
});

describe('link history in words', () => {
  it('says each change from what to what; designs only as changed; long values shortened', () => {
    const lines = changeLines(
      event('update', [
        { field: 'data.url', before: 'https://a.example/', after: 'https://b.example/' },
        { field: 'paused', before: false, after: true },
        { field: 'folder', before: null, after: 'Winter' },
        { field: 'qr_options', before: '{"a":1}', after: '{"a":2}' },
        { field: 'data.phoneNumber', before: 'x'.repeat(200), after: '' },
        { field: '…', before: null, after: '3 more fields not recorded' },
      ]),
    );
    expect(lines).toEqual([
      'Destination: https://a.example/ → https://b.example/',
      'Paused: off → on',
      'Folder: none → Winter',
      'QR design changed',
      `Phone number: ${'x'.repeat(79)}… → none`,
      '3 more fields not recorded',
    ]);
  });

  it('names actions, and a creation by the fields a person knows it by', () => {
    expect(actionText('pause')).toBe('paused the link');
    expect(actionText('some_new_action')).toBe('some new action');
    expect(fieldLabel('data.registrationUrl')).toBe('Registration url');
    expect(valueText(12)).toBe('12');
    const created = event('create', [
      { field: 'name', before: null, after: 'Menu' },
      { field: 'paused', before: null, after: false },
      { field: 'data.url', before: null, after: 'https://a.example/' },
    ]);
    expect(shownChanges(created)).toEqual(['Name: Menu', 'Destination: https://a.example/']);
  });
});
