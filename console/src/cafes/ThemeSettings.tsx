/**
 * The menu page's look: a theme, the cafe's own colours or the theme's, the dietary section on or
 * off, with the real menu page in that look beside the form (ThemePreview) before it is saved.
 */
import { useMemo, useState } from 'preact/hooks';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { Field } from '../fields/Field.js';
import { fieldErrorsOf, NO_ERRORS, type FieldErrors } from '../fields/errors.js';
import { MENU_THEME_KEYS, MENU_THEMES, type MenuThemeKey } from '#domain/cafes/themes.js';
import type { Cafe } from './cafe-list.js';
import { themeBodyOf, themeFormOf, withTheme, type ThemeForm } from './theme.js';
import { ThemePreview } from './ThemePreview.js';
import { useEdited, useUnsavedGuard } from '../unsaved.js';

export function ThemeSettings({ cafe, onSaved }: { cafe: Cafe; onSaved(cafe: Cafe): void }) {
  const client = useMemo(signedInClient, []);
  const [form, setForm] = useState<ThemeForm>(() => themeFormOf(cafe));
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  useUnsavedGuard(useEdited(form, themeFormOf(cafe)) && !busy, `/cafes/${cafe.id}`);

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setStatus(null);
    try {
      const { data, error, response } = await client.PUT('/api/v1/cafes/{id}/theme', {
        params: { path: { id: cafe.id } },
        body: themeBodyOf(form),
      });
      if (data) {
        setErrors(NO_ERRORS);
        setStatus({ ok: true, text: 'Saved. Guests now see this look.' });
        onSaved(data.data);
      } else {
        setErrors(fieldErrorsOf(error));
        setStatus({ ok: false, text: problemText(response.status, error) });
      }
    } catch {
      setStatus({ ok: false, text: UNREACHABLE });
    } finally {
      setBusy(false);
    }
  };

  return (
    // `save` says its own failures in the status line: it never rejects.
    <form class="cafe-theme" onSubmit={(e) => void save(e)} noValidate aria-labelledby="theme-title">
      <h2 id="theme-title">Look of the menu page</h2>
      <div class="theme-layout">
        <div class="theme-fields">
          <Field path="themeImage" label="Theme" errors={errors} hint={MENU_THEMES[form.themeImage].label}>
            {(input) => (
              <select {...input} value={form.themeImage} onChange={(e) => setForm(withTheme(form, e.currentTarget.value as MenuThemeKey))}>
                {MENU_THEME_KEYS.map((key) => (
                  <option key={key} value={key}>
                    {key[0]!.toUpperCase() + key.slice(1)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {(['primary', 'secondary'] as const).map((which) => {
            const own = which === 'primary' ? 'ownPrimary' : 'ownSecondary';
            return (
              <div class="theme-color" key={which}>
                <div class="check">
                  <input
                    id={`own-${which}`}
                    type="checkbox"
                    checked={form[own]}
                    onChange={(e) => setForm({ ...form, [own]: e.currentTarget.checked })}
                  />
                  <label for={`own-${which}`}>Use my own {which} colour</label>
                </div>
                <Field
                  path={`${which}Color`}
                  label={`${which === 'primary' ? 'Primary (headings, prices)' : 'Secondary (badges, buttons)'} colour`}
                  errors={errors}
                >
                  {(input) => (
                    <input
                      {...input}
                      type="color"
                      value={form[which]}
                      disabled={!form[own]}
                      onInput={(e) => setForm({ ...form, [which]: e.currentTarget.value })}
                    />
                  )}
                </Field>
              </div>
            );
          })}
          <div class="check">
            <input
              id="show-dietary"
              type="checkbox"
              checked={form.showDietarySection}
              onChange={(e) => setForm({ ...form, showDietarySection: e.currentTarget.checked })}
            />
            <label for="show-dietary">Show the dietary section (vegan, gluten-free… with how many dishes)</label>
          </div>
          {status && (
            <p class={status.ok ? undefined : 'field-error'} role={status.ok ? 'status' : 'alert'}>
              {status.text}
            </p>
          )}
          <div class="actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Saving…' : 'Save look'}
            </button>
            <a href={cafe.link.full_dynamic_url} target="_blank" rel="noopener noreferrer">
              Open the saved menu page<span class="visually-hidden"> (opens in a new tab)</span>
            </a>
          </div>
        </div>
        <ThemePreview cafeId={cafe.id} form={form} />
      </div>
    </form>
  );
}
