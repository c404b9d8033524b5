/**
 * The link editor's settings: custom slug, schedule, scan limit, password, each behind its own
 * switch. Thin: the mapping and the checks live in settings.ts; inputs are keyed by the body paths
 * the API names in its errors.
 */
import type { ComponentChildren } from 'preact';
import { Field } from '../fields/Field.js';
import type { FieldErrors } from '../fields/errors.js';
import { passwordPlan, PATHS, scheduleSummary, shortUrlOf, type LinkSettingsForm } from './settings.js';
import { baseOn, type DomainChoice } from '../domains/domains.js';
import { ZoneSelect } from './ZoneSelect.js';
import './editor-parts.css';

interface Props {
  value: LinkSettingsForm;
  onChange(next: LinkSettingsForm): void;
  errors: FieldErrors;
  /** Where short links live (`GET /me`'s shortUrlBase), to show the URL a custom slug makes. */
  shortUrlBase: string;
  /** The domains the link may be on (the service's first); the picker shows when there is a choice. */
  domains: readonly DomainChoice[];
}

/** A feature's switch and, when it is on, its fields. */
function Section({
  id,
  label,
  on,
  onToggle,
  note,
  children,
}: {
  id: string;
  label: string;
  on: boolean;
  onToggle(on: boolean): void;
  note?: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <div class="setting">
      <label class="check" for={id}>
        <input id={id} type="checkbox" checked={on} onChange={(e) => onToggle(e.currentTarget.checked)} />
        {label}
      </label>
      {note && <p class="hint">{note}</p>}
      {on && <div class="setting-body">{children}</div>}
    </div>
  );
}

export function LinkSettings({ value, onChange, errors, shortUrlBase, domains }: Props) {
  const set = (change: Partial<LinkSettingsForm>) => onChange({ ...value, ...change });
  const window = value.scheduleOn ? scheduleSummary(value) : null;
  const plan = passwordPlan(value);
  const base = value.domain === null ? shortUrlBase : baseOn(shortUrlBase, value.domain);
  const moving = value.savedDomain !== null && value.domain !== null && value.domain !== value.savedDomain;
  return (
    <fieldset class="link-settings">
      <legend>Link settings</legend>

      {value.domain !== null && domains.length > 1 && (
        <Field
          path="domain"
          label="Domain"
          errors={errors}
          hint={
            moving
              ? `Moving it: codes already printed with ${value.currentUrl ?? 'its current address'} stop working.`
              : 'The name in front of the short URL. Add your own on the Domains page.'
          }
        >
          {(input) => (
            <select {...input} value={value.domain ?? ''} onChange={(e) => set({ domain: e.currentTarget.value })}>
              {domains.map((d) => (
                <option key={d.host} value={d.host}>
                  {d.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}

      <Section
        id="setting-slug"
        label="Custom short URL"
        on={value.slugOn}
        onToggle={(slugOn) => set({ slugOn })}
        note={!value.slugOn && value.currentUrl ? `The link keeps its current address, ${value.currentUrl}.` : undefined}
      >
        <Field
          path={PATHS.customUrl}
          label="Custom part of the short URL"
          errors={errors}
          hint={`Letters, digits, - and _; up to 64. The short URL will be ${shortUrlOf(base, value.slug.trim() || '…')}`}
        >
          {(input) => (
            <input
              {...input}
              type="text"
              autocomplete="off"
              spellcheck={false}
              value={value.slug}
              onInput={(e) => set({ slug: e.currentTarget.value })}
            />
          )}
        </Field>
      </Section>

      <Section
        id="setting-schedule"
        label="Schedule: work only between two moments"
        on={value.scheduleOn}
        onToggle={(scheduleOn) => set({ scheduleOn })}
      >
        <div class="setting-row">
          <Field path={PATHS.startDate} label="Starts" errors={errors}>
            {(input) => (
              <input {...input} type="datetime-local" value={value.start} onInput={(e) => set({ start: e.currentTarget.value })} />
            )}
          </Field>
          <Field path={PATHS.endDate} label="Ends" errors={errors}>
            {(input) => <input {...input} type="datetime-local" value={value.end} onInput={(e) => set({ end: e.currentTarget.value })} />}
          </Field>
          <Field path={PATHS.scheduleTimezone} label="Time zone of these times" errors={errors}>
            {(input) => <ZoneSelect input={input} value={value.timezone} onChange={(timezone) => set({ timezone })} />}
          </Field>
        </div>
        <p class="summary" aria-live="polite">
          {window ?? 'Choose a start and an end to see the window.'} Outside it, visitors see a page saying when the link opens or that it
          has ended.
        </p>
      </Section>

      <Section id="setting-scan-limit" label="Scan limit" on={value.scanLimitOn} onToggle={(scanLimitOn) => set({ scanLimitOn })}>
        <Field
          path={PATHS.scanLimit}
          label="Maximum scans"
          errors={errors}
          hint={`The link stops working after this many scans (bots are not counted).${value.scans === null ? '' : ` Scanned ${value.scans} ${value.scans === 1 ? 'time' : 'times'} so far.`}`}
        >
          {(input) => (
            <input
              {...input}
              type="text"
              inputMode="numeric"
              value={value.scanLimit}
              onInput={(e) => set({ scanLimit: e.currentTarget.value })}
            />
          )}
        </Field>
      </Section>

      <Section
        id="setting-password"
        label="Password"
        on={value.passwordOn}
        onToggle={(passwordOn) => set({ passwordOn })}
        note={!value.passwordOn ? plan : undefined}
      >
        {value.passwordSet && (
          <fieldset class="choice">
            <legend>A password is set</legend>
            <label class="check">
              <input
                type="radio"
                name="password-choice"
                checked={!value.changePassword}
                onChange={() => set({ changePassword: false, password: '' })}
              />
              Keep the current password
            </label>
            <label class="check">
              <input type="radio" name="password-choice" checked={value.changePassword} onChange={() => set({ changePassword: true })} />
              Set a new password
            </label>
          </fieldset>
        )}
        {(!value.passwordSet || value.changePassword) && (
          <Field
            path={PATHS.password}
            label={value.passwordSet ? 'New password' : 'Password'}
            errors={errors}
            hint="Up to 32 characters. Visitors type it before the link opens."
          >
            {(input) => (
              <input
                {...input}
                type="password"
                autocomplete="new-password"
                value={value.password}
                onInput={(e) => set({ password: e.currentTarget.value })}
              />
            )}
          </Field>
        )}
        {plan && <p class="summary">{plan}</p>}
      </Section>
    </fieldset>
  );
}
