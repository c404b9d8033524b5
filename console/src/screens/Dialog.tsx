import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

interface Props {
  title: string;
  submitLabel: string;
  onSubmit(form: FormData): void;
  onCancel(): void;
  /** Why the last attempt failed, in words; the dialog stays open to try again or cancel. */
  error?: string | null;
  /** While the answer is awaited the submit button is disabled, so one click does one thing. */
  busy?: boolean;
  /** For what cannot be undone: the submit button is drawn as a warning. */
  danger?: boolean;
  children?: ComponentChildren;
}

/**
 * A modal question (the browser's <dialog>): focus moves into it, Tab stays inside, Escape or
 * "Cancel" closes it without doing anything, and focus returns where it was.
 */
export function Dialog({ title, submitLabel, onSubmit, onCancel, error, busy = false, danger = false, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.showModal();
    return () => opener?.focus();
  }, []);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="dialog-title" onCancel={(e) => (e.preventDefault(), onCancel())}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit(new FormData(e.currentTarget));
        }}
      >
        <h2 id="dialog-title">{title}</h2>
        {children}
        {error && (
          <p class="field-error" role="alert">
            {error}
          </p>
        )}
        <div class="dialog-actions">
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
          <button type="submit" class={danger ? 'danger' : undefined} disabled={busy}>
            {submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
