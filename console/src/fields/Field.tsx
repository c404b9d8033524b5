/**
 * A labelled input with its hint and its error beneath it, tied together for screen readers.
 * The field's `path` is the request body path the API names in its errors, and also its id.
 */
import type { ComponentChildren } from 'preact';
import type { FieldErrors } from './errors.js';

/** What the input inside a Field spreads onto itself. */
export interface FieldInputProps {
  id: string;
  'aria-invalid': 'true' | undefined;
  'aria-describedby': string | undefined;
}

interface Props {
  path: string;
  label: ComponentChildren;
  errors: FieldErrors;
  hint?: ComponentChildren;
  children(input: FieldInputProps): ComponentChildren;
}

/** A DOM id for a body path (`data.files.0.fileId` → `field-data-files-0-fileId`). */
export const fieldId = (path: string) => `field-${path.replace(/[^A-Za-z0-9_-]/g, '-')}`;

export function Field({ path, label, errors, hint, children }: Props) {
  const id = fieldId(path);
  const error = errors[path];
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={error ? 'field field-invalid' : 'field'}>
      <label for={id}>{label}</label>
      {children({ id, 'aria-invalid': error ? 'true' : undefined, 'aria-describedby': described || undefined })}
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
