/**
 * The audit log in sentences ("Ana changed the destination of /menu"): who, by their name in the
 * account when known (else the email or key the log kept), what they did, and to what, named by
 * what the loaded events themselves say (a link's slug, a folder's name, a member's email).
 */
import { fieldLabel, valueText } from '../links/history.js';
import type { AuditEvent } from './calls.js';

/** The names known for entities, by `entity:id`, gathered from the events loaded so far. */
export type Names = ReadonlyMap<string, string>;

const NAME_FIELDS: Readonly<Record<string, readonly string[]>> = {
  link: ['slug', 'name'],
  member: ['email'],
  invitation: ['email'],
  folder: ['name'],
  template: ['name'],
  api_key: ['name', 'prefix'],
  file: ['file_name', 'name'],
  cafe: ['name'],
  cafe_group: ['name'],
  cafe_category: ['name'],
  cafe_item: ['name'],
};

/** Names from the events, newest first: an entity's latest known name wins. */
export function namesOf(events: readonly AuditEvent[], people: ReadonlyMap<string, string>): Names {
  const names = new Map<string, string>();
  for (const [id, name] of people) names.set(`member:${id}`, name);
  for (const e of events) {
    const key = `${e.entity}:${e.entityId}`;
    if (names.has(key) || !e.entityId) continue;
    for (const field of NAME_FIELDS[e.entity] ?? []) {
      const change = e.changes.find((c) => c.field === field);
      const value = change ? (change.after ?? change.before) : null;
      if (typeof value === 'string' && value) {
        names.set(key, e.entity === 'link' && field === 'slug' ? `/${value}` : value);
        break;
      }
    }
  }
  return names;
}

const ENTITY_WORDS: Readonly<Record<string, string>> = {
  link: 'link',
  folder: 'folder',
  template: 'template',
  api_key: 'API key',
  file: 'file',
  cafe: 'cafe',
  cafe_group: 'menu group',
  cafe_category: 'menu category',
  cafe_item: 'menu item',
  job: 'job',
  member: 'member',
  invitation: 'invitation',
};

export const entityWords = (entity: string) => ENTITY_WORDS[entity] ?? entity.replace(/_/g, ' ');

const change = (e: AuditEvent, field: string) => e.changes.find((c) => c.field === field);

/** "the name and destination", from the changed fields (at most three named, then "and N more"). */
function fieldsText(e: AuditEvent): string {
  const labels = e.changes.filter((c) => c.field !== '…').map((c) => fieldLabel(c.field).toLowerCase());
  if (labels.length === 0) return 'the settings';
  const shown = labels.length > 3 ? [...labels.slice(0, 3), `${labels.length - 3} more`] : labels;
  return `the ${shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`}`;
}

/** What was done, after the actor's name: "changed the destination of /menu". */
export function actionSentence(e: AuditEvent, names: Names): string {
  const known = names.get(`${e.entity}:${e.entityId}`);
  const what = entityWords(e.entity);
  const it = known ?? (e.entity === 'member' ? 'a former member' : `a ${what}`);
  const the = known ? `the ${what} ${known}` : `a ${what}`;
  switch (`${e.entity}.${e.action}`) {
    case 'link.update':
      return `changed ${fieldsText(e)} of ${it}`;
    case 'link.update_qr':
      return `changed the QR design of ${it}`;
    case 'link.delete':
      return `archived ${it}`;
    case 'link.move': {
      const to = change(e, 'folder')?.after;
      return `moved ${it} ${typeof to === 'string' && to ? `to the folder ${to}` : 'out of its folder'}`;
    }
    case 'link.bulk_create':
      return 'created links in bulk';
    case 'link.favorite':
      return `marked ${it} a favorite`;
    case 'link.unfavorite':
      return `unmarked ${it} as a favorite`;
    case 'link.save_template':
      return `saved the design of ${it} as a template`;
    case 'member.update': {
      const role = change(e, 'role');
      return role ? `changed the role of ${it} from ${valueText(role.before)} to ${valueText(role.after)}` : `changed the access of ${it}`;
    }
    case 'member.remove':
      return `removed ${it} from the account`;
    case 'invitation.create': {
      const role = change(e, 'role')?.after;
      return `invited ${it}${typeof role === 'string' ? ` as ${role}` : ''}`;
    }
    case 'invitation.resend':
      return `sent the invitation of ${it} again`;
    case 'invitation.revoke':
      return `withdrew the invitation of ${it}`;
    case 'folder.rename': {
      const name = change(e, 'name');
      return name ? `renamed the folder ${valueText(name.before)} to ${valueText(name.after)}` : `renamed ${the}`;
    }
    case 'api_key.revoke':
      return `revoked ${the}`;
    case 'file.upload':
      return `uploaded ${known ? `the file ${known}` : 'a file'}`;
  }
  switch (e.action) {
    case 'create':
      return `created ${the}`;
    case 'delete':
      return `deleted ${the}`;
    case 'update':
      return `changed ${fieldsText(e)} of ${the}`;
    case 'pause':
      return `paused ${it}`;
    case 'resume':
      return `resumed ${it}`;
    case 'duplicate':
      return `duplicated ${it}`;
  }
  return `${e.action.replace(/_/g, ' ')} · ${the}`;
}

/** Who did it: their name in this account when the log's user is a member, else the label the log kept. */
export function actorName(e: AuditEvent, people: ReadonlyMap<string, string>): string {
  return (e.actor.userId && people.get(e.actor.userId)) || e.actor.label;
}

/** The day's start in the browser's time zone, as the ISO instant the API takes; `to` days end at the next midnight. */
export function dayInstant(day: string, end: boolean): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return undefined;
  const date = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + (end ? 1 : 0));
  return date.toISOString();
}
