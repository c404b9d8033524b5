/**
 * The link editor's page look: the language, colours, logo, cover, title, description and website
 * of every page a visitor gets from the link. Thin: the mapping and checks live in page-look.ts;
 * inputs are keyed by the body paths the API names in its errors.
 */
import { Field } from '../fields/Field.js';
import type { FieldErrors } from '../fields/errors.js';
import { FileDrop, type FileInfo } from './FileDrop.js';
import { languageChoices } from '../fields/languages.js';
import { PAGE_LOOK_PATHS, type PageLookForm } from './page-look.js';
import './editor-parts.css';

interface Props {
  value: PageLookForm;
  onChange(next: PageLookForm): void;
  errors: FieldErrors;
  files: Record<string, FileInfo>;
  onFile(fileId: string, info: FileInfo): void;
}

export function PageLook({ value, onChange, errors, files, onFile }: Props) {
  const set = (change: Partial<PageLookForm>) => onChange({ ...value, ...change });
  const image = (member: 'logo' | 'cover', label: string) => (
    <div class="page-look-image">
      <FileDrop
        path={PAGE_LOOK_PATHS[member]}
        label={label}
        kind="image"
        fileId={value[member]}
        info={files[value[member]]}
        errors={errors}
        onUploaded={(fileId, info) => {
          onFile(fileId, info);
          set({ [member]: fileId });
        }}
      />
      {value[member] && (
        <button type="button" class="small" onClick={() => set({ [member]: '' })}>
          Remove the {member}
        </button>
      )}
    </div>
  );
  return (
    <fieldset class="link-settings page-look">
      <legend>Page look</legend>
      <div class="setting">
        <label class="check" for="setting-page-look">
          <input id="setting-page-look" type="checkbox" checked={value.on} onChange={(e) => set({ on: e.currentTarget.checked })} />
          Brand the pages visitors see
        </label>
        <p class="hint">
          {value.on
            ? 'The link’s page, and its paused, expired and password pages, show your name, logo and colours in your language.'
            : value.stored
              ? 'Saving removes the brand: the pages go back to the standard look.'
              : 'Pages have the standard look and speak the visitor’s language.'}
        </p>
        {value.on && (
          <div class="setting-body">
            <Field
              path={PAGE_LOOK_PATHS.title}
              label="Title (optional)"
              errors={errors}
              hint="Your business or page name, shown as the heading and read for the logo. Visitors never see the link’s own name."
            >
              {(input) => (
                <input {...input} type="text" maxLength={200} value={value.title} onInput={(e) => set({ title: e.currentTarget.value })} />
              )}
            </Field>
            <Field
              path={PAGE_LOOK_PATHS.description}
              label="Description (optional)"
              errors={errors}
              hint="One or two sentences shown when the link is shared in a chat or a post."
            >
              {(input) => (
                <textarea
                  {...input}
                  rows={2}
                  maxLength={400}
                  value={value.description}
                  onInput={(e) => set({ description: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field
              path={PAGE_LOOK_PATHS.website}
              label="Website (optional)"
              errors={errors}
              hint="The way back to you: pages link to it, also when the link is paused or has ended."
            >
              {(input) => (
                <input
                  {...input}
                  type="url"
                  inputMode="url"
                  autocomplete="url"
                  spellcheck={false}
                  value={value.website}
                  onInput={(e) => set({ website: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field path={PAGE_LOOK_PATHS.language} label="Language of the pages" errors={errors} hint="Words, dates and prices follow it.">
              {(input) => (
                <select {...input} value={value.language} onChange={(e) => set({ language: e.currentTarget.value })}>
                  {languageChoices(value.language, 'The visitor’s language (English, Portuguese, Spanish, French or German)').map((l) => (
                    <option key={l.tag} value={l.tag}>
                      {l.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <label class="check" for="setting-page-colours">
              <input
                id="setting-page-colours"
                type="checkbox"
                checked={value.coloursOn}
                onChange={(e) => set({ coloursOn: e.currentTarget.checked })}
              />
              Use my colours for buttons and links
            </label>
            {value.coloursOn && (
              <div class="setting-row">
                <Field path={PAGE_LOOK_PATHS.accentColor} label="Accent colour" errors={errors}>
                  {(input) => (
                    <input {...input} type="color" value={value.accentColor} onInput={(e) => set({ accentColor: e.currentTarget.value })} />
                  )}
                </Field>
                <Field path={PAGE_LOOK_PATHS.accentColorDark} label="Accent colour in dark mode" errors={errors}>
                  {(input) => (
                    <input
                      {...input}
                      type="color"
                      value={value.accentColorDark}
                      onInput={(e) => set({ accentColorDark: e.currentTarget.value })}
                    />
                  )}
                </Field>
                <p class="hint">
                  Text stays readable: a colour too pale for text on white (or too dark on black, in dark mode) gives way to the standard
                  one.
                </p>
              </div>
            )}
            {image('logo', 'Logo')}
            {image('cover', 'Cover image')}
          </div>
        )}
      </div>
    </fieldset>
  );
}
