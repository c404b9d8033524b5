import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface Props {
  title: string;
  submitLabel: string;
  /** The button that closes the dialog doing nothing; "Cancel" unless a question is better answered otherwise ("Stay"). */
  cancelLabel?: string;
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
export function Dialog({
  title,
  submitLabel,
  cancelLabel = 'Cancel',
  onSubmit,
  onCancel,
  error,
  busy = false,
  danger = false,
  children,
}: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  // Its own title id: "Leave without saving?" can open over another dialog (a dish's form).
  const titleId = `dialog-title-${useId()}`;
  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    ref.current?.showModal();
    return () => opener?.focus();
  }, []);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={titleId} onCancel={(e) => (e.preventDefault(), onCancel())}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit(new FormData(e.currentTarget));
        }}
      >
        <h2 id={titleId}>{title}</h2>
        {children}
        {error && (
          <p class="field-error" role="alert">
            {error}
          </p>
        )}
        <div class="dialog-actions">
          <button type="button" onClick={onCancel}>
            {cancelLabel}
          </button>
          <button type="submit" class={danger ? 'danger' : undefined} disabled={busy}>
            {submitLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
