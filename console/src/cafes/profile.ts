/**
 * The cafe's profile form and the two requests it is saved by: PUT /cafes/:id (JSON: time zone,
 * menu language, opening hours, facilities, social links) and PUT /cafes/:id/profile (multipart: name,
 * description, contact fields, logo and cover). Their bodies' member names do not overlap, so one
 * form keys its fields by either body's paths and an error from either lands at its field.
 */
import type { paths } from '../api/schema.js';
import type { Cafe } from './cafe-list.js';

type UpdateCafeBody = paths['/api/v1/cafes/{id}']['put']['requestBody']['content']['application/json'];
type DayHours = NonNullable<UpdateCafeBody['operating_hours']>[number];
export type Weekday = DayHours['day'];
export interface TimeRange {
  from: string;
  to: string;
}

export const WEEKDAYS: readonly Weekday[] = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** The API's limit on ranges in one day. */
export const RANGES_MAX = 6;
/** The contact fields the profile endpoint takes as text; empty clears them. */
export const CONTACT_FIELDS = ['title', 'subtitle', 'address', 'phone', 'email', 'website'] as const;
type ContactField = (typeof CONTACT_FIELDS)[number];

export interface ProfileForm extends Record<ContactField, string> {
  name: string;
  description: string;
  timezone: string;
  /** The menu page's language (a BCP 47 tag); '': each guest's browser language. */
  language: string;
  /** Every weekday, in order (the index is the body's `operating_hours.<i>`). */
  hours: Array<{ day: Weekday; enabled: boolean; ranges: TimeRange[] }>;
  /** One facility per line. */
  facilities: string;
  social: Array<{ platform: string; url: string }>;
  logo: File | null;
  cover: File | null;
  deleteLogo: boolean;
  deleteCover: boolean;
}

/**
 * Hours offered to a cafe that has never set any, rather than a week of closed days: a cafe's
 * usual day, weekdays 08:00–18:00 and weekends 09:00–18:00 (decision 0388). Only offered: they
 * reach the menu page when the owner saves the profile.
 */
export const SUGGESTED_HOURS: Readonly<Record<Weekday, TimeRange>> = {
  monday: { from: '08:00', to: '18:00' },
  tuesday: { from: '08:00', to: '18:00' },
  wednesday: { from: '08:00', to: '18:00' },
  thursday: { from: '08:00', to: '18:00' },
  friday: { from: '08:00', to: '18:00' },
  saturday: { from: '09:00', to: '18:00' },
  sunday: { from: '09:00', to: '18:00' },
};

/** The zone a cafe is created with when none is given (POST /cafes takes none). */
const API_DEFAULT_ZONE = 'UTC';

/**
 * What the form offers a cafe whose hours were never set: the suggested hours, and the browser's
 * zone in place of the API's default UTC (a cafe made by the console has it already; one made
 * through the API or an older console may not).
 */
export function profileSuggestions(cafe: Pick<Cafe, 'operating_hours' | 'timezone'>, browserZone: string) {
  const fresh = cafe.operating_hours.length === 0;
  return {
    hours: fresh,
    zone: fresh && cafe.timezone === API_DEFAULT_ZONE && browserZone !== cafe.timezone ? browserZone : null,
  };
}

/**
 * The stored cafe as the form shows it: a cafe that never set its hours gets the suggested ones
 * (and the browser's zone for UTC); otherwise days the cafe has not set are closed, with a usual
 * range ready to enable.
 */
export function profileFormOf(cafe: Cafe, browserZone: string): ProfileForm {
  const contact = Object.fromEntries(CONTACT_FIELDS.map((f) => [f, cafe[f] ?? ''])) as Record<ContactField, string>;
  const suggested = profileSuggestions(cafe, browserZone);
  return {
    ...contact,
    name: cafe.name,
    description: cafe.description ?? '',
    timezone: suggested.zone ?? cafe.timezone,
    language: cafe.language ?? '',
    hours: WEEKDAYS.map((day) => {
      const stored = cafe.operating_hours.find((d) => d.day === day);
      if (stored && stored.ranges.length > 0) return { day, enabled: stored.enabled, ranges: stored.ranges.map((r) => ({ ...r })) };
      return suggested.hours
        ? { day, enabled: true, ranges: [{ ...SUGGESTED_HOURS[day] }] }
        : { day, enabled: false, ranges: [{ from: '09:00', to: '17:00' }] };
    }),
    facilities: cafe.facilities.join('\n'),
    social: cafe.social_links.map((s) => ({ ...s })),
    logo: null,
    cover: null,
    deleteLogo: false,
    deleteCover: false,
  };
}

/** Tuesday to Friday, where "copy to weekdays" puts Monday's hours. */
export const WEEKDAYS_AFTER_MONDAY: readonly Weekday[] = ['tuesday', 'wednesday', 'thursday', 'friday'];

/** The week with `from`'s hours (open or closed, and its ranges) copied onto each of `to`. */
export function copyHours(hours: ProfileForm['hours'], from: Weekday, to: readonly Weekday[]): ProfileForm['hours'] {
  const source = hours.find((d) => d.day === from);
  if (!source) return hours;
  return hours.map((d) =>
    to.includes(d.day) && d.day !== from ? { day: d.day, enabled: source.enabled, ranges: source.ranges.map((r) => ({ ...r })) } : d,
  );
}

/** PUT /cafes/:id's body: the week as seven entries in order, a closed day keeping its ranges for later. */
export function cafeBodyOf(form: ProfileForm): UpdateCafeBody {
  return {
    timezone: form.timezone,
    language: form.language || null,
    operating_hours: form.hours.map((d) => ({ day: d.day, enabled: d.enabled, ranges: d.ranges })),
    facilities: form.facilities
      .split('\n')
      .map((f) => f.trim())
      .filter(Boolean),
    social_links: form.social.map((s) => ({ platform: s.platform.trim(), url: s.url.trim() })),
  };
}

/**
 * PUT /cafes/:id/profile's form: every text field (an empty one clears it), a new logo or cover
 * when one was chosen, else its delete flag when asked (never both: the API refuses that).
 */
export function profileFormData(form: ProfileForm): FormData {
  const data = new FormData();
  data.append('name', form.name.trim());
  data.append('description', form.description.trim());
  for (const field of CONTACT_FIELDS) data.append(field, form[field].trim());
  if (form.logo) data.append('logo', form.logo);
  else if (form.deleteLogo) data.append('delete_logo', 'true');
  if (form.cover) data.append('cover', form.cover);
  else if (form.deleteCover) data.append('delete_cover', 'true');
  return data;
}

/** The field an error path is shown at: a facility's line errors at the facilities box, a delete flag at its image. */
export function profileFieldOf(path: string): string {
  if (/^facilities\.\d+$/.test(path)) return 'facilities';
  if (path === 'delete_cover' || path === 'delete_cafe-cover') return 'cover';
  if (path === 'delete_logo') return 'logo';
  return path;
}

/** Errors keyed by the field they are shown at (the first message per field). */
export function placeProfileErrors(errors: Readonly<Record<string, string>>): Record<string, string> {
  const placed: Record<string, string> = {};
  for (const [path, message] of Object.entries(errors)) {
    const field = profileFieldOf(path);
    if (!(field in placed)) placed[field] = message;
  }
  return placed;
}
