/**
 * An image kept as a file until its form is saved (the endpoints take the file itself), with a
 * preview of the file chosen, or the stored image removed. Stored images are served by the
 * short-link host, which the console's CSP does not load from: they are linked, not shown.
 */
import { useMemo } from 'preact/hooks';
import { Field } from '../fields/Field.js';
import type { FieldErrors } from '../fields/errors.js';

interface Props {
  path: string;
  label: string;
  /** What saves the file ("profile", "dish"), said in the hint and the preview's name. */
  savedWith: string;
  current: string | null;
  file: File | null;
  remove: boolean;
  errors: FieldErrors;
  onChange(file: File | null, remove: boolean): void;
}

export function ImageField({ path, label, savedWith, current, file, remove, errors, onChange }: Props) {
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  const removeId = `remove-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  return (
    <div class="image-field">
      <Field path={path} label={`${label} (optional)`} errors={errors} hint={`PNG, JPEG, WebP, GIF or SVG. Saved with the ${savedWith}.`}>
        {(input) => (
          <input
            {...input}
            type="file"
            accept="image/png,image/jpeg,image/webp,image/gif,image/svg+xml"
            onChange={(e) => onChange(e.currentTarget.files?.[0] ?? null, false)}
          />
        )}
      </Field>
      {preview && <img src={preview} alt={`${label} chosen, saved with the ${savedWith}`} class="image-preview" />}
      {current && !file && !remove && (
        <p>
          <a href={current} target="_blank" rel="noopener noreferrer">
            Open the current {label.toLowerCase()}
            <span class="visually-hidden"> (new tab)</span>
          </a>
        </p>
      )}
      {current && !file && (
        <div class="check">
          <input id={removeId} type="checkbox" checked={remove} onChange={(e) => onChange(null, e.currentTarget.checked)} />
          <label for={removeId}>Remove the {label.toLowerCase()}</label>
        </div>
      )}
    </div>
  );
}
