/**
 * The link editor's configuration (custom slug, schedule, scan limit, password) between what the
 * owner sees and the API's `linkConfigurations`. The checks mirror the API's and report at the same
 * paths (`linkConfigurations.customUrl`...), in words.
 *
 * What the API does with a schedule (docs/decisions/0288-schedule-times-are-wall-clock-times.md):
 * `startDate` and `endDate` without an offset are wall-clock times in `scheduleTimezone`, and
 * responses give them back as UTC instants. The form holds wall-clock times in the chosen zone and
 * sends them without an offset; a link's instants are shown in its own zone, so a window reads the
 * same before and after saving, wherever the browser is.
 */
import type { paths } from '../api/schema.js';
import { isIanaTimezone, parseDateTimeInZone, parseIsoDateTimeParts } from '#domain/links/data/timezone.js';
import { CUSTOM_SLUG_PATTERN, isReservedSlug } from '#domain/links/slug-rules.js';
import type { FieldErrors } from '../fields/errors.js';
import type { Link } from './view.js';
import { browserTimeZone, formatInstant, localInputValue, zoneLabel } from './zones.js';

export type LinkConfigurations = NonNullable<
  paths['/api/v1/links']['post']['requestBody']['content']['application/json']['linkConfigurations']
>;

export interface LinkSettingsForm {
  /** The link's folder, carried through: a PUT without it would take the link out of its folder. */
  folderId: string | null;
  /**
   * The domain the link is on or goes to (a host name); null until the account's domains are
   * known, and then left out of the body (the API keeps the link's, or uses the account's default).
   */
  domain: string | null;
  /** The link's domain when it was loaded (editing), to warn before a move; null for a new link. */
  savedDomain: string | null;
  slugOn: boolean;
  slug: string;
  /** The link's current short URL when editing (what turning the custom slug off keeps), else null. */
  currentUrl: string | null;
  scheduleOn: boolean;
  /** Wall-clock times in `timezone`, as datetime-local inputs hold them (`2026-12-01T09:00`). */
  start: string;
  end: string;
  timezone: string;
  scanLimitOn: boolean;
  scanLimit: string;
  /** Scans counted against the limit so far (human scans), when editing. */
  scans: number | null;
  passwordOn: boolean;
  /** Whether the link already has a password (editing): the API shows only its hash. */
  passwordSet: boolean;
  /** With `passwordSet`: true to replace the password, false to keep it. */
  changePassword: boolean;
  password: string;
}

export const PATHS = {
  customUrl: 'linkConfigurations.customUrl',
  startDate: 'linkConfigurations.startDate',
  endDate: 'linkConfigurations.endDate',
  scheduleTimezone: 'linkConfigurations.scheduleTimezone',
  scanLimit: 'linkConfigurations.scanLimit',
  password: 'linkConfigurations.password',
} as const;

const PASSWORD_MAX = 32;
const SCAN_LIMIT_MAX = 2_147_483_647;

/** The settings of a new link (nothing on; schedules in the browser's zone), or of `link` as it is. */
export function settingsFromLink(link: Link | null, zone = browserTimeZone()): LinkSettingsForm {
  const form: LinkSettingsForm = {
    folderId: null,
    domain: null,
    savedDomain: null,
    slugOn: false,
    slug: '',
    currentUrl: null,
    scheduleOn: false,
    start: '',
    end: '',
    timezone: zone,
    scanLimitOn: false,
    scanLimit: '',
    scans: null,
    passwordOn: false,
    passwordSet: false,
    changePassword: false,
    password: '',
  };
  if (!link) return form;
  const timezone = link.schedule_timezone ?? zone;
  const instant = (iso: string | null) => (iso ? localInputValue(new Date(iso), timezone) : '');
  return {
    ...form,
    folderId: link.folder_id,
    domain: link.domain,
    savedDomain: link.domain,
    slugOn: link.url_active,
    slug: link.custom_url ?? '',
    currentUrl: link.full_dynamic_url,
    scheduleOn: link.schedule_active,
    start: instant(link.start_date),
    end: instant(link.end_date),
    timezone,
    scanLimitOn: link.scan_limit_active,
    scanLimit: link.scan_limit === null ? '' : String(link.scan_limit),
    scans: link.limit_scan_count,
    passwordOn: link.password_protected_active,
    passwordSet: link.password_protected_active,
  };
}

/** The short URL a slug makes under `base` (`GET /me`'s shortUrlBase). */
export function shortUrlOf(base: string, slug: string): string {
  return `${base.replace(/\/+$/, '')}/${slug}`;
}

/** A datetime-local value (`YYYY-MM-DDTHH:MM[:SS]`) as the instant it names in `zone`, or null. */
function instantIn(value: string, zone: string): Date | null {
  return parseIsoDateTimeParts(value)?.hasTime && isIanaTimezone(zone) ? parseDateTimeInZone(value, zone) : null;
}

/**
 * The schedule in words, read the way the API will read it (a time a DST change skips is moved
 * forward, as the API does): "Opens 1 Dec 2026 09:00, closes 24 Dec 2026 18:00, Lisbon time".
 * Null until both ends are readable.
 */
export function scheduleSummary(form: Pick<LinkSettingsForm, 'start' | 'end' | 'timezone'>): string | null {
  const start = instantIn(form.start, form.timezone);
  const end = instantIn(form.end, form.timezone);
  if (!start || !end) return null;
  const window = `Opens ${formatInstant(start, form.timezone)}, closes ${formatInstant(end, form.timezone)}, ${zoneLabel(form.timezone)}`;
  return end > start ? `${window}.` : `${window}: it would close before it opens.`;
}

/** What the password section will do, in words, for a link that has a password. */
export function passwordPlan(form: Pick<LinkSettingsForm, 'passwordOn' | 'passwordSet' | 'changePassword'>): string | null {
  if (!form.passwordSet) return null;
  if (!form.passwordOn) return 'Saving removes the password: anyone with the link can open it.';
  return form.changePassword ? 'Saving replaces the password; visitors will need the new one.' : 'Saving keeps the current password.';
}

function slugProblem(slug: string): string | null {
  if (!slug) return 'Choose the custom part of the short URL, or turn the custom URL off.';
  if (slug.length > 64) return 'Use at most 64 characters.';
  if (!CUSTOM_SLUG_PATTERN.test(slug)) return 'Use only letters, digits, - and _ (no spaces or other signs).';
  if (isReservedSlug(slug)) return 'This address is reserved for the service itself; choose another.';
  return null;
}

function scheduleProblems(
  form: LinkSettingsForm,
  errors: Record<string, string>,
): Pick<LinkConfigurations, 'startDate' | 'endDate' | 'scheduleTimezone'> {
  if (!isIanaTimezone(form.timezone)) errors[PATHS.scheduleTimezone] = 'Choose a time zone from the list.';
  const start = instantIn(form.start, form.timezone);
  const end = instantIn(form.end, form.timezone);
  if (!form.start) errors[PATHS.startDate] = 'Choose when the link starts working.';
  else if (!parseIsoDateTimeParts(form.start)?.hasTime) errors[PATHS.startDate] = 'Enter a date and a time.';
  if (!form.end) errors[PATHS.endDate] = 'Choose when the link stops working.';
  else if (!parseIsoDateTimeParts(form.end)?.hasTime) errors[PATHS.endDate] = 'Enter a date and a time.';
  else if (start && end && end <= start) errors[PATHS.endDate] = 'The end must be after the start.';
  return { startDate: form.start, endDate: form.end, scheduleTimezone: form.timezone };
}

/**
 * The form as the API's `linkConfigurations`, or the errors to show first (by body path). Only the
 * features turned on are sent, with the folder when there is one; nothing on and no folder is
 * `{ value: undefined }`, which leaves `linkConfigurations` out. A link whose password is kept is
 * sent with protection on and no `password` (the API then keeps the current one).
 */
export function linkConfigurationsOf(form: LinkSettingsForm): { value: LinkConfigurations | undefined } | { errors: FieldErrors } {
  const errors: Record<string, string> = {};
  const value: LinkConfigurations = {};
  if (form.folderId) value.folder_id = form.folderId;
  if (form.slugOn) {
    const slug = form.slug.trim();
    const problem = slugProblem(slug);
    if (problem) errors[PATHS.customUrl] = problem;
    Object.assign(value, { urlActive: true, customUrl: slug });
  }
  if (form.scheduleOn) Object.assign(value, { scheduleActive: true, ...scheduleProblems(form, errors) });
  if (form.scanLimitOn) {
    const text = form.scanLimit.trim();
    const limit = Number(text);
    if (!text) errors[PATHS.scanLimit] = 'Enter how many scans the link allows, or turn the limit off.';
    else if (!/^\d+$/.test(text) || limit < 1 || limit > SCAN_LIMIT_MAX)
      errors[PATHS.scanLimit] = 'Enter a whole number of scans, 1 or more.';
    Object.assign(value, { scanLimitActive: true, scanLimit: limit });
  }
  if (form.passwordOn) {
    value.passwordProtectedActive = true;
    if (!form.passwordSet || form.changePassword) {
      if (!form.password)
        errors[PATHS.password] = form.passwordSet
          ? 'Enter the new password, or choose to keep the current one.'
          : 'Enter a password, or turn password protection off.';
      else if (form.password.length > PASSWORD_MAX) errors[PATHS.password] = `Use at most ${PASSWORD_MAX} characters.`;
      value.password = form.password;
    }
  }
  if (Object.keys(errors).length > 0) return { errors };
  return { value: Object.keys(value).length > 0 ? value : undefined };
}

/** Whether an error path is one the settings show at a field. */
export function isSettingsPath(path: string): boolean {
  return (Object.values(PATHS) as string[]).includes(path);
}
