/**
 * A link's history in words (GET /links/:id/history): who did what, and each changed field from
 * what to what. Values are shortened for a compact list; the audit log keeps them whole (up to its
 * bounds), and a design or page look is only said to have changed.
 */
import type { paths } from '../api/schema.js';

export type HistoryPage = paths['/api/v1/links/{id}/history']['get']['responses'][200]['content']['application/json'];
export type HistoryEvent = HistoryPage['data'][number];
type Change = HistoryEvent['changes'][number];

const ACTIONS: Readonly<Record<string, string>> = {
  create: 'created the link',
  update: 'changed',
  update_qr: 'changed the QR design',
  delete: 'deleted the link',
  move: 'moved the link',
  duplicate: 'duplicated the link',
  save_template: 'saved its design as a template',
  pause: 'paused the link',
  resume: 'resumed the link',
  favorite: 'marked it a favorite',
  unfavorite: 'unmarked it as a favorite',
};

const FIELDS: Readonly<Record<string, string>> = {
  name: 'Name',
  type: 'Type',
  slug: 'Short link',
  folder: 'Folder',
  paused: 'Paused',
  favorite: 'Favorite',
  custom_url_active: 'Custom short link',
  schedule_active: 'Schedule',
  start_date: 'Starts',
  end_date: 'Ends',
  scan_limit_active: 'Scan limit',
  scan_limit: 'Scan limit count',
  password_protected: 'Password protection',
  password_set: 'Password',
  'data.url': 'Destination',
  'data.defaultUrl': 'Default destination',
  qr_options: 'QR design',
  page_style: 'Page look',
};

/** Fields whose values are too big to show: only that they changed. */
const OPAQUE = new Set(['qr_options', 'page_style']);

const SHOWN_MAX = 80;

export function actionText(action: string): string {
  return ACTIONS[action] ?? action.replace(/_/g, ' ');
}

export function fieldLabel(field: string): string {
  if (FIELDS[field]) return FIELDS[field];
  const name = field.startsWith('data.') ? field.slice(5) : field;
  const words = name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_.]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

export function valueText(value: Change['before']): string {
  if (value === null || value === '') return 'none';
  if (value === true) return 'on';
  if (value === false) return 'off';
  const text = String(value);
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX - 1)}…` : text;
}

/** One line per change: `Destination: “a” → “b”`, or `QR design changed`; the "more fields" entry as it is. */
export function changeLines(event: HistoryEvent): string[] {
  return event.changes.map((c) => {
    if (c.field === '…') return String(c.after);
    const label = fieldLabel(c.field);
    if (OPAQUE.has(c.field)) return `${label} changed`;
    if (event.action === 'create') return `${label}: ${valueText(c.after)}`;
    return `${label}: ${valueText(c.before)} → ${valueText(c.after)}`;
  });
}

/** What a creation shows: the few fields a person names a link by, not every default. */
export function shownChanges(event: HistoryEvent): string[] {
  if (event.action !== 'create') return changeLines(event);
  const named = event.changes.filter((c) => ['name', 'type', 'data.url', 'data.defaultUrl'].includes(c.field));
  return changeLines({ ...event, changes: named });
}
