/**
 * One cafe's profile form (#/cafes/<id>): name, description, menu language, logo and cover, contact fields, social
 * links, the opening hours per weekday (several ranges each) in the cafe's time zone, and
 * facilities. Saved by two requests (profile.ts says which field goes where); an error from
 * either is shown at its field, keyed by the body path the API names.
 */
import { useMemo, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { Field } from '../fields/Field.js';
import { fieldErrorsOf, NO_ERRORS, unplacedErrors, type FieldErrors } from '../fields/errors.js';
import type { Cafe } from './cafe-list.js';
import { ImageField } from './ImageField.js';
import { useEdited, useUnsavedGuard } from '../unsaved.js';
import { languageChoices } from '../fields/languages.js';
import {
  cafeBodyOf,
  copyHours,
  placeProfileErrors,
  profileFormData,
  profileFormOf,
  profileSuggestions,
  RANGES_MAX,
  WEEKDAYS,
  WEEKDAYS_AFTER_MONDAY,
  type ProfileForm,
  type Weekday,
} from './profile.js';
import { ZoneSelect } from '../links/ZoneSelect.js';
import { browserTimeZone, zoneLabel } from '../links/zones.js';
import { Icon } from '../ui/Icon.js';
import { showToast } from '../ui/toasts.js';

type Client = ReturnType<typeof signedInClient>;

const CONTACT_LABELS = {
  title: 'Heading on the menu (optional, else the name)',
  subtitle: 'Subtitle',
  address: 'Address',
  phone: 'Phone',
  email: 'Email',
  website: 'Website',
} as const;
/** The keyboard a phone offers for each (inputMode: the API, not the browser, checks what is typed). */
const CONTACT_MODES = { title: 'text', subtitle: 'text', address: 'text', phone: 'tel', email: 'email', website: 'url' } as const;
const dayLabel = (day: string) => day[0]!.toUpperCase() + day.slice(1);

/** Every path a field of this form shows; other errors are listed above the form. */
function placedHere(path: string, form: ProfileForm): boolean {
  if (['name', 'description', 'timezone', 'language', 'facilities', 'logo', 'cover', ...Object.keys(CONTACT_LABELS)].includes(path))
    return true;
  const range = /^operating_hours\.(\d+)\.ranges\.(\d+)\.(from|to)$/.exec(path);
  if (range) return Number(range[1]) < form.hours.length;
  return /^social_links\.\d+\.(platform|url)$/.test(path);
}

export function CafeProfile({ cafe, onSaved }: { cafe: Cafe; onSaved(cafe: Cafe): void }) {
  const client = useMemo(signedInClient, []);
  const [form, setForm] = useState<ProfileForm>(() => profileFormOf(cafe, browserTimeZone()));
  // Hours (and a zone) the form offers a cafe that never set them, until the profile is saved.
  const [suggested, setSuggested] = useState(() => profileSuggestions(cafe, browserTimeZone()));
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  // Bumped on each save, so the file inputs start empty again once their files are stored.
  const [saves, setSaves] = useState(0);
  useUnsavedGuard(useEdited(form, saves) && !busy, `/cafes/${cafe.id}`);
  const languages = useMemo(() => languageChoices(form.language, "The guest's browser language"), []);
  const set = (change: Partial<ProfileForm>) => setForm({ ...form, ...change });
  const setDay = (index: number, change: Partial<ProfileForm['hours'][number]>) =>
    set({ hours: form.hours.map((d, i) => (i === index ? { ...d, ...change } : d)) });
  const copyMonday = (to: readonly Weekday[], where: string, anchor: Element) => {
    set({ hours: copyHours(form.hours, 'monday', to) });
    showToast(`Monday's hours copied to ${where}. Save the profile to publish them.`, { tone: 'success', anchor });
  };

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setStatus(null);
    try {
      const params = { params: { path: { id: cafe.id } } };
      const first = await saveStep(() => client.PUT('/api/v1/cafes/{id}', { ...params, body: cafeBodyOf(form) }));
      // The form is sent as FormData; the OpenAPI document gives the multipart body its members as JSON.
      const second = first.ok
        ? await saveStep(() => client.PUT('/api/v1/cafes/{id}/profile', { ...params, body: profileFormData(form) as never }))
        : first;
      if (second.ok) {
        setErrors(NO_ERRORS);
        setForm({ ...form, logo: null, cover: null, deleteLogo: false, deleteCover: false });
        setStatus({ ok: true, text: 'Saved. The menu page shows it now.' });
        setSuggested({ hours: false, zone: null });
        setSaves(saves + 1);
        onSaved(second.cafe);
      } else {
        setErrors(placeProfileErrors(second.errors));
        setStatus({ ok: false, text: second.message });
      }
    } catch {
      setStatus({ ok: false, text: UNREACHABLE });
    } finally {
      setBusy(false);
    }
  };
  const unplaced = unplacedErrors(errors, (p) => placedHere(p, form));

  return (
    // `save` says its own failures in the status line: it never rejects.
    <form class="cafe-profile" onSubmit={(e) => void save(e)} noValidate aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      {unplaced.length > 0 && (
        <ul class="field-error" role="alert">
          {unplaced.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <fieldset class="group">
        <legend>About</legend>
        <Field path="name" label="Name" errors={errors}>
          {(input) => <input {...input} value={form.name} maxLength={255} onInput={(e) => set({ name: e.currentTarget.value })} />}
        </Field>
        <Field path="description" label="Description" errors={errors}>
          {(input) => (
            <textarea
              {...input}
              value={form.description}
              maxLength={2000}
              rows={3}
              onInput={(e) => set({ description: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field
          path="language"
          label="Menu language"
          errors={errors}
          hint="The language of the menu page's own words, dates and prices. Your dish names stay as you write them."
        >
          {(input) => (
            <select {...input} value={form.language} onChange={(e) => set({ language: e.currentTarget.value })}>
              {languages.map((l) => (
                <option key={l.tag} value={l.tag}>
                  {l.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <ImageField
          key={`logo-${saves}`}
          path="logo"
          label="Logo"
          savedWith="profile"
          current={cafe.logo}
          file={form.logo}
          remove={form.deleteLogo}
          errors={errors}
          onChange={(logo, deleteLogo) => set({ logo, deleteLogo })}
        />
        <ImageField
          key={`cover-${saves}`}
          path="cover"
          label="Cover photo"
          savedWith="profile"
          current={cafe.cover}
          file={form.cover}
          remove={form.deleteCover}
          errors={errors}
          onChange={(cover, deleteCover) => set({ cover, deleteCover })}
        />
      </fieldset>
      <fieldset class="group">
        <legend>Contact</legend>
        {(Object.keys(CONTACT_LABELS) as Array<keyof typeof CONTACT_LABELS>).map((f) => (
          <Field key={f} path={f} label={CONTACT_LABELS[f]} errors={errors}>
            {(input) => (
              <input {...input} inputMode={CONTACT_MODES[f]} value={form[f]} onInput={(e) => set({ [f]: e.currentTarget.value })} />
            )}
          </Field>
        ))}
        <h3>Social links</h3>
        {form.social.map((s, i) => (
          <div class="social-row" key={i} role="group" aria-label={`Social link ${i + 1}`}>
            <Field path={`social_links.${i}.platform`} label="Platform" errors={errors}>
              {(input) => (
                <input
                  {...input}
                  value={s.platform}
                  placeholder="instagram"
                  onInput={(e) => set({ social: form.social.map((x, j) => (j === i ? { ...x, platform: e.currentTarget.value } : x)) })}
                />
              )}
            </Field>
            <Field path={`social_links.${i}.url`} label="Address (URL)" errors={errors}>
              {(input) => (
                <input
                  {...input}
                  type="url"
                  value={s.url}
                  onInput={(e) => set({ social: form.social.map((x, j) => (j === i ? { ...x, url: e.currentTarget.value } : x)) })}
                />
              )}
            </Field>
            <button type="button" onClick={() => set({ social: form.social.filter((_, j) => j !== i) })}>
              Remove social link {i + 1}
            </button>
          </div>
        ))}
        <button type="button" onClick={() => set({ social: [...form.social, { platform: '', url: '' }] })}>
          Add a social link
        </button>
      </fieldset>
      <fieldset class="group">
        <legend>Opening hours</legend>
        <Field
          path="timezone"
          label="Time zone"
          errors={errors}
          hint="The hours are the cafe's local time; guests see whether it is open now."
        >
          {(input) => <ZoneSelect input={input} value={form.timezone} onChange={(timezone) => set({ timezone })} />}
        </Field>
        {suggested.hours && (
          <p class="notice" id="hours-suggested">
            {suggested.zone ? `Suggested: ${zoneLabel(suggested.zone)} (this device's) and` : 'Suggested:'} a cafe's usual hours, open every
            day. Change what differs, then save the profile: until then the menu page shows no hours.
          </p>
        )}
        {form.hours.map((d, i) => (
          <fieldset class="group day-hours" key={d.day}>
            <legend>{dayLabel(d.day)}</legend>
            <div class="check">
              <input
                id={`open-${d.day}`}
                type="checkbox"
                checked={d.enabled}
                onChange={(e) => setDay(i, { enabled: e.currentTarget.checked })}
              />
              <label for={`open-${d.day}`}>Open on {dayLabel(d.day)}</label>
            </div>
            {d.enabled &&
              d.ranges.map((r, k) => (
                <div class="time-range" key={k} role="group" aria-label={`${dayLabel(d.day)} opening ${k + 1}`}>
                  {(['from', 'to'] as const).map((end) => (
                    <Field
                      key={end}
                      path={`operating_hours.${i}.ranges.${k}.${end}`}
                      label={end === 'from' ? 'Opens' : 'Closes'}
                      errors={errors}
                    >
                      {(input) => (
                        <input
                          {...input}
                          type="time"
                          value={r[end]}
                          onInput={(e) =>
                            setDay(i, { ranges: d.ranges.map((x, j) => (j === k ? { ...x, [end]: e.currentTarget.value } : x)) })
                          }
                        />
                      )}
                    </Field>
                  ))}
                  {d.ranges.length > 1 && (
                    <button type="button" onClick={() => setDay(i, { ranges: d.ranges.filter((_, j) => j !== k) })}>
                      Remove {dayLabel(d.day)} opening {k + 1}
                    </button>
                  )}
                </div>
              ))}
            <div class="day-actions">
              {d.enabled && d.ranges.length < RANGES_MAX && (
                <button type="button" onClick={() => setDay(i, { ranges: [...d.ranges, { from: '18:00', to: '22:00' }] })}>
                  <Icon name="plus" />
                  Add a {dayLabel(d.day)} opening
                </button>
              )}
              {d.day === 'monday' && (
                <>
                  <button type="button" onClick={(e) => copyMonday(WEEKDAYS_AFTER_MONDAY, 'Tuesday–Friday', e.currentTarget)}>
                    <Icon name="copy" />
                    Copy<span class="visually-hidden"> Monday's hours</span> to Tuesday–Friday
                  </button>
                  <button type="button" onClick={(e) => copyMonday(WEEKDAYS, 'every day', e.currentTarget)}>
                    <Icon name="copy" />
                    Copy<span class="visually-hidden"> Monday's hours</span> to every day
                  </button>
                </>
              )}
            </div>
          </fieldset>
        ))}
        <p class="hint">A closing time before the opening runs past midnight (18:00 to 02:00).</p>
      </fieldset>
      <Field path="facilities" label="Facilities" errors={errors} hint="One per line: wifi, terrace, wheelchair access…">
        {(input) => <textarea {...input} rows={4} value={form.facilities} onInput={(e) => set({ facilities: e.currentTarget.value })} />}
      </Field>
      {status && (
        <p class={status.ok ? undefined : 'field-error'} role={status.ok ? 'status' : 'alert'}>
          {status.text}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save profile'}
      </button>
    </form>
  );
}

type StepResult = { ok: true; cafe: Cafe } | { ok: false; errors: FieldErrors; message: string };

/** One of the two saves: the cafe it answered, or its errors by field and in words. */
async function saveStep(send: () => Promise<{ data?: { data: Cafe }; error?: unknown; response: Response }>): Promise<StepResult> {
  const { data, error, response } = await send();
  if (data) return { ok: true, cafe: data.data };
  const errors = fieldErrorsOf(error);
  return {
    ok: false,
    errors,
    message: Object.keys(errors).length ? 'Some fields need fixing; see the messages beside them.' : problemText(response.status, error),
  };
}
