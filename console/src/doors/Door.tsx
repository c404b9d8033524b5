/**
 * The pages outside the console's shell (sign-in, first start, joining, a forgotten password):
 * one card with the brand, a title, and fields whose errors sit beneath them, tied together
 * for screen readers.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon } from '../ui/Icon.js';

export function DoorCard({ title, lead, children }: { title: string; lead?: ComponentChildren; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · qrlinks console`;
  }, [title]);
  return (
    <main class="sign-in">
      <p class="brand-mark" aria-hidden="true">
        <Icon name="qrcode" size="1.75rem" />
      </p>
      <h1>{title}</h1>
      {lead && <div class="door-lead">{lead}</div>}
      {children}
    </main>
  );
}

interface FieldProps {
  id: string;
  label: string;
  value: string;
  onInput(value: string): void;
  error?: string | undefined;
  hint?: ComponentChildren;
  type?: 'text' | 'email' | 'password';
  autocomplete: string;
  inputMode?: 'numeric' | 'text' | 'email';
  maxLength?: number;
  autoFocus?: boolean;
  readOnly?: boolean;
}

/** A labelled input; a password one can be shown while typed. */
export function DoorField({
  id,
  label,
  value,
  onInput,
  error,
  hint,
  type = 'text',
  autocomplete,
  inputMode,
  maxLength,
  autoFocus,
  readOnly,
}: FieldProps) {
  const [shown, setShown] = useState(false);
  const ref = useRef<HTMLInputElement>(null);
  // The first field of a page that is only this form takes the focus as the page opens (the
  // autofocus attribute is honoured once per document, and these pages come and go by hash).
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, []);
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const input = (
    <input
      id={id}
      name={id}
      // One of three types at run time; the JSX types only take one literal at a time (tsc needs the
      // assertion the rule calls unnecessary).
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
      type={(type === 'password' && shown ? 'text' : type) as 'text'}
      autocomplete={autocomplete}
      inputMode={inputMode}
      spellcheck={false}
      autoCapitalize={type === 'text' && autocomplete !== 'name' && autocomplete !== 'organization' ? 'off' : undefined}
      maxLength={maxLength}
      ref={ref}
      readOnly={readOnly}
      value={value}
      onInput={(e) => onInput(e.currentTarget.value)}
      aria-invalid={error ? 'true' : undefined}
      aria-describedby={described}
    />
  );
  return (
    <div class="door-field">
      <label for={id}>{label}</label>
      {type === 'password' ? (
        <div class="password-input">
          {input}
          <button
            type="button"
            class="ghost icon-only"
            aria-label={`Show ${label.toLowerCase()}`}
            aria-pressed={shown}
            aria-controls={id}
            onClick={() => setShown(!shown)}
          >
            <Icon name={shown ? 'eye-off' : 'eye'} />
          </button>
        </div>
      ) : (
        input
      )}
      {error ? (
        <p id={`${id}-error`} class="field-error" role="alert">
          {error}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} class="hint">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

/** A refusal that belongs to the whole form, not one field. */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p class="form-error" role="alert">
      <Icon name="alert-triangle" />
      <span>{message}</span>
    </p>
  );
}

/** The one main button of a door's form. */
export function SubmitButton({ busy, label, busyLabel }: { busy: boolean; label: string; busyLabel: string }) {
  return (
    <button type="submit" class="primary wide" disabled={busy} aria-busy={busy}>
      {busy ? busyLabel : label}
    </button>
  );
}
